//! `_native.MarkdownChunker`: the core [`MarkdownChunker`] plus offsets and stable ids.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use super::length::PyLength;
use crate::chunk_id::{chunk_id, text_digest};
use crate::error::Result;
use crate::markdown_chunk::{MarkdownChunker, MdChunk};
use crate::scan::Separator;
use crate::text::CharCursor;

/// A configured Markdown chunker; immutable and shareable across threads.
#[pyclass(frozen, name = "MarkdownChunker", module = "ferrochunk._native")]
pub struct PyMarkdownChunker {
    inner: MarkdownChunker,
    settings: String,
}

/// One chunk with everything the Python layer needs, computed without the GIL.
struct Row {
    start: usize,
    end: usize,
    char_start: usize,
    char_end: usize,
    id: String,
    chunk: MdChunk,
}

fn rows(chunks: Vec<MdChunk>, text: &str, doc: &str, settings: &str) -> Vec<Row> {
    let digest = text_digest(text);
    let ascii = text.is_ascii();
    let (mut starts, mut ends) = (CharCursor::new(text, ascii), CharCursor::new(text, ascii));
    chunks
        .into_iter()
        .map(|chunk| {
            let (cs, ce) = (starts.char_offset(chunk.start), ends.char_offset(chunk.end));
            Row {
                start: chunk.start,
                end: chunk.end,
                char_start: cs,
                char_end: ce,
                id: chunk_id(doc, settings, &digest, cs, ce),
                chunk,
            }
        })
        .collect()
}

#[pymethods]
impl PyMarkdownChunker {
    /// `separators` are regexes in the syntax Python's `re` and the `regex` crate share.
    #[new]
    #[pyo3(signature = (chunk_size, min_size, separators, settings))]
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts a list by value
    fn new(
        chunk_size: usize,
        min_size: usize,
        separators: Vec<String>,
        settings: String,
    ) -> PyResult<Self> {
        let seps = separators
            .iter()
            .map(|s| Separator::regex(s))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            inner: MarkdownChunker::new(chunk_size, min_size, seps),
            settings,
        })
    }

    /// `(document_id, rows)`; a row is `(text, start, end, byte_start, byte_end,
    /// heading_path, continuation, table_header, chunk_id)`.
    #[pyo3(signature = (text, document_id=None, length=None))]
    fn rows<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        document_id: Option<String>,
        length: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(String, Bound<'py, PyList>)> {
        let source = text.to_str()?;
        let chunks = match length {
            None => {
                let inner = &self.inner;
                py.detach(|| inner.chunk(source, None))?
            }
            Some(func) => {
                let length = PyLength::new(func);
                let out = self.inner.chunk(source, Some(&length));
                length.finish(out)?
            }
        };
        let settings = &self.settings;
        let (doc, rows) = py.detach(|| {
            let doc = document_id.unwrap_or_else(|| text_digest(source)[..32].to_owned());
            let rows = rows(chunks, source, &doc, settings);
            (doc, rows)
        });
        let list = PyList::empty(py);
        for r in rows {
            let c = &r.chunk;
            let path = PyTuple::new(py, c.path.iter())?;
            let header = c.header.map(|(a, b)| &source[a..b]);
            let item = (
                PyString::new(py, &source[r.start..r.end]),
                r.char_start,
                r.char_end,
                r.start,
                r.end,
                path,
                c.continuation,
                header,
                r.id,
            );
            list.append(item)?;
        }
        Ok((doc, list))
    }
}
