//! `_native.HfTokenCounter`: a Hugging Face tokenizer as a length the native splitter runs in
//! Rust (no Python call per piece), and a plain callable everywhere else.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::hf_tokens::HfLength;

/// A loaded `tokenizer.json`, counting tokens.
#[pyclass(frozen, name = "HfTokenCounter", module = "ferrochunk._native")]
pub struct PyHfCounter {
    inner: HfLength,
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
    fn new(py: Python<'_>, json: &str, add_special_tokens: bool) -> PyResult<Self> {
        let inner = py.detach(|| HfLength::from_json(json, add_special_tokens))?;
        Ok(Self { inner })
    }

    /// The number of tokens of `text`.
    fn __call__(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<usize> {
        let Ok(text) = text.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "expected str, got {}",
                text.get_type().name()?
            )));
        };
        let text = text.to_str()?;
        let inner = &self.inner;
        Ok(py.detach(|| inner.count(text))?)
    }

    /// Marks a length that counts tokens: `Splitter.split` then fills `Chunk.token_count`.
    #[classattr]
    fn counts_tokens() -> bool {
        true
    }
}
