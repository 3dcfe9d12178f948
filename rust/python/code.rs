//! `_native.CodeChunker`: the core [`CodeChunker`] and the `Chunk` objects of its chunks.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyMappingProxy, PyString, PyTuple};

use rayon::prelude::*;

use crate::code::{language_names, CodeChunk, CodeChunker};
use crate::error::Result;
use crate::length::Length;
use crate::parallel;
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
        let chunks = self.chunks(py, source, length)?;
        self.build_all(py, source, &chunks, metadata, embedding_text)
    }

    /// Why each chunk of `split(text)` ends where it does (`CodeChunk::cut`).
    #[pyo3(signature = (text, length=None))]
    fn cut_reasons<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        length: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Vec<&'static str>> {
        let (_, utf8) = checked_utf8(py, text)?;
        let source: &str = &utf8;
        let chunks = self.chunks(py, source, length)?;
        Ok(chunks.iter().map(|c| c.cut).collect())
    }

    /// `split` of each text, chunked on `threads` threads with the GIL released; sizes in
    /// code points or by a native counter (the Python layer sends other lengths one by one).
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts lists by value
    fn split_batch<'py>(
        &self,
        py: Python<'py>,
        texts: Vec<Bound<'py, PyString>>,
        metadatas: Vec<Bound<'py, PyDict>>,
        length: Option<&Bound<'py, PyAny>>,
        embedding_text: bool,
        threads: Option<usize>,
    ) -> PyResult<Vec<Vec<Py<PyChunk>>>> {
        let counter = match length {
            None => None,
            Some(func) => Some(native_length(func).ok_or_else(|| {
                pyo3::exceptions::PyTypeError::new_err("split_batch takes a native counter")
            })?),
        };
        let sources = texts
            .iter()
            .map(|t| Ok(checked_utf8(py, t)?.1.into_owned()))
            .collect::<PyResult<Vec<String>>>()?;
        let threads = parallel::resolve(threads)?;
        let all = py.detach(|| {
            parallel::run(threads, || {
                sources
                    .par_iter()
                    .map(|s| self.inner.chunk(s, counter.map(|c| c as &dyn Length)))
                    .collect::<Result<Vec<_>>>()
            })
        })??;
        sources
            .iter()
            .zip(&all)
            .zip(&metadatas)
            .map(|((source, chunks), meta)| {
                self.build_all(py, source, chunks, meta, embedding_text)
            })
            .collect()
    }
}

impl PyCodeChunker {
    /// The core's chunks of `source`, the GIL released unless `length` is Python code.
    fn chunks(
        &self,
        py: Python<'_>,
        source: &str,
        length: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<CodeChunk>> {
        Ok(match (length, length.and_then(native_length)) {
            (None, _) => py.detach(|| self.inner.chunk(source, None))?,
            (Some(_), Some(count)) => py.detach(|| self.inner.chunk(source, Some(count)))?,
            (Some(func), None) => {
                let length = PyLength::new(func.clone());
                let out = self.inner.chunk(source, Some(&length));
                length.finish(out)?
            }
        })
    }

    fn build_all(
        &self,
        py: Python<'_>,
        source: &str,
        chunks: &[CodeChunk],
        metadata: &Bound<'_, PyDict>,
        embedding_text: bool,
    ) -> PyResult<Vec<Py<PyChunk>>> {
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
