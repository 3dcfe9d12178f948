//! The scan: the storage's candidate search ([`super::hits`]) finds the few places a
//! sentence can end (end marks and line breaks); the rules then decide there, so the cost
//! is per candidate, not per character.
//!
//! Where a sentence ends, the next one starts after the whitespace that follows, so the
//! sentences cover the text: each keeps its closing quotes and the whitespace after it.
//! Positions are those of [`Units`]: bytes in UTF-8, code points in the fixed widths.

use super::english::period_ends;
use super::hits::{Hits, Scan};
use super::marks::{is_cjk, is_closer, is_continuation, is_lower, is_opener, mark, Mark};
use super::spaces::{escape_at, list_marker, space_at, whitespace};
use crate::units::{Units, Utf8};

/// The positions where a new sentence starts, in increasing order; never 0 and never the
/// end of the text (the last sentence ends there without a boundary).
#[derive(Debug, Clone)]
pub struct Boundaries<'a, T: Scan<'a> = Utf8<'a>> {
    text: T,
    pos: usize,
    hits: T::Hits,
}

impl<'a> Boundaries<'a, Utf8<'a>> {
    /// Boundaries of the whole of `text`, as byte offsets.
    pub fn new(text: &'a str) -> Self {
        Self::over(Utf8(text))
    }
}

impl<'a, T: Scan<'a>> Boundaries<'a, T> {
    /// Boundaries of the whole of `text`, in any storage, as its positions.
    pub fn over(text: T) -> Self {
        Self {
            text,
            pos: 0,
            hits: text.hits(),
        }
    }

    /// A line break `n` units long at `i` (`\n`, or the escape `\\n`): a blank line (two
    /// breaks with only whitespace between) ends the sentence whatever comes before it, and
    /// so does a line that starts with a list marker (items often have no final mark).
    fn line_break(&mut self, i: usize, n: usize) -> Option<usize> {
        let text = self.text;
        if i + n < text.len() {
            let (c, _) = text.char_at(i + n);
            if c > ' ' && c.is_ascii() && c != '\\' && !list_marker(text, i + n) {
                self.pos = i + n; // the common case: a line of text follows
                return None;
            }
        }
        let (end, breaks) = whitespace(text, i);
        self.pos = end;
        (end < text.len() && (breaks >= 2 || list_marker(text, end))).then_some(end)
    }

    /// A backslash at `i`: the escape `\\n` is a line break (JSON stored as text), any
    /// other is a character like the rest.
    fn backslash(&mut self, i: usize) -> Option<usize> {
        if let Some((n, true)) = escape_at(self.text, i) {
            self.line_break(i, n)
        } else {
            self.pos = i + 1;
            None
        }
    }

    /// A possible end mark `c`, `n` units long, at `i`.
    fn end_mark(&mut self, i: usize, c: char, n: usize) -> Option<usize> {
        let text = self.text;
        let Some(first) = mark(c) else {
            self.pos = i + n; // a lead byte of another character: skip it
            return None;
        };
        let (run_end, marks, cjk_mark) = run(text, i);
        let single_dot = marks == 1 && first == Mark::Dot;
        // A CJK end mark, or any end mark right after a CJK letter, needs no space after it.
        let after_cjk = i > 0 && is_cjk(text.char_before(i).0);
        let strong = cjk_mark || after_cjk;
        let close = closers(text, run_end);
        self.pos = close;
        if close == text.len() {
            return None;
        }
        if space_at(text, close).is_none() {
            let (next, _) = text.char_at(close);
            if next == ',' && closes_value(text, run_end, close) {
                // `."}, {"role": ...`: the string ends its sentence and closes its object.
                let (end, _) = whitespace(text, close + 1);
                self.pos = end;
                return (end < text.len()).then_some(end); // compact JSON too: `"},{"`
            }
            // Not before a continuation mark (`！），`), nor, after a CJK letter alone, before
            // a Latin letter or digit (a file name: `中文版.pdf`).
            let latin = !cjk_mark && next.is_ascii_alphanumeric();
            let ends = (strong || is_cjk(next)) && !is_continuation(next) && !latin;
            return ends.then_some(close);
        }
        let (end, breaks) = whitespace(text, close);
        self.pos = end;
        if end == text.len() {
            return None;
        }
        let (after, _) = text.char_at(end);
        let opens =
            !is_lower(past_openers(text, end)) && mark(after).is_none() && !is_continuation(after);
        let ends = (strong && !is_continuation(after))
            || breaks >= 2
            || (breaks == 1 && list_marker(text, end))
            || (opens && (!single_dot || period_ends(text, i, after)));
        ends.then_some(end)
    }
}

impl<'a, T: Scan<'a>> Iterator for Boundaries<'a, T> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while let Some(i) = self.hits.find(self.pos) {
            let (c, n) = self.text.char_at(i);
            let found = match c {
                '\n' => self.line_break(i, 1),
                '\\' => self.backslash(i),
                _ => self.end_mark(i, c, n),
            };
            if found.is_some() {
                return found;
            }
        }
        self.pos = self.text.len();
        None
    }
}

/// The end of the closing quotes and brackets from `from` on (an escaped quote, `\\"`,
/// is one too).
fn closers<'a, T: Units<'a>>(text: T, from: usize) -> usize {
    let mut end = from;
    while end < text.len() {
        let (c, n) = text.char_at(end);
        if is_closer(c) {
            end += n;
        } else if c == '\\' && end + 1 < text.len() && matches!(text.char_at(end + 1).0, '"' | '\'')
        {
            end += 2;
        } else {
            break;
        }
    }
    end
}

/// The character at `from` after any opening quotes and brackets (`'\0'` at the end): a
/// lowercase letter there continues the sentence (`end. (the rest`), as in UAX #29.
fn past_openers<'a, T: Units<'a>>(text: T, from: usize) -> char {
    let mut at = from;
    while at < text.len() {
        let (c, n) = text.char_at(at);
        if !is_opener(c) {
            return c;
        }
        at += n;
    }
    '\0'
}

/// Whether the closers `text[from..to]` end a JSON string and close its object or array
/// (`"}` or `"]`, then any more closers).
fn closes_value<'a, T: Units<'a>>(text: T, from: usize, to: usize) -> bool {
    to > from + 1 && text.char_at(from).0 == '"' && matches!(text.char_at(from + 1).0, '}' | ']')
}

/// The run of end marks starting at `i`: its end, how many marks, whether one is CJK.
fn run<'a, T: Units<'a>>(text: T, i: usize) -> (usize, usize, bool) {
    let (mut end, mut count, mut cjk) = (i, 0, false);
    while end < text.len() {
        let (c, n) = text.char_at(end);
        let Some(m) = mark(c) else { break };
        end += n;
        count += 1;
        cjk |= m == Mark::Cjk;
    }
    (end, count, cjk)
}
