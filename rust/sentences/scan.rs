//! The scan: SIMD `memchr` finds the few places a sentence can end (end marks and line
//! breaks); the rules then decide there, so the cost is per candidate, not per byte.
//!
//! Where a sentence ends, the next one starts after the whitespace that follows, so the
//! sentences cover the text: each keeps its closing quotes and the whitespace after it.

use super::english::period_ends;
use super::marks::{is_cjk, is_closer, is_lower, mark, Mark};
use crate::text::is_py_space;

/// Finds the bytes that can start an end mark or a line break: `.?!`, `\n`, and the UTF-8
/// lead bytes of the other end marks (0xE2 for U+2026 `…` to U+22EF `⋯`, 0xE3 for U+3002
/// `。`, 0xEF for U+FF01 `！` to U+FF61 `｡`). Lead bytes are never inside a character, so
/// every hit is at a character boundary. Three SIMD `memchr` iterators run side by side,
/// each holding its next hit, so the text is read at memchr speed and work is per hit.
#[derive(Debug, Clone)]
struct Hits<'a> {
    marks: memchr::Memchr3<'a>,
    lines: memchr::Memchr<'a>,
    leads: memchr::Memchr3<'a>,
    /// The next hit of each iterator (`usize::MAX` once it has no more).
    next: [usize; 3],
}

impl<'a> Hits<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        let mut hits = Self {
            marks: memchr::memchr3_iter(b'.', b'?', b'!', bytes),
            lines: memchr::memchr_iter(b'\n', bytes),
            leads: memchr::memchr3_iter(0xE2, 0xE3, 0xEF, bytes),
            next: [0; 3],
        };
        for k in 0..3 {
            hits.next[k] = hits.advance(k);
        }
        hits
    }

    fn advance(&mut self, k: usize) -> usize {
        let found = match k {
            0 => self.marks.next(),
            1 => self.lines.next(),
            _ => self.leads.next(),
        };
        found.unwrap_or(usize::MAX)
    }

    /// The first hit at or after `pos` (hits before it, inside text already read, are
    /// skipped).
    fn find(&mut self, pos: usize) -> Option<usize> {
        for k in 0..3 {
            while self.next[k] < pos {
                self.next[k] = self.advance(k);
            }
        }
        let first = self.next[0].min(self.next[1]).min(self.next[2]);
        (first != usize::MAX).then_some(first)
    }
}

/// The byte offsets where a new sentence starts, in increasing order; never 0 and never
/// the end of the text (the last sentence ends there without a boundary).
#[derive(Debug, Clone)]
pub struct Boundaries<'a> {
    text: &'a str,
    pos: usize,
    hits: Hits<'a>,
}

impl<'a> Boundaries<'a> {
    /// Boundaries of the whole of `text`.
    pub fn new(text: &'a str) -> Self {
        Self {
            text,
            pos: 0,
            hits: Hits::new(text.as_bytes()),
        }
    }

    /// A line break at `i`: a blank line (two breaks with only whitespace between) ends
    /// the sentence whatever comes before it.
    fn line_break(&mut self, i: usize) -> Option<usize> {
        if self
            .text
            .as_bytes()
            .get(i + 1)
            .is_some_and(|&b| b > b' ' && b < 0x80)
        {
            self.pos = i + 1; // the common case: a line of text follows, no blank line
            return None;
        }
        let (end, breaks) = whitespace(self.text, i);
        self.pos = end;
        (breaks >= 2 && end < self.text.len()).then_some(end)
    }

    /// A possible end mark at `i` (a lead byte may start some other character).
    fn end_mark(&mut self, i: usize) -> Option<usize> {
        let text = self.text;
        if !maybe_mark(&text.as_bytes()[i..]) {
            self.pos = i + 1; // a lead byte of another character: skip it
            return None;
        }
        let c = char_at(text, i);
        let Some(first) = mark(c) else {
            self.pos = i + c.len_utf8();
            return None;
        };
        let (run_end, marks, cjk_mark) = run(text, i);
        let single_dot = marks == 1 && first == Mark::Dot;
        // A CJK end mark, or any end mark right after a CJK letter, needs no space after it.
        let strong = cjk_mark || text[..i].chars().next_back().is_some_and(is_cjk);
        let close = run_end + closers(&text[run_end..]);
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
        while let Some(i) = self.hits.find(self.pos) {
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

/// Whether the bytes at a hit can start an end mark: ASCII hits can; for a lead byte the
/// second byte must be one the non-ASCII end marks have (0x80/0x81/0x8B after 0xE2, 0x80
/// after 0xE3, 0xBC/0xBD after 0xEF), which rejects kana, curly quotes and dashes cheaply.
fn maybe_mark(bytes: &[u8]) -> bool {
    match bytes {
        [0xE2, b, ..] => matches!(b, 0x80 | 0x81 | 0x8B),
        [0xE3, b, ..] => *b == 0x80,
        [0xEF, b, ..] => matches!(b, 0xBC | 0xBD),
        _ => true,
    }
}

/// The character at byte `i` (a character boundary before the end).
fn char_at(text: &str, i: usize) -> char {
    text[i..].chars().next().unwrap_or('\0')
}

/// The length of the closing quotes and brackets at the start of `rest`.
fn closers(rest: &str) -> usize {
    if matches!(rest.as_bytes().first(), None | Some(b' ' | b'\n')) {
        return 0; // the usual case: a space right after the end mark
    }
    rest.len() - rest.trim_start_matches(is_closer).len()
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
    // ASCII spaces byte by byte; a non-ASCII byte continues by characters below.
    for &b in &text.as_bytes()[from..] {
        match b {
            b'\n' => breaks += 1,
            b' ' | b'\t' | b'\r' | 0x0B | 0x0C | 0x1C..=0x1F => {}
            _ => break,
        }
        end += 1;
    }
    for c in text[end..].chars() {
        if !is_py_space(c) {
            break;
        }
        end += c.len_utf8();
        breaks += usize::from(c == '\n');
    }
    (end, breaks)
}
