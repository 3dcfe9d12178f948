//! The crate's only `unsafe` code: reading a Python `str` where CPython keeps it, building
//! new `str`s in place, and taking chunk records out of the garbage collector's lists.
//!
//! CPython stores a `str` as one, two or four bytes per code point (PEP 393) and makes a
//! UTF-8 copy only on request, which for a document just read costs a full transcoding. The
//! splitter reads the storage itself ([`text_of`]) and cuts chunks out of it as new strings
//! of the same data ([`new_str`]), so a split converts nothing.
//!
//! Invariants this module relies on, and where each is upheld:
//! - A `str` is immutable once another reference to it exists: we read it through a
//!   `Bound` the caller holds, so its storage is neither freed nor changed while borrowed
//!   (with or without the GIL, as PyO3 ties the slices' lifetime to the `Bound`).
//! - Every `str` is canonical (its kind is the narrowest that holds its widest character):
//!   CPython guarantees it for the strings we read; [`new_str`] picks the kind from the
//!   widest unit it copies, so the strings it makes are canonical too.
//! - A string fresh from `PyUnicode_New` is ours alone until returned: [`new_str`] fills
//!   all of it before anyone else can see it.
//! - [`new_str_of_class`] is given a class found from the very units it copies (their OR,
//!   `units::utf8_measure`'s, or [`widest_class`]'s), so its kind holds every unit, as
//!   [`new_str`]'s does; a debug assertion checks it.
//! - A [`HeldText`] reads the storage of a `str` it holds a strong reference to, on any
//!   thread and without the GIL: the reference keeps the object, and so its storage (inline
//!   in a compact string, a separate buffer freed only with the object otherwise), alive
//!   and in place; and the string is immutable while it is referenced (CPython resizes or
//!   appends in place only to a string nobody else references, and we do). Its borrow is
//!   handed out only for as long as the `HeldText` itself is borrowed. The batch pipeline
//!   keeps each `HeldText` in its document's work, then in its build step, which converts
//!   the result to Python objects under the GIL and drops the reference last.
//! - [`collector_paused`] switches the collector off only while it holds the GIL to make
//!   objects (no Python code runs, short of a finalizer of something dropped last), and
//!   restores the previous state on every exit (a drop guard); a user's `gc.disable()` is
//!   kept. Collections are only deferred: none could free what is being made.
//! - `Chunk` objects are PyO3 classes without `__traverse__`: the collector never sees what
//!   they reference, so tracking them changes no collection and only costs time
//!   ([`untrack`]).
//!
//! - A [`PlainClass`] is a class whose first base that is not a heap type (not defined in
//!   Python) is `object` itself, checked when it is made: for its instances,
//!   `object.__new__` is the right constructor and `object.__setattr__` (which refuses
//!   other classes) is `PyObject_GenericSetAttr`, so calling the two C functions directly
//!   is what those Python calls do, minus argument tuples. A Python class's `__bases__`
//!   cannot be changed to another layout afterwards (CPython refuses it).
//!
//! - [`crate::units::utf8_bytes`] returns valid UTF-8 for any units (a unit that is no
//!   character becomes U+FFFD), so [`utf8_of`] makes its `String` without a second check.
//!
//! `tests/test_storage.py` checks every path on strings of each kind (ASCII, Latin-1,
//! BMP, astral, mixed, lone surrogates).
#![allow(unsafe_code)]

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::string::PyStringData;
use pyo3::types::{PyString, PyTuple, PyType};

use super::chunk::PyChunk;
use crate::units::{all_scalar, or_of, utf8_bytes, Fixed, Storage, Unit, Units};

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
            $crate::python::strings::PyText::Latin1($t) => $body,
            $crate::python::strings::PyText::Ucs2($t) => $body,
            $crate::python::strings::PyText::Ucs4($t) => $body,
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

/// Takes a chunk record out of the cyclic garbage collector's lists. Splitting a large text
/// makes hundreds of thousands of them; tracked, each few hundred would start a collection
/// that walks every tracked object, which on a 100 MB text was a third of the time (the
/// old remedy, switching the collector off around a split, was process-wide and raced
/// between threads). A chunk holds no `__traverse__`, so the collector never looks inside
/// one: untracked, nothing changes but the time.
pub fn untrack(chunk: &Bound<'_, PyChunk>) {
    // SAFETY: `chunk` is a live object of a PyO3 class, which PyO3 always creates with
    // `Py_TPFLAGS_HAVE_GC`; `PyObject_GC_UnTrack` may be called on such an object at any
    // time (it does nothing if the object is untracked already, as PyO3's deallocator
    // relies on).
    unsafe { pyo3::ffi::PyObject_GC_UnTrack(chunk.as_ptr().cast()) }
}

/// Runs `build` (which makes a document's chunk objects) with the cyclic collector paused,
/// and restores it after, even if `build` panics. An untracked chunk still counts as an
/// allocation towards the next collection, so building a batch's hundreds of thousands set
/// off hundreds of collections, each walking the live lists of chunks kept so far: about a
/// tenth of the calling thread's time in `split_batch`, the part that does not run in
/// parallel. Nothing made in `build` can be garbage, so pausing changes no collection's
/// outcome, only when it happens (the next allocation after `build`).
pub fn collector_paused<T>(py: Python<'_>, build: impl FnOnce() -> T) -> T {
    /// Re-enables the collector when dropped, if it was enabled before.
    struct Resume(bool);
    impl Drop for Resume {
        fn drop(&mut self) {
            if self.0 {
                // SAFETY: as below; the guard lives inside the GIL-holding call.
                unsafe { pyo3::ffi::PyGC_Enable() };
            }
        }
    }
    if !has_gil(py) {
        return build();
    }
    // SAFETY: the GIL is held (`py`); `PyGC_Disable` flips the interpreter's flag and
    // returns whether it was on. `build` makes objects and runs no Python code (at most a
    // finalizer of something it drops last), so other threads do not see the flag off.
    let _resume = Resume(unsafe { pyo3::ffi::PyGC_Disable() } == 1);
    build()
}

/// Whether the interpreter runs with a GIL. Without one (free-threaded CPython) the
/// collector's switch would be seen, and could be flipped, by threads running at the same
/// time, so [`collector_paused`] leaves it alone there.
fn has_gil(py: Python<'_>) -> bool {
    static HAS_GIL: PyOnceLock<bool> = PyOnceLock::new();
    *HAS_GIL.get_or_init(py, || {
        // `sys._is_gil_enabled` exists from 3.13 on; before, there is always a GIL.
        py.import("sys")
            .and_then(|sys| sys.getattr("_is_gil_enabled"))
            .and_then(|enabled| enabled.call0()?.extract::<bool>())
            .unwrap_or(true)
    })
}

/// A Python class whose instances may be made by `object.__new__` and filled by
/// `object.__setattr__` (see the module's invariants), both called without argument tuples:
/// how `Document`s are laid out fast without running pydantic's validation.
pub struct PlainClass {
    cls: Py<PyType>,
}

impl PlainClass {
    /// `cls`, if its first base that is not a heap type is `object`.
    pub fn new(cls: &Bound<'_, PyType>) -> PyResult<Self> {
        const HEAPTYPE: u64 = 1 << 9; // Py_TPFLAGS_HEAPTYPE
        let py = cls.py();
        let mut base = cls.clone();
        loop {
            let flags: u64 = base.getattr("__flags__")?.extract()?;
            if flags & HEAPTYPE == 0 {
                break;
            }
            base = base.getattr("__base__")?.cast_into::<PyType>()?;
        }
        if !base.is(py.get_type::<PyAny>()) {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "{} is not laid out like a plain Python class",
                cls.name()?
            )));
        }
        Ok(Self {
            cls: cls.clone().unbind(),
        })
    }

    /// `object.__new__(cls)`, then `object.__setattr__(it, name, value)` for each attribute.
    pub fn instance<'py>(
        &self,
        py: Python<'py>,
        attrs: &[(&Bound<'py, PyString>, &Bound<'py, PyAny>)],
    ) -> PyResult<Bound<'py, PyAny>> {
        let args = PyTuple::empty(py);
        let cls = self.cls.bind(py);
        // SAFETY: `object`'s `tp_new` is `object_new`, which every type object has; we call
        // it as `object.__new__(cls)` does (no arguments, a valid class and tuple), and it
        // returns a new reference or NULL with an exception set. `cls` passed the check of
        // `new`, so `object.__new__` would accept it (module invariants).
        let obj = unsafe {
            let new = (*std::ptr::addr_of!(pyo3::ffi::PyBaseObject_Type))
                .tp_new
                .ok_or_else(|| pyo3::exceptions::PyTypeError::new_err("no object.__new__"))?;
            let ptr = new(cls.as_ptr().cast(), args.as_ptr(), std::ptr::null_mut());
            Bound::from_owned_ptr_or_err(py, ptr)?
        };
        for (name, value) in attrs {
            // SAFETY: three live objects; `obj` is an instance of a plain class, for which
            // `object.__setattr__` is exactly this call (module invariants). It returns 0,
            // or -1 with an exception set.
            let rc = unsafe {
                pyo3::ffi::PyObject_GenericSetAttr(obj.as_ptr(), name.as_ptr(), value.as_ptr())
            };
            if rc != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(obj)
    }
}
