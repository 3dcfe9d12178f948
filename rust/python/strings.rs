//! Building the chunk strings without decoding UTF-8 again.
//!
//! ASCII chunks are copied from our UTF-8 bytes (CPython's ASCII fast path: no decoding, no
//! max-char scan). The others are sliced from the caller's string with `PyUnicode_Substring`:
//! a copy in the string's own storage kind plus a max-char scan, several times faster than
//! decoding UTF-8 for non-ASCII text.
#![allow(unsafe_code)]

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::split::Chunk;

/// A span chunk's text as a new Python string (see the module comment for the two paths).
pub fn chunk_string<'py>(
    text: &Bound<'py, PyString>,
    utf8: &str,
    chunk: &Chunk,
) -> PyResult<Bound<'py, PyString>> {
    if chunk.byte_end - chunk.byte_start == chunk.char_end - chunk.char_start {
        return Ok(PyString::new(text.py(), chunk.text(utf8)));
    }
    substring(text, chunk.char_start, chunk.char_end)
}

/// `text[bytes]` (also `text[chars]` in code points) as a new Python string, by the same
/// two paths as [`chunk_string`].
pub fn span_string<'py>(
    text: &Bound<'py, PyString>,
    utf8: &str,
    bytes: (usize, usize),
    chars: (usize, usize),
) -> PyResult<Bound<'py, PyString>> {
    if bytes.1 - bytes.0 == chars.1 - chars.0 {
        return Ok(PyString::new(text.py(), &utf8[bytes.0..bytes.1]));
    }
    substring(text, chars.0, chars.1)
}

/// `source[start:end]` in code points, as a new Python string.
fn substring<'py>(
    source: &Bound<'py, PyString>,
    start: usize,
    end: usize,
) -> PyResult<Bound<'py, PyString>> {
    let (start, end) = (isize_of(start)?, isize_of(end)?);
    // SAFETY: `source` is a live `str` held by the caller, the indices are checked by
    // CPython (an error comes back as NULL), and the result is a new owned reference.
    unsafe {
        let ptr = pyo3::ffi::PyUnicode_Substring(source.as_ptr(), start, end);
        Ok(Bound::from_owned_ptr_or_err(source.py(), ptr)?.cast_into_unchecked())
    }
}

fn isize_of(n: usize) -> PyResult<isize> {
    isize::try_from(n).map_err(|_| pyo3::exceptions::PyOverflowError::new_err("offset too large"))
}
