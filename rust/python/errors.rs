//! The single mapping from core errors to Python exceptions.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyIndexError, PyKeyError, PyTypeError, PyValueError};
use pyo3::types::{PyAnyMethods, PyString};
use pyo3::{PyErr, Python};

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
        match err {
            Error::DisallowedSpecial(token) => PyValueError::new_err(disallowed_message(&token)),
            Error::UnknownModel(_) | Error::InvalidToken(_) => PyKeyError::new_err(err.to_string()),
            Error::IndexOutOfRange => PyIndexError::new_err(err.to_string()),
            Error::ColumnType { .. } => PyTypeError::new_err(err.to_string()),
            // The exception the row's own error maps to, with the row in the message.
            Error::InRow { row, source } => Python::attach(|py| {
                let inner = PyErr::from(*source);
                let message = format!("row {row}: {}", inner.value(py));
                PyErr::from_type(inner.get_type(py), message)
            }),
            _ => PyValueError::new_err(err.to_string()),
        }
    }
}

/// tiktoken's message for a disallowed special token, word for word (it quotes the token
/// with Python's `repr`).
fn disallowed_message(token: &str) -> String {
    let repr = Python::attach(|py| {
        PyString::new(py, token)
            .repr()
            .map_or_else(|_| format!("{token:?}"), |r| r.to_string())
    });
    format!(
        "Encountered text corresponding to disallowed special token {repr}.\n\
         If you want this text to be encoded as a special token, pass it to `allowed_special`, \
         e.g. `allowed_special={{{repr}, ...}}`.\n\
         If you want this text to be encoded as normal text, disable the check for this token \
         by passing `disallowed_special=(enc.special_tokens_set - {{{repr}}})`.\n\
         To disable this check for all special tokens, pass `disallowed_special=()`.\n"
    )
}
