//! The native API's `Chunk`: an immutable record with exact offsets.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyMapping, PyMappingProxy, PyString, PyTuple};

/// A chunk of a source text: `text == source[start:end]`, UTF-8 offsets alongside.
#[pyclass(frozen, name = "Chunk", module = "ferrochunk")]
pub struct PyChunk {
    #[pyo3(get)]
    text: Py<PyString>,
    #[pyo3(get)]
    start: usize,
    #[pyo3(get)]
    end: usize,
    #[pyo3(get)]
    byte_start: usize,
    #[pyo3(get)]
    byte_end: usize,
    #[pyo3(get)]
    index: usize,
    #[pyo3(get)]
    metadata: Py<PyAny>,
    /// Tokens in the chunk, when a tokenizer sized it.
    #[pyo3(get)]
    token_count: Option<usize>,
}

impl PyChunk {
    /// A chunk whose `metadata` is already a read-only `mappingproxy` (shared per document).
    #[allow(clippy::too_many_arguments)] // one per field, as the Python signature has them
    pub fn new(
        text: Py<PyString>,
        start: usize,
        end: usize,
        byte_start: usize,
        byte_end: usize,
        index: usize,
        metadata: Py<PyAny>,
        token_count: Option<usize>,
    ) -> Self {
        Self {
            text,
            start,
            end,
            byte_start,
            byte_end,
            index,
            metadata,
            token_count,
        }
    }

    /// The Python object, taken out of the cyclic collector's lists (see `ffi::untrack`:
    /// building many tracked ones set off collections that walked every live object).
    pub fn into_object(self, py: Python<'_>) -> PyResult<Bound<'_, Self>> {
        let chunk = Bound::new(py, self)?;
        super::ffi::untrack(&chunk);
        Ok(chunk)
    }
}

/// A read-only view of a copy of `metadata` (a `mappingproxy` is kept as it is).
fn read_only<'py>(metadata: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if metadata.is_instance_of::<PyMappingProxy>() {
        return Ok(metadata.clone());
    }
    let copy = PyDict::new(metadata.py());
    copy.update(metadata.cast::<PyMapping>()?)?;
    Ok(PyMappingProxy::new(metadata.py(), copy.as_mapping()).into_any())
}

#[pymethods]
impl PyChunk {
    #[new]
    #[pyo3(signature = (text, start, end, byte_start, byte_end, index, metadata, token_count=None))]
    #[allow(clippy::too_many_arguments)] // one per field, as the Python signature has them
    fn py_new(
        text: Py<PyString>,
        start: usize,
        end: usize,
        byte_start: usize,
        byte_end: usize,
        index: usize,
        metadata: &Bound<'_, PyAny>,
        token_count: Option<usize>,
    ) -> PyResult<Self> {
        let metadata = read_only(metadata)?.unbind();
        Ok(Self::new(
            text,
            start,
            end,
            byte_start,
            byte_end,
            index,
            metadata,
            token_count,
        ))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let tokens = self
            .token_count
            .map(|n| format!(", token_count={n}"))
            .unwrap_or_default();
        Ok(format!(
            "Chunk(text={}, start={}, end={}, byte_start={}, byte_end={}, index={}, metadata={}{tokens})",
            self.text.bind(py).repr()?,
            self.start,
            self.end,
            self.byte_start,
            self.byte_end,
            self.index,
            self.metadata.bind(py).repr()?,
        ))
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<PyChunk>() else {
            return Ok(false);
        };
        let o = other.get();
        Ok((
            self.start,
            self.end,
            self.byte_start,
            self.byte_end,
            self.index,
        ) == (o.start, o.end, o.byte_start, o.byte_end, o.index)
            && self.text.bind(py).as_any().eq(o.text.bind(py))?
            && self.token_count == o.token_count
            && self.metadata.bind(py).eq(o.metadata.bind(py))?)
    }

    fn __len__(&self) -> usize {
        self.end - self.start
    }

    /// Pickles by value, so chunks travel to worker processes.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let c = slf.get();
        let args = (
            c.text.clone_ref(py),
            c.start,
            c.end,
            c.byte_start,
            c.byte_end,
            c.index,
            // A mappingproxy does not pickle; its underlying dict does, and `new` re-wraps it.
            c.metadata.bind(py).call_method0("copy")?,
            c.token_count,
        )
            .into_pyobject(py)?;
        Ok((slf.get_type().into_any(), args))
    }
}
