//! `_native.Chunk` objects for the Markdown chunker, metadata included, built in Rust: the
//! per-chunk dict, ids and heading-path tuples cost far less here than in Python.

use std::sync::Arc;

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyMappingProxy, PyString, PyTuple};

use crate::chunk_id::chunk_id;
use crate::python::chunk::PyChunk;
use crate::python::strings::span_string;
use crate::text::CharCursor;

/// One chunk (or parent) before it becomes a Python object; computed without the GIL.
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub char_start: usize,
    pub char_end: usize,
    pub id: String,
    pub path: Arc<[String]>,
    pub continuation: bool,
    pub header: Option<(usize, usize)>,
    /// Index of the parent, in hierarchy mode.
    pub parent: Option<usize>,
}

/// What identifies chunks of one document: its id, the settings and the text's digest.
pub struct Identity<'a> {
    pub doc: &'a str,
    pub settings: &'a str,
    pub digest: &'a str,
}

/// Char offsets and ids for spans given in order, as
/// `(start, end, path, continuation, header, parent)` in bytes.
pub fn spans(
    text: &str,
    who: &Identity<'_>,
    items: impl Iterator<Item = (usize, usize, Arc<[String]>, bool, Option<(usize, usize)>)>,
) -> Vec<Span> {
    let ascii = text.is_ascii();
    let (mut starts, mut ends) = (CharCursor::new(text, ascii), CharCursor::new(text, ascii));
    items
        .map(|(start, end, path, continuation, header)| {
            let (cs, ce) = (starts.char_offset(start), ends.char_offset(end));
            Span {
                start,
                end,
                char_start: cs,
                char_end: ce,
                id: chunk_id(who.doc, who.settings, who.digest, cs, ce),
                path,
                continuation,
                header,
                parent: None,
            }
        })
        .collect()
}

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

/// The Python chunks of `spans`, and their ids as Python strings.
pub fn build<'py>(
    py: Python<'py>,
    spans: &[Span],
    shared: &Shared<'_, 'py>,
    hierarchy: bool,
) -> PyResult<Built<'py>> {
    let ids: Vec<_> = spans.iter().map(|s| PyString::new(py, &s.id)).collect();
    let mut out = Vec::with_capacity(spans.len());
    let mut last_path: Option<(Arc<[String]>, Bound<'py, PyTuple>)> = None;
    for (index, s) in spans.iter().enumerate() {
        let text = &shared.source[s.start..s.end];
        let path = match &last_path {
            Some((arc, tuple)) if Arc::ptr_eq(arc, &s.path) || **arc == *s.path => tuple.clone(),
            _ => {
                let tuple = PyTuple::new(py, s.path.iter())?;
                last_path = Some((Arc::clone(&s.path), tuple.clone()));
                tuple
            }
        };
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
        meta.set_item(intern!(py, "continuation"), s.continuation)?;
        meta.set_item(intern!(py, "table_header"), header)?;
        if shared.embedding {
            let e = embedding_text(&s.path, header, text);
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
            None,
        );
        out.push(Py::new(py, chunk)?);
    }
    Ok((out, ids))
}
