//! The single mapping from core errors to Python exceptions.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::PyErr;

use crate::error::Error;

create_exception!(
    _native,
    Unsupported,
    PyException,
    "Raised when an input is outside what the native engine reproduces exactly; the Python \
     layer then runs the pure-Python engine instead."
);

impl From<Error> for PyErr {
    fn from(err: Error) -> Self {
        PyValueError::new_err(err.to_string())
    }
}
