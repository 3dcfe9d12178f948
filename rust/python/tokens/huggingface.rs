//! `_native.HfTokenCounter`: a Hugging Face tokenizer as a length the native splitter runs in
//! Rust (no Python call per piece), and a plain callable everywhere else.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use pyo3::{PyTraverseError, PyVisit};

use crate::tokens::huggingface::HfLength;

/// What `__reduce__` returns: the class and its constructor arguments.
type Reduced<'py> = (Bound<'py, PyAny>, Bound<'py, PyTuple>);

/// A loaded `tokenizer.json`, counting tokens.
#[pyclass(frozen, name = "HfTokenCounter", module = "ferrochunk._native")]
pub struct PyHfCounter {
    inner: HfLength,
    /// Counts the texts Rust cannot take (lone surrogates): the Python tokenizer the counter
    /// stands for, so such a text fails (or not) exactly as it does there.
    fallback: Option<Py<PyAny>>,
}

impl PyHfCounter {
    /// The core length this counter stands for.
    pub fn length(&self) -> &HfLength {
        &self.inner
    }
}

#[pymethods]
impl PyHfCounter {
    #[new]
    #[pyo3(signature = (json, add_special_tokens, split_special_tokens=false, fallback=None))]
    fn new(
        py: Python<'_>,
        json: &str,
        add_special_tokens: bool,
        split_special_tokens: bool,
        fallback: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        let inner = py.detach(|| HfLength::from_json(json, add_special_tokens))?;
        let inner = inner.split_special_tokens(split_special_tokens);
        Ok(Self { inner, fallback })
    }

    /// The number of tokens of `text`.
    fn __call__(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<usize> {
        let Ok(string) = text.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "expected str, got {}",
                text.get_type().name()?
            )));
        };
        match string.to_str() {
            Ok(string) => {
                let inner = &self.inner;
                Ok(py.detach(|| inner.count(string))?)
            }
            Err(err) => match &self.fallback {
                Some(fallback) => fallback.bind(py).call1((text,))?.extract(),
                None => Err(err),
            },
        }
    }

    /// Immutable, so a copy is the counter itself (as `copy` treats functions): splitters
    /// holding one deep-copy like LangChain's, whose length is a closure.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// See `__copy__`.
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    /// Pickles by the tokenizer's JSON (and the fallback), so splitters sized by it travel
    /// to worker processes (Ray, Dask, multiprocessing) and count there exactly as here.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let this = slf.get();
        let (json, add_special, split) = py.detach(|| this.inner.to_json())?;
        let fallback = this.fallback.as_ref().map(|f| f.clone_ref(py));
        let args = (json, add_special, split, fallback).into_pyobject(py)?;
        Ok((slf.get_type().into_any(), args))
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Some(fallback) = &self.fallback {
            visit.call(fallback)?;
        }
        Ok(())
    }

    /// Marks a length that counts tokens: `Splitter.split` then fills `Chunk.token_count`.
    #[classattr]
    fn counts_tokens() -> bool {
        true
    }
}
