//! `_native.HeaderSplitter`: the core [`HeaderSplitter`] behind `MarkdownHeaderTextSplitter`.

use std::collections::HashSet;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::markdown::header::{HeaderRule, HeaderSplitter};

/// A configured header splitter; immutable and shareable across threads.
#[pyclass(frozen, name = "HeaderSplitter", module = "ferrochunk._native")]
pub struct PyHeaderSplitter {
    inner: HeaderSplitter,
}

#[pymethods]
impl PyHeaderSplitter {
    /// `rules` are `(sep, name_id or None, level, custom)`, longest `sep` first.
    #[new]
    #[pyo3(signature = (rules, return_each_line, strip_headers))]
    fn new(
        rules: Vec<(String, Option<usize>, i64, bool)>,
        return_each_line: bool,
        strip_headers: bool,
    ) -> Self {
        let rules = rules
            .into_iter()
            .map(|(sep, name, level, custom)| HeaderRule {
                sep,
                name,
                level,
                custom,
            })
            .collect();
        Self {
            inner: HeaderSplitter::new(rules, return_each_line, strip_headers),
        }
    }

    /// `[(content, [(name_id, text), ...]), ...]`; `nonprintable` lists the non-ASCII
    /// characters of `text` that `str.isprintable` rejects.
    fn split<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        nonprintable: &str,
    ) -> PyResult<Bound<'py, PyList>> {
        let source = text.to_str()?;
        let set: HashSet<char> = nonprintable.chars().collect();
        let inner = &self.inner;
        let blocks = py.detach(|| inner.split(source, &set))?;
        let items = blocks
            .into_iter()
            .map(|b| (b.content, b.metadata).into_pyobject(py))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }
}
