//! `_native.CodeChunker`: the core [`CodeChunker`] and the `Chunk` objects of its chunks.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyMappingProxy, PyString, PyTuple};

use crate::code::{language_names, CodeChunk, CodeChunker};
use crate::python::chunk::PyChunk;
use crate::python::ffi::checked_utf8;
use crate::python::length::PyLength;
use crate::python::split::native_length;

/// A configured code chunker; immutable and shareable across threads.
#[pyclass(frozen, name = "CodeChunker", module = "ferrochunk._native")]
pub struct PyCodeChunker {
    inner: CodeChunker,
}

#[pymethods]
impl PyCodeChunker {
    #[new]
    fn new(language: &str, chunk_size: usize) -> PyResult<Self> {
        Ok(Self {
            inner: CodeChunker::new(language, chunk_size)?,
        })
    }

    /// The main name of every language, in the table's order.
    #[staticmethod]
    fn languages() -> Vec<&'static str> {
        language_names()
    }

    /// The chunks of `text`, each with `metadata` plus `language` and `scope_path`.
    fn split<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        metadata: &Bound<'py, PyDict>,
        length: Option<&Bound<'py, PyAny>>,
        embedding_text: bool,
    ) -> PyResult<Vec<Py<PyChunk>>> {
        let (_, utf8) = checked_utf8(py, text)?;
        let source: &str = &utf8;
        let chunks = match (length, length.and_then(native_length)) {
            (None, _) => py.detach(|| self.inner.chunk(source, None))?,
            (Some(_), Some(count)) => py.detach(|| self.inner.chunk(source, Some(count)))?,
            (Some(func), None) => {
                let length = PyLength::new(func.clone());
                let out = self.inner.chunk(source, Some(&length));
                length.finish(out)?
            }
        };
        let language = PyString::new(py, self.inner.language());
        chunks
            .iter()
            .enumerate()
            .map(|(i, c)| build(py, source, c, i, metadata, &language, embedding_text))
            .collect()
    }
}

/// The `Chunk` of `c`: its own metadata, a read-only copy of the user's plus its facts.
fn build<'py>(
    py: Python<'py>,
    source: &str,
    c: &CodeChunk,
    index: usize,
    metadata: &Bound<'py, PyDict>,
    language: &Bound<'py, PyString>,
    embedding_text: bool,
) -> PyResult<Py<PyChunk>> {
    let meta = metadata.copy()?;
    meta.set_item("language", language)?;
    meta.set_item("scope_path", PyTuple::new(py, &c.scope_path)?)?;
    if embedding_text {
        meta.set_item("embedding_text", c.embedding_text(source))?;
    }
    let view = PyMappingProxy::new(py, meta.as_mapping())
        .into_any()
        .unbind();
    let text = PyString::new(py, &source[c.byte_start..c.byte_end]).unbind();
    let chunk = PyChunk::new(
        text,
        c.start,
        c.end,
        c.byte_start,
        c.byte_end,
        index,
        view,
        None,
    );
    Ok(chunk.into_object(py)?.unbind())
}
