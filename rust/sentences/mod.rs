//! Sentences: exact spans that cover the text, for semantic chunking and as seams where
//! chunkers may cut long paragraphs.
//!
//! - [`marks`]: the characters the rules look at (end marks, closers, openers, CJK).
//! - [`english`]: when a period ends a Latin-script sentence (abbreviations, initials).
//! - [`spaces`]: what counts as the space after one (whitespace, and the escapes `\n`,
//!   `\r`, `\t` of JSON stored as text), and list markers opening a line.
//! - [`hits`]: candidate search in each storage (UTF-8, Latin-1, UCS-2, UCS-4).
//! - [`scan`]: the scan that applies the rules at the candidates, over any [`Units`], so
//!   a Python `str` is read in its own storage, without a UTF-8 copy.
//!
//! The rules, in order (mirrored by `python/ferrochunk/reference/sentences.py` and written
//! out in `docs/semantic.md`):
//! 1. A blank line (two `\n` with only whitespace between) always ends a sentence, and so
//!    does a line break before a list marker (`- `, `* `, `+ `, `• `, `1. `, `2) `).
//! 2. A run of end marks (`. ? ! … ‼` and the CJK `。！？；｡`), then any closing quotes and
//!    brackets, ends one when a CJK end mark is in the run or a CJK letter stands right
//!    before it: the next sentence starts after the whitespace that follows, if any; not
//!    before a continuation mark, nor (after a CJK letter alone) a Latin letter or digit.
//! 3. Otherwise the run must be followed by whitespace (so "3.14", "e.g.," and URLs never
//!    end one) or by a CJK letter; and then by something other than a lowercase letter
//!    (looked for past opening quotes and brackets),
//!    an end mark or a continuation mark (`, : ;`, dashes: UAX #29's `SContinue`),
//!    unless a blank line or a list item follows.
//! 4. A single period also consults the word before it ([`english`]).
//!
//! Whitespace, in these rules, includes the escapes `\n`, `\r` and `\t` (two characters
//! each), and `\"` is a closing quote: text stored as JSON (chat logs) reads as the text
//! it encodes; a string that ends with an end mark and closes its object or array, then a
//! comma (`."}, {"role"`), ends the sentence after the comma and any whitespace. The rules follow the shape of Unicode's sentence boundaries (UAX #29: a
//! break after end marks, closers and spaces, none before a lowercase letter or inside
//! "3.14"); where they differ by design is listed in `docs/semantic.md`.
//!
//! Each sentence keeps the whitespace after it (the first also any before it), so the
//! sentences of a text concatenate to the text; an empty text has none.

mod english;
mod hits;
mod marks;
mod scan;
mod spaces;

pub use hits::{Hits, Scan};
pub use scan::Boundaries;

use crate::text::{is_py_space, CharCursor};
use crate::units::Units;

/// A sentence as a span of its text, in code points and in UTF-8 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sentence {
    /// First code point.
    pub start: usize,
    /// One past the last code point.
    pub end: usize,
    /// First byte.
    pub byte_start: usize,
    /// One past the last byte.
    pub byte_end: usize,
}

/// Byte offsets where the sentences of `text` end, in order; the last is `text.len()`.
/// An empty text has no sentences.
pub fn sentence_ends(text: &str) -> Vec<usize> {
    sentence_ends_in(text, 0, text.len())
}

/// The sentences of `text`, covering it, with code-point and byte offsets.
pub fn sentences(text: &str) -> Vec<Sentence> {
    let mut cursor = CharCursor::new(text, text.is_ascii());
    let (mut byte_start, mut start) = (0, 0);
    sentence_ends(text)
        .into_iter()
        .map(|byte_end| {
            let end = cursor.char_offset(byte_end);
            let s = Sentence {
                start,
                end,
                byte_start,
                byte_end,
            };
            (start, byte_start) = (end, byte_end);
            s
        })
        .collect()
}

/// Positions where the sentences of `text` (in any storage) end, in order; the last is
/// `text.len()`. Positions are the storage's (see [`Units`]): code points for the fixed
/// widths, so a Python `str` needs no UTF-8 form.
pub fn sentence_ends_of<'a, T: Scan<'a>>(text: T) -> Vec<usize> {
    let mut ends: Vec<usize> = Boundaries::over(text).collect();
    if !text.is_empty() {
        ends.push(text.len());
    }
    ends
}

/// `[start, end)` of `text` without the whitespace around it (Python's `str.strip`), in
/// the storage's positions.
#[cfg_attr(not(feature = "python"), allow(dead_code))] // the binding's only user
pub(crate) fn strip_span<'a, T: Units<'a>>(text: T, start: usize, end: usize) -> (usize, usize) {
    let (mut a, mut b) = (start, end);
    while a < b {
        let (c, n) = text.char_at(a);
        if !is_py_space(c) {
            break;
        }
        a += n;
    }
    while b > a {
        let (c, n) = text.char_before(b);
        if !is_py_space(c) {
            break;
        }
        b -= n;
    }
    (a, b)
}

/// The seam provider for chunkers (the Markdown chunker cutting a long paragraph): byte
/// offsets in `text` where the sentences of `text[start..end]` end, the last being `end`
/// (none if the span is empty). The rules see only the span, as if it were the whole text.
pub(crate) fn sentence_ends_in(text: &str, start: usize, end: usize) -> Vec<usize> {
    let span = &text[start..end];
    let mut ends: Vec<usize> = Boundaries::new(span).map(|b| start + b).collect();
    if !span.is_empty() {
        ends.push(end);
    }
    ends
}

#[cfg(test)]
mod tests;
