//! Reading a Python `str` where CPython keeps it: its 1/2/4-byte storage borrowed, held
//! across threads, or turned into UTF-8 (see the invariants in [`super`]).

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::string::PyStringData;
use pyo3::types::PyString;

use crate::units::{utf8_bytes, Fixed, Unit, Units};

/// A Python `str` as the core reads it: its own storage, validated.
#[derive(Debug, Clone, Copy)]
pub enum PyText<'a> {
    /// One byte per code point (ASCII or Latin-1).
    Latin1(Fixed<'a, u8>),
    /// Two bytes per code point.
    Ucs2(Fixed<'a, u16>),
    /// Four bytes per code point.
    Ucs4(Fixed<'a, u32>),
}

/// Runs `$body` with `$t` bound to the [`Units`](crate::units::Units) of a [`PyText`],
/// monomorphised for each storage.
macro_rules! on_units {
    ($text:expr, $t:ident => $body:expr) => {
        match $text {
            $crate::python::ffi::PyText::Latin1($t) => $body,
            $crate::python::ffi::PyText::Ucs2($t) => $body,
            $crate::python::ffi::PyText::Ucs4($t) => $body,
        }
    };
}
pub(crate) use on_units;

/// The storage of `text`, borrowed for as long as `text` is. With `check`, a string with a
/// lone surrogate (which has no UTF-8 form) raises `UnicodeEncodeError`, the same exception
/// `str.encode` raises, so callers that fall back to Python or explain the problem keep
/// working; without, such a string is taken as it is ([`Fixed::lenient`]) and the caller
/// checks later (a split by code points at literal separators puts every character that is
/// not a space in some chunk, so building the chunk strings checks them all).
pub fn text_of<'a>(text: &'a Bound<'_, PyString>, check: bool) -> PyResult<PyText<'a>> {
    // SAFETY: `text` is a live `str` held by the caller (see the module's invariants); PyO3
    // readies legacy strings first and returns slices of exactly the string's length in its
    // kind. PyO3 decodes the kind from CPython's bitfield itself and tests that on x86_64;
    // `tests/test_storage.py` checks it here on strings of every kind.
    let data = unsafe { text.data() }?;
    if !check {
        return Ok(match data {
            PyStringData::Ucs1(units) => PyText::Latin1(Fixed::lenient(units)),
            PyStringData::Ucs2(units) => PyText::Ucs2(Fixed::lenient(units)),
            PyStringData::Ucs4(units) => PyText::Ucs4(Fixed::lenient(units)),
        });
    }
    let fixed = match data {
        PyStringData::Ucs1(units) => Fixed::new(units).map(PyText::Latin1),
        PyStringData::Ucs2(units) => Fixed::new(units).map(PyText::Ucs2),
        PyStringData::Ucs4(units) => Fixed::new(units).map(PyText::Ucs4),
    };
    fixed.map_err(|at| {
        pyo3::exceptions::PyUnicodeEncodeError::new_err((
            "utf-8",
            text.clone().unbind(),
            at,
            at + 1,
            "surrogates not allowed",
        ))
    })
}

/// A `str` held for a batch, its storage readable on any thread without the GIL (see the
/// module's invariants): pool threads split it in place, as `Splitter.split` does, instead
/// of taking a UTF-8 copy that CPython would then keep inside the object.
pub struct HeldText {
    text: Py<PyString>,
    /// `text`'s storage. `'static` only inside this type: [`HeldText::units`] hands it out
    /// for as long as `self` is borrowed, and `self` holds `text`.
    units: PyText<'static>,
}

impl HeldText {
    /// Holds `text` and reads its storage, checked for lone surrogates as [`text_of`] does.
    pub fn new(text: &Bound<'_, PyString>, check: bool) -> PyResult<Self> {
        let units = text_of(text, check)?;
        // SAFETY: the storage lives as long as the object and does not change while it is
        // referenced (module invariants); `Self` holds a strong reference to the object for
        // its whole life and lends `units` out only for a borrow of itself, so no borrow
        // outlives the reference. Only the lifetime changes; the value is the same.
        let units = unsafe { std::mem::transmute::<PyText<'_>, PyText<'static>>(units) };
        Ok(Self {
            text: text.clone().unbind(),
            units,
        })
    }

    /// The storage, borrowed from `self`; no GIL needed.
    pub fn units(&self) -> PyText<'_> {
        self.units
    }

    /// The `str` itself, to build Python objects from (GIL held).
    pub fn bind<'py>(&self, py: Python<'py>) -> &Bound<'py, PyString> {
        self.text.bind(py)
    }

    /// The size of the storage in bytes (what a batch's read-ahead counts).
    pub fn size(&self) -> usize {
        on_units!(self.units, t => t.bytes(0, t.len()).len())
    }
}

/// A [`HeldText`] with its UTF-8, for the batch engines that read UTF-8 (Markdown, token
/// windows): converted on the pool thread that needs it ([`utf8_of`]), kept only for a text
/// that is not ASCII (an ASCII one is read in place), never left inside the `str`.
pub struct HeldUtf8 {
    held: HeldText,
    /// The UTF-8 copy; `None` for an ASCII text.
    converted: Option<String>,
}

impl HeldUtf8 {
    /// `held` and its UTF-8 (any thread; no GIL needed).
    pub fn new(held: HeldText) -> Self {
        let converted = match utf8_of(held.units()) {
            Cow::Borrowed(_) => None,
            Cow::Owned(utf8) => Some(utf8),
        };
        Self { held, converted }
    }

    /// The text's UTF-8.
    pub fn as_str(&self) -> &str {
        match &self.converted {
            Some(utf8) => utf8,
            None => on_units!(self.held.units(), t => t.as_str(0, t.len())).unwrap_or_default(),
        }
    }

    /// The held text.
    pub fn held(&self) -> &HeldText {
        &self.held
    }
}

/// The UTF-8 of a whole text: borrowed when it is ASCII, else converted (one pass, see
/// [`utf8_bytes`]), into a copy the caller drops: CPython's own conversion (`to_str`) is a
/// little faster on CJK text, much slower on mostly-ASCII wide text, and keeps its copy
/// inside the string for the string's lifetime.
pub fn utf8_of(text: PyText<'_>) -> Cow<'_, str> {
    on_units!(text, t => fixed_utf8(t))
}

/// [`utf8_of`] for a text already matched to its storage.
pub fn fixed_utf8<U: Unit>(text: Fixed<'_, U>) -> Cow<'_, str> {
    fixed_utf8_bytes(text).0
}

/// [`fixed_utf8`], and whether every unit was a character (no lone surrogate).
fn fixed_utf8_bytes<U: Unit>(text: Fixed<'_, U>) -> (Cow<'_, str>, bool) {
    if let Some(ascii) = text.as_str(0, text.len()) {
        return (Cow::Borrowed(ascii), true);
    }
    let (bytes, clean) = utf8_bytes(text.units());
    debug_assert!(std::str::from_utf8(&bytes).is_ok());
    // SAFETY: `utf8_bytes` writes every unit as the UTF-8 of a `char` (U+FFFD for a unit
    // that is no character), so its output is valid UTF-8 whatever the units; tested
    // against `char` by `units::fixed`'s `utf8_bytes_agree` proptest (lone surrogates and
    // values beyond U+10FFFF included) and here by `tests/test_storage.py`.
    (
        Cow::Owned(unsafe { String::from_utf8_unchecked(bytes) }),
        clean,
    )
}

/// A text's storage and its UTF-8 (as [`utf8_of`]: borrowed when ASCII, else a copy the
/// caller drops), converted with the GIL released and checked for lone surrogates on the
/// way: `UnicodeEncodeError` at the first, as [`text_of`] raises, without the separate pass
/// a check before the conversion makes over every text that is not ASCII.
pub fn checked_utf8<'a>(
    py: Python<'_>,
    text: &'a Bound<'_, PyString>,
) -> PyResult<(PyText<'a>, Cow<'a, str>)> {
    let units = text_of(text, false)?;
    let (utf8, clean) = py.detach(|| on_units!(units, t => fixed_utf8_bytes(t)));
    if clean {
        return Ok((units, utf8));
    }
    Err(text_of(text, true)
        .err()
        .unwrap_or_else(|| pyo3::exceptions::PyValueError::new_err("text has a lone surrogate")))
}
