//! `_native.TextEngine`: the engine of the LangChain drop-in splitters, so that
//! `split_text` reaches the core without a Python frame in between.
//!
//! The corpus documents average 11 kB and split in a few microseconds, so the Python layer
//! that used to sit here (a method that checked the text's type, mapped `len` to `None` and
//! caught the exceptions that send a text to the pure-Python engine) was a visible share of
//! every call. It does the same here, in the same order.

use pyo3::exceptions::PyUnicodeEncodeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use super::errors::Unsupported;
use super::split::PySplitter;

/// The native splitter of a drop-in, and the pure-Python engine that takes the inputs it
/// cannot reproduce exactly (not a `str`, a lone surrogate, a length that is no count).
#[pyclass(frozen, name = "TextEngine", module = "ferrochunk._native")]
pub struct PyTextEngine {
    native: Py<PySplitter>,
    fallback: Py<PyAny>,
    /// `builtins.len`: the default length, which the core counts itself.
    len: Py<PyAny>,
}

#[pymethods]
impl PyTextEngine {
    #[new]
    fn new(py: Python<'_>, native: Py<PySplitter>, fallback: Py<PyAny>) -> PyResult<Self> {
        let len = py.import("builtins")?.getattr("len")?.unbind();
        Ok(Self {
            native,
            fallback,
            len,
        })
    }

    /// The native splitter (the batch functions take it).
    #[getter]
    fn native(&self, py: Python<'_>) -> Py<PySplitter> {
        self.native.clone_ref(py)
    }

    /// LangChain's chunks of `text`, sized by `length` (`len` is counted natively);
    /// `warn(size, chunk_size)` for every chunk LangChain warns about.
    fn split_text<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyAny>,
        length: &Bound<'py, PyAny>,
        warn: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        // LangChain's own error for a text that is not a `str` comes from `re`: the
        // fallback's.
        let Ok(string) = text.cast::<PyString>() else {
            return self.fallback(py, text, length, warn);
        };
        let measure = (!length.is(&self.len)).then_some(length);
        match self
            .native
            .get()
            .split_text(py, string, measure, Some(warn))
        {
            Ok(chunks) => Ok(chunks.into_any()),
            Err(err)
                if err.is_instance_of::<PyUnicodeEncodeError>(py)
                    || err.is_instance_of::<Unsupported>(py) =>
            {
                self.fallback(py, text, length, warn)
            }
            Err(err) => Err(err),
        }
    }
}

impl PyTextEngine {
    fn fallback<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyAny>,
        length: &Bound<'py, PyAny>,
        warn: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.fallback
            .bind(py)
            .call_method1(pyo3::intern!(py, "split_text"), (text, length, warn))
    }
}
