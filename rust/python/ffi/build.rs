//! Building new `str`s in place from code-point units, in the narrowest kind that holds
//! them (see the invariants in [`super`]).

use pyo3::prelude::*;
use pyo3::types::string::PyStringData;
use pyo3::types::PyString;

use crate::units::{all_scalar, or_of, Storage, Unit};

/// A new `str` holding a copy of `units` (code points), in the narrowest kind that holds
/// them, as CPython requires of every string. For units known to hold no lone surrogate (a
/// text checked already), or where one does not matter: a `str` may hold them.
pub fn new_str<'py, U: Unit>(py: Python<'py>, units: &[U]) -> PyResult<Bound<'py, PyString>> {
    make_str(py, units, false).map(|(string, _)| string)
}

/// [`new_str`], and whether every unit was a Unicode scalar value (no lone surrogate),
/// found in the same pass: for texts not checked before.
pub fn new_str_checked<'py, U: Unit>(
    py: Python<'py>,
    units: &[U],
) -> PyResult<(Bound<'py, PyString>, bool)> {
    make_str(py, units, true)
}

/// [`new_str`], checking the units for lone surrogates if `check`.
fn make_str<'py, U: Unit>(
    py: Python<'py>,
    units: &[U],
    check: bool,
) -> PyResult<(Bound<'py, PyString>, bool)> {
    let (any, scalar) = if check {
        or_checked(units)
    } else {
        (widest_class(units), true)
    };
    Ok((new_str_of_class(py, units, any)?, scalar))
}

/// [`new_str`] of `units` whose class is known already: `any` is their OR, or any value of
/// the same class (below U+0080, U+0100 or U+10000, or above), which picks the kind. Only
/// for a value found from the same units: a lower class would narrow units that do not fit.
pub fn new_str_of_class<'py, U: Unit>(
    py: Python<'py>,
    units: &[U],
    any: u32,
) -> PyResult<Bound<'py, PyString>> {
    if units.is_empty() {
        return Ok(PyString::new(py, ""));
    }
    let maxchar = match any {
        0..=0x7F => 0x7F,
        0x80..=0xFF => 0xFF,
        0x100..=0xFFFF => 0xFFFF,
        _ => 0x10_FFFF,
    };
    debug_assert!(
        maxchar == 0x10_FFFF || or_of(units) <= maxchar,
        "class below the units'"
    );
    let len = isize::try_from(units.len())
        .map_err(|_| pyo3::exceptions::PyOverflowError::new_err("string too long"))?;
    // SAFETY: `PyUnicode_New` returns a new, unshared string of `len` code points whose
    // kind is 1, 2 or 4 bytes as `maxchar` is at most 0xFF, 0xFFFF or above (or NULL with
    // an exception set, which `from_owned_ptr_or_err` turns into `Err`). Its data holds
    // exactly `len` units of that kind, suitably aligned; we write each of them once
    // (narrowing is exact: every unit is below the kind's limit, as `any` has no higher
    // bit than the widest unit) before returning it.
    unsafe {
        let ptr = pyo3::ffi::PyUnicode_New(len, maxchar);
        let string = Bound::from_owned_ptr_or_err(py, ptr)?;
        let data = pyo3::ffi::PyUnicode_DATA(ptr);
        match maxchar {
            0x7F | 0xFF => narrow(
                std::slice::from_raw_parts_mut(data.cast::<u8>(), units.len()),
                units,
            ),
            0xFFFF => narrow(
                std::slice::from_raw_parts_mut(data.cast::<u16>(), units.len()),
                units,
            ),
            _ => narrow(
                std::slice::from_raw_parts_mut(data.cast::<u32>(), units.len()),
                units,
            ),
        }
        Ok(string.cast_into_unchecked())
    }
}

/// [`or_of`] the units, and whether every one is a Unicode scalar value. Taken 128 units at a
/// time: while the OR so far is below U+D800 no unit can be a surrogate and the blocks are
/// only OR-ed (English stored as UCS-2 for a curly quote never needs more); from the block
/// that reaches it on, each is also checked, in the same pass (Chinese, from its first
/// block). One check pass after a whole OR cost Chinese chunks a second read; checking every
/// block cost the others a slower loop.
fn or_checked<U: Unit>(units: &[U]) -> (u32, bool) {
    if U::STORAGE == Storage::Latin1 {
        return (or_of(units), true);
    }
    let (mut any, mut scalar) = (0, true);
    for block in units.chunks(128) {
        if any >= 0xD800 {
            let (or, ok) = block.iter().fold((U::default(), true), |(or, ok), &u| {
                (or | u, ok & u.is_scalar())
            });
            any |= or.into();
            scalar &= ok;
        } else {
            any |= or_of(block);
            if any >= 0xD800 {
                scalar &= all_scalar(block);
            }
        }
    }
    (any, scalar)
}

/// A value whose highest bit is that of the widest unit, enough to pick the string's kind:
/// [`or_of`] the units, in UCS-2 and UCS-4 taken block by block and stopped at the first
/// block that reaches the top class of the storage (U+0100, U+10000), where the kind is the
/// storage's own whatever follows: a chunk of Chinese text, or of English stored as UCS-2
/// for a curly quote, is decided at its first such character instead of by a pass over all
/// of it. Latin-1 is folded whole (text stored so is mostly ASCII throughout, so the
/// blocks' tests would only cost).
fn widest_class<U: Unit>(units: &[U]) -> u32 {
    let top = match U::STORAGE {
        Storage::Utf8 | Storage::Latin1 => return or_of(units),
        Storage::Ucs2 => 0x100,
        Storage::Ucs4 => 0x1_0000,
    };
    let mut any = 0;
    for block in units.chunks(128) {
        any |= or_of(block);
        if any >= top {
            break;
        }
    }
    any
}

/// `text[chars.0:chars.1]` (whose UTF-8 is `utf8[bytes.0..bytes.1]`) as a new `str`, for
/// callers that hold the text's UTF-8 already: ASCII from those bytes, the rest copied
/// from the text's own storage.
pub fn span_string<'py>(
    text: &Bound<'py, PyString>,
    utf8: &str,
    bytes: (usize, usize),
    chars: (usize, usize),
) -> PyResult<Bound<'py, PyString>> {
    if bytes.1 - bytes.0 == chars.1 - chars.0 {
        return Ok(PyString::new(text.py(), &utf8[bytes.0..bytes.1]));
    }
    // SAFETY: as in `text_of`. No validation is needed: the caller has the text's UTF-8,
    // so it holds no lone surrogate, and the range comes from splitting that text.
    let data = unsafe { text.data() }?;
    let py = text.py();
    let (a, b) = chars;
    match data {
        PyStringData::Ucs1(units) => new_str(py, &units[a..b]),
        PyStringData::Ucs2(units) => new_str(py, &units[a..b]),
        PyStringData::Ucs4(units) => new_str(py, &units[a..b]),
    }
}

/// A destination unit: a code point narrowed to it with `as` (exact where it is used).
trait Narrow: Copy {
    fn narrow(u: u32) -> Self;
}

impl Narrow for u8 {
    #[inline]
    fn narrow(u: u32) -> Self {
        u as u8
    }
}

impl Narrow for u16 {
    #[inline]
    fn narrow(u: u32) -> Self {
        u as u16
    }
}

impl Narrow for u32 {
    #[inline]
    fn narrow(u: u32) -> Self {
        u
    }
}

/// Copies `src` into `dst`, unit for unit, each narrowed to `dst`'s width (exact: the caller
/// chose a width that holds every unit). A plain copy when the widths are equal; either way
/// a loop the compiler vectorises.
fn narrow<D: Narrow, U: Unit>(dst: &mut [D], src: &[U]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = D::narrow(s.into());
    }
}
