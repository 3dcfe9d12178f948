//! `_native.Chunk` objects for the Markdown chunker, metadata included, built in Rust: the
//! per-chunk dict, ids and heading-path tuples cost far less here than in Python.

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyMappingProxy, PyString, PyTuple};

use crate::markdown::ids::Span;
use crate::markdown::sections::Coverage;
use crate::python::chunk::PyChunk;
use crate::python::ffi::span_string;

/// What every chunk of a call shares.
pub struct Shared<'a, 'py> {
    pub source: &'a str,
    /// The same text as the caller's Python string (non-ASCII chunks are sliced from it).
    pub source_py: &'a Bound<'py, PyString>,
    pub doc: Bound<'py, PyString>,
    pub user: &'a Bound<'py, PyDict>,
    pub embedding: bool,
    /// Ids of the parents, when children get a `parent_id` (parents get `None`).
    pub parent_ids: Option<&'a [Bound<'py, PyString>]>,
}

/// What to embed: the heading path, the repeated table header, then the text.
fn embedding_text(path: &[String], header: Option<&str>, text: &str) -> String {
    let mut out = path.join(" > ");
    if !path.is_empty() {
        out.push_str("\n\n");
    }
    if let Some(h) = header {
        out.push_str(h);
        out.push('\n');
    }
    out.push_str(text);
    out
}

/// Chunks and their ids as Python strings.
pub type Built<'py> = (Vec<Py<PyChunk>>, Vec<Bound<'py, PyString>>);

/// Heading paths as Python tuples, each distinct path made once per call (paths are shared
/// `Arc`s, so the pointer identifies them).
struct PathTuples<'py> {
    made: HashMap<*const [String], Bound<'py, PyTuple>>,
}

impl<'py> PathTuples<'py> {
    fn get(&mut self, py: Python<'py>, path: &Arc<[String]>) -> PyResult<Bound<'py, PyTuple>> {
        let key = Arc::as_ptr(path);
        if let Some(tuple) = self.made.get(&key) {
            return Ok(tuple.clone());
        }
        let tuple = PyTuple::new(py, path.iter())?;
        self.made.insert(key, tuple.clone());
        Ok(tuple)
    }

    /// `heading_paths` (every path covered) and `main_heading_path` of a span.
    fn coverage(
        &mut self,
        py: Python<'py>,
        coverage: &Coverage,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
        let paths = coverage
            .paths
            .iter()
            .map(|p| self.get(py, p))
            .collect::<PyResult<Vec<_>>>()?;
        let main = paths[coverage.main].clone();
        Ok((PyTuple::new(py, paths)?, main))
    }
}

/// The Python chunks of `spans`, and their ids as Python strings.
pub fn build<'py>(
    py: Python<'py>,
    spans: &[Span],
    shared: &Shared<'_, 'py>,
    hierarchy: bool,
) -> PyResult<Built<'py>> {
    let ids: Vec<_> = spans.iter().map(|s| PyString::new(py, &s.id)).collect();
    let mut out = Vec::with_capacity(spans.len());
    let mut tuples = PathTuples {
        made: HashMap::new(),
    };
    for (index, s) in spans.iter().enumerate() {
        let text = &shared.source[s.start..s.end];
        let path = tuples.get(py, &s.path)?;
        let (covered, main) = tuples.coverage(py, &s.coverage)?;
        let header = s.header.map(|(a, b)| &shared.source[a..b]);
        let meta = shared.user.copy()?;
        meta.set_item(intern!(py, "document_id"), &shared.doc)?;
        meta.set_item(intern!(py, "chunk_id"), &ids[index])?;
        meta.set_item(
            intern!(py, "prev_id"),
            index.checked_sub(1).map(|k| &ids[k]),
        )?;
        meta.set_item(intern!(py, "next_id"), ids.get(index + 1))?;
        meta.set_item(intern!(py, "heading_path"), path)?;
        meta.set_item(intern!(py, "heading_paths"), covered)?;
        meta.set_item(intern!(py, "main_heading_path"), main)?;
        meta.set_item(intern!(py, "continuation"), s.continuation)?;
        meta.set_item(intern!(py, "table_header"), header)?;
        if shared.embedding {
            let e = embedding_text(s.coverage.main_path(), header, text);
            meta.set_item(intern!(py, "embedding_text"), e)?;
        }
        if hierarchy {
            let parent = shared
                .parent_ids
                .zip(s.parent)
                .map(|(ids, k)| ids[k].clone());
            meta.set_item(intern!(py, "parent_id"), parent)?;
        }
        let proxy = PyMappingProxy::new(py, meta.as_mapping());
        let chunk = PyChunk::new(
            span_string(
                shared.source_py,
                shared.source,
                (s.start, s.end),
                (s.char_start, s.char_end),
            )?
            .unbind(),
            s.char_start,
            s.char_end,
            s.start,
            s.end,
            index,
            proxy.into_any().unbind(),
            s.tokens,
        );
        let chunk = chunk.into_object(py)?;
        out.push(chunk.unbind());
    }
    Ok((out, ids))
}
