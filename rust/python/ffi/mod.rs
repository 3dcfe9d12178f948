//! The crate's only `unsafe` code, one file per concern: reading a Python `str` where CPython
//! keeps it ([`read`]), building new `str`s in place ([`build`]), keeping the garbage
//! collector out of the way of many chunk records ([`collector`]), and making instances of a
//! plain Python class directly ([`plain`]). The invariants they rely on are stated here, once.
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

mod build;
mod collector;
mod plain;
mod read;

pub use build::{new_str, new_str_checked, new_str_of_class, span_string};
pub use collector::{collector_paused, untrack};
pub use plain::PlainClass;
pub(crate) use read::on_units;
pub use read::{checked_utf8, fixed_utf8, text_of, utf8_of, HeldText, HeldUtf8, PyText};
