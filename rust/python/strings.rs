//! Building the chunk strings: slices of the caller's `str`, not re-decoded UTF-8.
//!
//! `PyUnicode_Substring` copies code units in the string's own storage kind (a `memcpy`
//! plus a max-char scan), several times faster than decoding UTF-8 for non-ASCII text.
#![allow(unsafe_code)]

use pyo3::prelude::*;
use pyo3::types::PyString;

/// `source[start:end]` in code points, as a new Python string.
pub fn substring<'py>(
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
