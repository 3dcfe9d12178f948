//! A Python `length_function` as a core [`Length`]: called per piece with the GIL held.

use std::cell::RefCell;

use pyo3::prelude::*;

use super::errors::Unsupported;
use crate::error::{Error, Result};
use crate::length::Length;

/// Calls the user's callable; keeps the first Python exception to re-raise it unchanged.
pub struct PyLength<'py> {
    func: Bound<'py, PyAny>,
    failure: RefCell<Option<PyErr>>,
}

impl<'py> PyLength<'py> {
    pub fn new(func: Bound<'py, PyAny>) -> Self {
        Self {
            func,
            failure: RefCell::new(None),
        }
    }

    /// Turns a core result into a Python one, restoring the callable's own exception.
    pub fn finish<T>(self, result: Result<T>) -> PyResult<T> {
        match (result, self.failure.into_inner()) {
            (Err(_), Some(err)) => Err(err),
            (result, _) => result.map_err(PyErr::from),
        }
    }
}

impl Length for PyLength<'_> {
    fn length(&self, text: &str) -> Result<usize> {
        let value = self.func.call1((text,)).and_then(|value| {
            // Lengths that are not non-negative ints (floats, negatives) are legal in
            // LangChain; the Python layer reruns those on the pure-Python engine.
            value
                .extract::<usize>()
                .map_err(|_| Unsupported::new_err("length_function returned a non-count"))
        });
        value.map_err(|err| {
            let message = err.to_string();
            self.failure.borrow_mut().get_or_insert(err);
            Error::Length(message)
        })
    }
}
