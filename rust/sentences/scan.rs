//! The scan: a byte table finds the few places a sentence can end (end marks and line
//! breaks); the rules then decide there. Everything else is skipped a byte at a time.
//!
//! Where a sentence ends, the next one starts after the whitespace that follows, so the
//! sentences cover the text: each keeps its closing quotes and the whitespace after it.

use super::english::period_ends;
use super::marks::{is_cjk, is_closer, is_lower, mark, Mark};
use crate::text::is_py_space;

/// Bytes that can start an end mark or a line break: `.?!` and `\n`, and the UTF-8 lead
/// bytes of the other end marks (U+2026 `…` to U+22EF `⋯`: 0xE2; U+3002 `。`: 0xE3;
/// U+FF01 `！` to U+FF61 `｡`: 0xEF). Lead bytes are never inside a character, so every
/// hit is at a character boundary.
const INTEREST: [bool; 256] = {
    let mut table = [false; 256];
    table[b'.' as usize] = true;
    table[b'?' as usize] = true;
    table[b'!' as usize] = true;
    table[b'\n' as usize] = true;
    table[0xE2] = true;
    table[0xE3] = true;
    table[0xEF] = true;
    table
};

/// The byte offsets where a new sentence starts, in increasing order; never 0 and never
/// the end of the text (the last sentence ends there without a boundary).
#[derive(Debug, Clone)]
pub struct Boundaries<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Boundaries<'a> {
    /// Boundaries of the whole of `text`.
    pub fn new(text: &'a str) -> Self {
        Self { text, pos: 0 }
    }

    /// A line break at `i`: a blank line (two breaks with only whitespace between) ends
    /// the sentence whatever comes before it.
    fn line_break(&mut self, i: usize) -> Option<usize> {
        let (end, breaks) = whitespace(self.text, i);
        self.pos = end;
        (breaks >= 2 && end < self.text.len()).then_some(end)
    }

    /// A possible end mark at `i` (a lead byte may start some other character).
    fn end_mark(&mut self, i: usize) -> Option<usize> {
        let text = self.text;
        let c = char_at(text, i);
        let Some(first) = mark(c) else {
            self.pos = i + c.len_utf8();
            return None;
        };
        let (run_end, marks, cjk_mark) = run(text, i);
        let single_dot = marks == 1 && first == Mark::Dot;
        // A CJK end mark, or any end mark right after a CJK letter, needs no space after it.
        let strong = cjk_mark || text[..i].chars().next_back().is_some_and(is_cjk);
        let close =
            run_end + text[run_end..].len() - text[run_end..].trim_start_matches(is_closer).len();
        self.pos = close;
        let next = text[close..].chars().next()?;
        if !is_py_space(next) {
            return (strong || is_cjk(next)).then_some(close);
        }
        let (end, breaks) = whitespace(text, close);
        self.pos = end;
        let after = text[end..].chars().next()?;
        let ends = strong
            || breaks >= 2
            || (!is_lower(after) && (!single_dot || period_ends(text, i, after)));
        ends.then_some(end)
    }
}

impl Iterator for Boundaries<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let bytes = self.text.as_bytes();
        while let Some(skip) = bytes[self.pos..].iter().position(|&b| INTEREST[b as usize]) {
            let i = self.pos + skip;
            let found = if bytes[i] == b'\n' {
                self.line_break(i)
            } else {
                self.end_mark(i)
            };
            if found.is_some() {
                return found;
            }
        }
        self.pos = bytes.len();
        None
    }
}

/// The character at byte `i` (a character boundary before the end).
fn char_at(text: &str, i: usize) -> char {
    text[i..].chars().next().unwrap_or('\0')
}

/// The run of end marks starting at `i`: its end, how many marks, whether one is CJK.
fn run(text: &str, i: usize) -> (usize, usize, bool) {
    let (mut end, mut count, mut cjk) = (i, 0, false);
    for c in text[i..].chars() {
        let Some(m) = mark(c) else { break };
        end += c.len_utf8();
        count += 1;
        cjk |= m == Mark::Cjk;
    }
    (end, count, cjk)
}

/// The whitespace run starting at `from`: where it ends and how many `\n` it holds.
fn whitespace(text: &str, from: usize) -> (usize, usize) {
    let (mut end, mut breaks) = (from, 0);
    for c in text[from..].chars() {
        if !is_py_space(c) {
            break;
        }
        end += c.len_utf8();
        breaks += usize::from(c == '\n');
    }
    (end, breaks)
}
