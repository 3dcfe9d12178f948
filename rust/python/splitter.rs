//! `_native.Splitter`: the core [`Splitter`] behind the drop-in classes and `ferrochunk.split`.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use super::chunk::PyChunk;
use super::length::PyLength;
use crate::error::Result;
use crate::scan::{KeepSeparator, Separator};
use crate::split::{SplitConfig, SplitOutput, Splitter};
use crate::text::char_count;

/// A configured splitter; immutable and shareable across threads.
#[pyclass(frozen, name = "Splitter", module = "ferrochunk._native")]
pub struct PySplitter {
    inner: Splitter,
}

fn keep_from(name: &str) -> PyResult<KeepSeparator> {
    match name {
        "drop" => Ok(KeepSeparator::Drop),
        "start" => Ok(KeepSeparator::Start),
        "end" => Ok(KeepSeparator::End),
        _ => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "keep must be 'drop', 'start' or 'end', got {name:?}"
        ))),
    }
}

/// `(pattern, is_regex, join_text)` to a core separator.
fn separator((pattern, is_regex, join): (String, bool, String)) -> Result<Separator> {
    let sep = if is_regex {
        Separator::regex(&pattern)?
    } else {
        Separator::literal(&pattern)
    };
    Ok(sep.with_join_text(&join))
}

impl PySplitter {
    /// Runs the core with the GIL released, or holding it when a Python callable measures.
    fn run(
        &self,
        py: Python<'_>,
        text: &str,
        length: Option<Bound<'_, PyAny>>,
    ) -> PyResult<SplitOutput> {
        match length {
            None => {
                let inner = &self.inner;
                Ok(py.detach(move || inner.split(text, None))?)
            }
            Some(func) => {
                let length = PyLength::new(func);
                let out = self.inner.split(text, Some(&length));
                length.finish(out)
            }
        }
    }
}

#[pymethods]
impl PySplitter {
    #[new]
    #[pyo3(signature = (chunk_size, chunk_overlap, separators, keep, strip_whitespace, recursive))]
    fn new(
        chunk_size: i64,
        chunk_overlap: i64,
        separators: Vec<(String, bool, String)>,
        keep: &str,
        strip_whitespace: bool,
        recursive: bool,
    ) -> PyResult<Self> {
        let config = SplitConfig::new(chunk_size, chunk_overlap)?
            .keep(keep_from(keep)?)
            .strip(strip_whitespace);
        let mut separators = separators
            .into_iter()
            .map(separator)
            .collect::<Result<Vec<_>>>()?;
        let inner = if recursive {
            Splitter::recursive(config, separators)
        } else {
            let sep = separators.pop().unwrap_or_else(|| Separator::literal(""));
            Splitter::single(config, sep)
        };
        Ok(Self { inner })
    }

    /// The chunk texts as LangChain returns them, and the sizes it would warn about.
    #[pyo3(signature = (text, length=None))]
    fn split_text<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        length: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyList>, Vec<usize>)> {
        let source = text.to_str()?;
        let out = self.run(py, source, length)?;
        let texts = PyList::new(
            py,
            out.chunks.iter().map(|c| PyString::new(py, c.text(source))),
        )?;
        Ok((texts, out.oversized))
    }

    /// Chunks with code-point and byte offsets, each carrying `metadata`; and the warnings.
    #[pyo3(signature = (text, metadata, length=None))]
    fn split<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        metadata: Bound<'py, PyAny>,
        length: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyList>, Vec<usize>)> {
        let source = text.to_str()?;
        let out = self.run(py, source, length)?;
        let spans = py.detach(|| out.char_spans(source));
        let chunks = out
            .chunks
            .iter()
            .zip(spans)
            .enumerate()
            .map(|(index, (c, (start, end)))| {
                debug_assert!(c.joined.is_none(), "native chunks are source spans");
                let piece = c.text(source);
                debug_assert_eq!(char_count(piece), end - start);
                PyChunk::new(
                    PyString::new(py, piece).unbind(),
                    start,
                    end,
                    c.byte_start,
                    c.byte_end,
                    index,
                    metadata.clone().unbind(),
                )
            });
        let list = PyList::empty(py);
        for chunk in chunks {
            list.append(Bound::new(py, chunk)?)?;
        }
        Ok((list, out.oversized))
    }
}
