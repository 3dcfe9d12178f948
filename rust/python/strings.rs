//! Building chunk strings fast: the one place output costs more than splitting.
//!
//! - ASCII chunks: copied from our UTF-8 bytes (CPython's ASCII fast path).
//! - Chunks of a UCS-2 string that hold a character above U+00FF (which the UTF-8 lead
//!   bytes tell): a plain copy of the code units into a new UCS-2 string. Slicing would
//!   scan every unit for the widest character first, which for English with a few curly
//!   quotes costs more than the whole split.
//! - The rest: sliced with `PyUnicode_Substring` (a copy in the source's storage kind).
#![allow(unsafe_code)]

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::split::Chunk;

/// A span chunk's text as a new Python string (see the module comment for the paths).
pub fn chunk_string<'py>(
    text: &Bound<'py, PyString>,
    utf8: &str,
    chunk: &Chunk,
) -> PyResult<Bound<'py, PyString>> {
    span_string(
        text,
        utf8,
        (chunk.byte_start, chunk.byte_end),
        (chunk.char_start, chunk.char_end),
    )
}

/// `text[bytes]` (also `text[chars]` in code points) as a new Python string.
pub fn span_string<'py>(
    text: &Bound<'py, PyString>,
    utf8: &str,
    bytes: (usize, usize),
    chars: (usize, usize),
) -> PyResult<Bound<'py, PyString>> {
    let piece = &utf8[bytes.0..bytes.1];
    if bytes.1 - bytes.0 == chars.1 - chars.0 {
        return Ok(PyString::new(text.py(), piece));
    }
    if let Some(s) = copy_ucs2(text, piece, chars.0, chars.1 - chars.0)? {
        return Ok(s);
    }
    substring(text, chars.0, chars.1)
}

/// `text[start:start + len]` as a copy of code units, when `text` is UCS-2 and the slice
/// (whose UTF-8 is `utf8`) has a character above U+00FF, so UCS-2 is its own kind too.
fn copy_ucs2<'py>(
    text: &Bound<'py, PyString>,
    utf8: &str,
    start: usize,
    len: usize,
) -> PyResult<Option<Bound<'py, PyString>>> {
    // Lead bytes 0xC4..=0xEF start exactly the characters U+0100..=U+FFFF.
    let widest = utf8.bytes().fold(0u8, u8::max);
    if !(0xC4..0xF0).contains(&widest) {
        return Ok(None);
    }
    let source = text.as_ptr();
    // SAFETY: `source` is a live, ready `str` (we hold it); when its kind is 2 its buffer
    // holds UCS-2 units, of which `start..start + len` is in bounds (the chunk's offsets
    // come from splitting this very text). PyUnicode_New returns a fresh, unshared UCS-2
    // string of `len` units (or NULL with an exception set) that we fill before anyone
    // else can see it, and its widest character is above U+00FF as its kind requires.
    unsafe {
        if pyo3::ffi::PyUnicode_KIND(source) != 2 {
            return Ok(None);
        }
        let ptr = pyo3::ffi::PyUnicode_New(isize_of(len)?, 0xFFFF);
        let string = Bound::from_owned_ptr_or_err(text.py(), ptr)?;
        let from = pyo3::ffi::PyUnicode_DATA(source).cast::<u16>().add(start);
        std::ptr::copy_nonoverlapping(from, pyo3::ffi::PyUnicode_DATA(ptr).cast::<u16>(), len);
        Ok(Some(string.cast_into_unchecked()))
    }
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
