//! `TokenTextSplitter`'s windows as Python strings, made from the text's own storage.
//!
//! The windows are found on the text's UTF-8 (a copy, for any text that is not ASCII), but
//! most are spans of it, so their strings are copied from where CPython keeps the text, at
//! code-point offsets, instead of being copied out of the UTF-8 and decoded back by CPython
//! (a second copy and a decode per window, ~5 % of a split of Chinese).

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::python::ffi::{new_str, on_units, PyText};
use crate::text::CharCursor;
use crate::tokens::tokenizer::{lossy_windows, LossyWindow};
use crate::tokens::Tokenizer;

/// A window ready to become a `str`.
pub enum Window {
    /// Code points `[a, b)` of the text.
    Chars(usize, usize),
    /// A window cutting a character, decoded (U+FFFD for the cut bytes).
    Text(String),
}

/// LangChain's `split_text_on_tokens` windows of a text, given its UTF-8 (as
/// `ffi::utf8_of` makes it: borrowed only when the text is ASCII) and its encoding `ids`; no
/// Python object is touched, so any thread may run it.
#[allow(clippy::ptr_arg)] // borrowed or not is what tells an ASCII text
pub fn window_parts(
    tokenizer: &Tokenizer,
    text: &Cow<'_, str>,
    ids: &[u32],
    (size, overlap): (usize, usize),
) -> crate::error::Result<Vec<Window>> {
    let ascii = matches!(text, Cow::Borrowed(_));
    let utf8: &str = text;
    let mut cursor = CharCursor::new(utf8, ascii);
    let windows = lossy_windows(tokenizer, utf8, ids, size, overlap)?;
    Ok(windows
        .into_iter()
        .map(|window| match window {
            LossyWindow::Span(a, b) => {
                let start = cursor.char_offset(a);
                Window::Chars(start, cursor.char_offset(b))
            }
            LossyWindow::Cut(text) => Window::Text(text),
        })
        .collect())
}

/// The windows' strings, in a list: spans copied from `units` (the storage of the text the
/// windows were found in, checked for lone surrogates).
pub fn window_list<'py>(
    py: Python<'py>,
    units: PyText<'_>,
    windows: &[Window],
) -> PyResult<Bound<'py, PyList>> {
    let strings = windows
        .iter()
        .map(|window| match window {
            Window::Chars(a, b) => on_units!(units, t => new_str(py, &t.units()[*a..*b])),
            Window::Text(text) => Ok(PyString::new(py, text)),
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, strings)
}
