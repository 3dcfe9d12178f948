//! `LangChain`'s `MarkdownHeaderTextSplitter` line scan, reproduced exactly.
//!
//! Each line is stripped (Python whitespace) and loses its non-printable characters, then
//! read as a fence, a header for one of the rules (longest marker first), a blank line or
//! content. Blocks of content carry the header metadata in force; blocks with equal
//! metadata are then joined with `"  \n"` unless every block is wanted on its own.
//!
//! The scan reads code points (`&[U]`: CPython's own 1-, 2- or 4-byte storage of a `str`,
//! or a `&str` widened to `u32`) and returns spans of it, not strings: the binding cuts the
//! output strings straight from the `str`'s storage, so nothing is converted to UTF-8 and
//! back. Only a line that loses characters is copied (into [`Scan::copies`]).
//! Non-printable means Python's `str.isprintable` is false: ASCII controls are known here;
//! for other characters the caller answers, because the answer depends on the Unicode
//! version of the Python that runs us (and may not be known yet: [`Stop::Unknown`]).

use std::ops::Range;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::text::is_py_space;
use crate::units::Unit;

/// Whether a non-ASCII character is one Python's `str.isprintable` rejects.
pub type NonPrintable<'a> = &'a (dyn Fn(char) -> bool + Sync);

/// One `(marker, name)` entry of `headers_to_split_on`, resolved by the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderRule {
    /// The marker a header line starts with, e.g. `"##"` (or `"**"` for a custom pattern).
    pub sep: String,
    /// Id of the metadata key (equal names share an id); `None` splits without metadata.
    pub name: Option<usize>,
    /// Nesting level: `#` count, or the level given in `custom_header_patterns`.
    pub level: i64,
    /// Whether `sep` is also a custom `**Title**`-style pattern.
    pub custom: bool,
}

/// Header metadata in insertion order with dict semantics: `(name id, header text)`.
pub type Metadata = Vec<(usize, String)>;

/// One output document: its content and the header metadata it sits under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderBlock {
    /// The stripped lines of the block joined by `"\n"` (and `"  \n"` when aggregated).
    pub content: String,
    /// The headers in force, as `(name id, text)`; shared by the blocks under them.
    pub metadata: Arc<Metadata>,
}

/// Units `start..end` of the text, or of [`Scan::copies`] when `copied`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First unit.
    pub start: usize,
    /// One past the last unit.
    pub end: usize,
    /// Whether the units are in [`Scan::copies`] (a line that lost characters).
    pub copied: bool,
}

/// A piece of a block's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// Units of the text or of the copies.
    Text(Span),
    /// `"\n"`, between two lines of a block.
    Newline,
    /// `"  \n"`, between two blocks aggregated into one.
    Break,
}

/// One output document: `pieces[pieces]` concatenated, under `metas[meta]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Its range of [`Scan::pieces`].
    pub pieces: Range<usize>,
    /// Its metadata, an index into [`Scan::metas`].
    pub meta: usize,
    /// Its last line (what `LangChain`'s aggregation looks at).
    last_line: Span,
}

/// Header metadata, `(name id, header text)` in dict insertion order.
pub type Meta = Vec<(usize, Span)>;

/// What a scan found, as spans of the text it read.
#[derive(Debug, Clone, Default)]
pub struct Scan<U> {
    /// The printable units of lines that had others (rare).
    pub copies: Vec<U>,
    /// The content of every block, block after block.
    pub pieces: Vec<Piece>,
    /// The output documents, in order.
    pub blocks: Vec<Block>,
    /// Every metadata in force at some point; `metas[0]` is the empty one.
    pub metas: Vec<Meta>,
}

impl<U: Unit> Scan<U> {
    /// The units of `span`, in `text` (the scanned text) or in the copies.
    pub fn slice<'a>(&'a self, text: &'a [U], span: Span) -> &'a [U] {
        let units = if span.copied { &self.copies } else { text };
        &units[span.start..span.end]
    }
}

/// Why a scan stopped without a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// `LangChain` fails on this input; the error says how.
    Error(Error),
    /// The caller did not know whether some character is printable (see
    /// [`HeaderSplitter::scan`]): it should learn them all and scan again.
    Unknown,
}

/// What a step of the scan returns.
pub type Scanned<T> = std::result::Result<T, Stop>;

/// A configured header splitter.
#[derive(Debug, Clone)]
pub struct HeaderSplitter {
    rules: Vec<HeaderRule>,
    /// Each rule's marker as code points.
    seps: Vec<Vec<u32>>,
    return_each_line: bool,
    strip_headers: bool,
}

/// Whether `u` is Python whitespace.
#[inline]
fn is_space<U: Unit>(u: U) -> bool {
    let c: u32 = u.into();
    if c < 0x80 {
        matches!(c, 0x09..=0x0d | 0x1c..=0x20)
    } else {
        char::from_u32(c).is_some_and(is_py_space)
    }
}

/// `units[start..end].strip()` as a range.
fn strip<U: Unit>(units: &[U], mut start: usize, mut end: usize) -> (usize, usize) {
    while start < end && is_space(units[start]) {
        start += 1;
    }
    while end > start && is_space(units[end - 1]) {
        end -= 1;
    }
    (start, end)
}

fn starts_with<U: Unit>(line: &[U], prefix: &[u32]) -> bool {
    line.len() >= prefix.len() && line.iter().zip(prefix).all(|(&u, &p)| u.into() == p)
}

fn ends_with<U: Unit>(line: &[U], suffix: &[u32]) -> bool {
    line.len() >= suffix.len()
        && line[line.len() - suffix.len()..]
            .iter()
            .zip(suffix)
            .all(|(&u, &p)| u.into() == p)
}

fn is_unit<U: Unit>(u: U, ascii: u8) -> bool {
    u.into() == u32::from(ascii)
}

const TICKS: [u32; 3] = [0x60; 3];
const TILDES: [u32; 3] = [0x7e; 3];

/// Python's `line.count("```") == 1` for a line starting with three backticks: no second,
/// non-overlapping triple after the first.
fn one_triple<U: Unit>(line: &[U]) -> bool {
    !line[3..].windows(3).any(|w| starts_with(w, &TICKS))
}

/// The index of the next `"\n"` at or after `from`: `memchr` on one-byte text, runs of
/// 32 units tested without an early exit (vectorised) on wider ones.
fn next_newline<U: Unit>(text: &[U], from: usize) -> Option<usize> {
    if size_of::<U>() == 1 {
        let bytes: &[u8] = bytemuck::cast_slice(&text[from..]);
        return memchr::memchr(b'\n', bytes).map(|i| from + i);
    }
    let mut at = from;
    for run in text[from..].chunks(32) {
        if run
            .iter()
            .fold(false, |found, &u| found | is_unit(u, b'\n'))
        {
            return run.iter().position(|&u| is_unit(u, b'\n')).map(|i| at + i);
        }
        at += run.len();
    }
    None
}

/// Whether every unit of `line` is printable; `Err` if the caller does not know one.
fn all_printable<U: Unit>(line: &[U], np: &impl Fn(u32) -> Option<bool>) -> Scanned<bool> {
    let (any, control) = line.iter().fold((0u32, 0u8), |(any, control), &u| {
        let c: u32 = u.into();
        (any | c, control | u8::from(c < 0x20 || c == 0x7f))
    });
    if control != 0 {
        return Ok(false);
    }
    if any < 0x80 {
        return Ok(true); // the common line: ASCII, nothing to drop
    }
    for &u in line {
        let c: u32 = u.into();
        if c >= 0x80 && np(c).ok_or(Stop::Unknown)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn printable(c: u32, np: &impl Fn(u32) -> Option<bool>) -> Scanned<bool> {
    if c < 0x80 {
        return Ok(c >= 0x20 && c != 0x7f);
    }
    np(c).map(|n| !n).ok_or(Stop::Unknown)
}

/// The title of a `**Title**` custom header, as a range of `line`: one `sep` each side,
/// something between that is not only `sep` characters.
fn custom_title<U: Unit>(line: &[U], sep: &[u32]) -> Option<(usize, usize)> {
    let n = sep.len();
    if n == 0 || line.len() < 2 * n + 1 || !starts_with(line, sep) || !ends_with(line, sep) {
        return None;
    }
    let inner_end = line.len() - n;
    if starts_with(&line[n..], sep) || ends_with(&line[..inner_end], sep) {
        return None;
    }
    let (a, b) = strip(line, n, inner_end);
    let only_sep = line[a..b]
        .iter()
        .map(|&u| u.into())
        .filter(|&c| c != 0x20)
        .all(|c| sep.contains(&c));
    (a < b && !only_sep).then_some((a, b))
}

/// The header text (a range of `line`) when `line` is a header for the rule of `sep`. A
/// line that is both a custom header and a standard one (`"** a**"` for `"**"`) takes the
/// custom reading, as `LangChain` does: its title is what lies between the two markers.
fn match_header<U: Unit>(line: &[U], sep: &[u32], custom: bool) -> Option<(usize, usize)> {
    if sep
        .first()
        .is_some_and(|&s| line.first().map(|&u| u.into()) != Some(s))
    {
        return None; // the common case: the line does not even start like the marker
    }
    if custom {
        if let Some(title) = custom_title(line, sep) {
            return Some(title);
        }
    }
    let n = sep.len();
    if starts_with(line, sep) && (line.len() == n || is_unit(line[n], b' ')) {
        return Some(strip(line, n, line.len()));
    }
    None
}

/// The scan's state between lines.
struct Scanner<'s, U> {
    splitter: &'s HeaderSplitter,
    text: &'s [U],
    out: Scan<U>,
    /// The lines of the block being read.
    content: Vec<Span>,
    /// The metadata in force, an index into `out.metas`.
    meta: usize,
    /// `(level, name id)` of the open headers.
    stack: Vec<(i64, usize)>,
    /// The open fence (three backticks or tildes), if any.
    fence: Option<&'static [u32; 3]>,
}

impl<U: Unit> Scanner<'_, U> {
    /// Python's `"".join(filter(str.isprintable, line.strip()))` of `start..end`.
    fn clean(
        &mut self,
        start: usize,
        end: usize,
        np: &impl Fn(u32) -> Option<bool>,
    ) -> Scanned<Span> {
        let (a, b) = strip(self.text, start, end);
        let line = &self.text[a..b];
        if all_printable(line, np)? {
            return Ok(Span {
                start: a,
                end: b,
                copied: false,
            });
        }
        let from = self.out.copies.len();
        for &u in line {
            if printable(u.into(), np)? {
                self.out.copies.push(u);
            }
        }
        let end = self.out.copies.len();
        Ok(Span {
            start: from,
            end,
            copied: true,
        })
    }

    /// Reads one cleaned line.
    fn line(&mut self, line: Span) -> Scanned<()> {
        let units = self.out.slice(self.text, line);
        match self.fence {
            None if starts_with(units, &TICKS) && one_triple(units) => self.fence = Some(&TICKS),
            None if starts_with(units, &TILDES) => self.fence = Some(&TILDES),
            Some(fence) if starts_with(units, fence) => self.fence = None, // then an ordinary line
            _ => {}
        }
        if self.fence.is_some() {
            self.content.push(line);
            return Ok(());
        }
        let splitter = self.splitter;
        let header = (splitter.rules.iter().zip(&splitter.seps))
            .find_map(|(rule, sep)| match_header(units, sep, rule.custom).map(|t| (rule, t)));
        let empty = units.is_empty();
        match header {
            Some((rule, (a, b))) => {
                let before = self.meta;
                if let Some(name) = rule.name {
                    let title = Span {
                        start: line.start + a,
                        end: line.start + b,
                        ..line
                    };
                    self.open(rule.level, name, title);
                }
                if !self.content.is_empty() {
                    self.flush(before)?;
                }
                if !splitter.strip_headers {
                    self.content.push(line);
                }
            }
            None if empty => {
                if !self.content.is_empty() {
                    self.flush(self.meta)?;
                }
            }
            None => self.content.push(line),
        }
        Ok(())
    }

    /// A header of `level` titled `title` for `name`: closes the headers it ends.
    fn open(&mut self, level: i64, name: usize, title: Span) {
        let mut meta = self.out.metas[self.meta].clone();
        while let Some(&(open, popped)) = self.stack.last() {
            if open < level {
                break;
            }
            self.stack.pop();
            meta.retain(|&(k, _)| k != popped);
        }
        self.stack.push((level, name));
        match meta.iter_mut().find(|(k, _)| *k == name) {
            Some(entry) => entry.1 = title,
            None => meta.push((name, title)),
        }
        self.out.metas.push(meta);
        self.meta = self.out.metas.len() - 1;
    }

    /// Dict equality of two metadata (order does not matter).
    fn meta_eq(&self, a: usize, b: usize) -> bool {
        let (ma, mb) = (&self.out.metas[a], &self.out.metas[b]);
        let bytes = |x: Span| bytemuck::cast_slice::<U, u8>(self.out.slice(self.text, x));
        let same = |x: Span, y: Span| bytes(x) == bytes(y);
        a == b
            || (ma.len() == mb.len()
                && ma
                    .iter()
                    .all(|&(k, v)| mb.iter().any(|&(k2, v2)| k2 == k && same(v, v2))))
    }

    /// Ends the block being read, under `meta`. Blocks are folded as they come, as
    /// `LangChain`'s `aggregate_lines_to_chunks` folds the finished list (a left fold, so
    /// the result is the same).
    fn flush(&mut self, meta: usize) -> Scanned<()> {
        let lines = std::mem::take(&mut self.content);
        let merge = !self.splitter.return_each_line && self.merges(meta)?;
        let start = self.out.pieces.len();
        if merge {
            self.out.pieces.push(Piece::Break);
        }
        self.push_lines(&lines);
        let last_line = lines[lines.len() - 1];
        let end = self.out.pieces.len();
        match self.out.blocks.last_mut() {
            Some(last) if merge => {
                last.pieces.end = end;
                last.meta = meta;
                last.last_line = last_line;
            }
            _ => self.out.blocks.push(Block {
                pieces: start..end,
                meta,
                last_line,
            }),
        }
        self.content = lines;
        self.content.clear();
        Ok(())
    }

    /// Whether a block under `meta` joins the last one (then under `meta`).
    fn merges(&self, meta: usize) -> Scanned<bool> {
        let Some(last) = self.out.blocks.last() else {
            return Ok(false);
        };
        if self.meta_eq(last.meta, meta) {
            return Ok(true);
        }
        let last_line = self.out.slice(self.text, last.last_line);
        let deeper = self.out.metas[last.meta].len() < self.out.metas[meta].len();
        if deeper && last_line.is_empty() {
            // LangChain reads the first character of that empty line.
            return Err(Stop::Error(Error::IndexOutOfRange));
        }
        Ok(deeper && is_unit(last_line[0], b'#') && !self.splitter.strip_headers)
    }

    /// Appends `lines` joined by newlines; a line that follows the previous one in the text
    /// extends its span instead (so a paragraph is one span, cut out in one copy).
    fn push_lines(&mut self, lines: &[Span]) {
        for (k, &line) in lines.iter().enumerate() {
            if k > 0 {
                if let Some(Piece::Text(prev)) = self.out.pieces.last_mut() {
                    if !prev.copied && !line.copied && line.start == prev.end + 1 {
                        prev.end = line.end; // the unit between is that newline
                        continue;
                    }
                }
                self.out.pieces.push(Piece::Newline);
            }
            self.out.pieces.push(Piece::Text(line));
        }
    }
}

impl HeaderSplitter {
    /// A splitter over `rules`, already sorted longest marker first (`LangChain`'s order).
    pub fn new(rules: Vec<HeaderRule>, return_each_line: bool, strip_headers: bool) -> Self {
        let seps = rules
            .iter()
            .map(|r| r.sep.chars().map(u32::from).collect())
            .collect();
        Self {
            rules,
            seps,
            return_each_line,
            strip_headers,
        }
    }

    /// Scans `text` (code points, no lone surrogates). `np(c)` says whether the non-ASCII
    /// character `c` is non-printable, or `None` if the caller does not know yet, which
    /// stops the scan with [`Stop::Unknown`].
    pub fn scan<U: Unit>(&self, text: &[U], np: impl Fn(u32) -> Option<bool>) -> Scanned<Scan<U>> {
        let mut scanner = Scanner {
            splitter: self,
            text,
            out: Scan {
                metas: vec![Vec::new()],
                ..Scan::default()
            },
            content: Vec::new(),
            meta: 0,
            stack: Vec::new(),
            fence: None,
        };
        let mut start = 0;
        loop {
            let end = next_newline(text, start);
            let line = scanner.clean(start, end.unwrap_or(text.len()), &np)?;
            scanner.line(line)?;
            match end {
                Some(end) => start = end + 1,
                None => break,
            }
        }
        if !scanner.content.is_empty() {
            scanner.flush(scanner.meta)?;
        }
        Ok(scanner.out)
    }

    /// Splits `text`; `nonprintable` says which non-ASCII characters Python does not
    /// consider printable (`None`: the text has none). The binding uses [`Self::scan`] on
    /// the `str`'s own storage instead.
    pub fn split(
        &self,
        text: &str,
        nonprintable: Option<NonPrintable<'_>>,
    ) -> Result<Vec<HeaderBlock>> {
        let units: Vec<u32> = text.chars().map(u32::from).collect();
        let np =
            |c: u32| Some(char::from_u32(c).is_some_and(|c| nonprintable.is_some_and(|f| f(c))));
        let scan = match self.scan(&units, np) {
            Ok(scan) => scan,
            Err(Stop::Error(err)) => return Err(err),
            Err(Stop::Unknown) => unreachable!("every character is known"),
        };
        let string = |span: Span| -> String {
            scan.slice(&units, span)
                .iter()
                .filter_map(|&u| char::from_u32(u))
                .collect()
        };
        let metas: Vec<Arc<Metadata>> = (scan.metas.iter())
            .map(|m| Arc::new(m.iter().map(|&(k, v)| (k, string(v))).collect()))
            .collect();
        let blocks = scan.blocks.iter().map(|block| {
            let mut content = String::new();
            for piece in &scan.pieces[block.pieces.clone()] {
                match *piece {
                    Piece::Text(text) => content.push_str(&string(text)),
                    Piece::Newline => content.push('\n'),
                    Piece::Break => content.push_str("  \n"),
                }
            }
            HeaderBlock {
                content,
                metadata: Arc::clone(&metas[block.meta]),
            }
        });
        Ok(blocks.collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(sep: &str, name: usize) -> HeaderRule {
        HeaderRule {
            sep: sep.to_owned(),
            name: Some(name),
            level: i64::try_from(sep.matches('#').count()).unwrap_or(0),
            custom: false,
        }
    }

    fn units(s: &str) -> Vec<u32> {
        s.chars().map(u32::from).collect()
    }

    #[test]
    fn empty_last_line_before_deeper_block_fails_like_python() {
        // LangChain reads the first character of the previous block's last line.
        let s = HeaderSplitter::new(vec![rule("#", 1), rule("", 0)], false, false);
        assert_eq!(
            s.split("\n# ", Some(&|_| false)),
            Err(Error::IndexOutOfRange)
        );
    }

    #[test]
    fn headers_nest_and_pop() {
        let s = HeaderSplitter::new(vec![rule("##", 1), rule("#", 0)], false, true);
        let out = s
            .split("# A\nx\n## B\ny\n# C\nz", Some(&|_| false))
            .unwrap();
        let got: Vec<_> = out
            .iter()
            .map(|b| (b.content.as_str(), b.metadata.len()))
            .collect();
        assert_eq!(got, [("x", 1), ("y", 2), ("z", 1)]);
        assert_eq!(*out[2].metadata, vec![(0, "C".to_owned())]);
    }

    #[test]
    fn fences_hide_headers_and_lines_are_cleaned() {
        let s = HeaderSplitter::new(vec![rule("#", 0)], true, true);
        let out = s
            .split("  # A \t\n```\n# no\n```\nend\u{7}x", Some(&|_| false))
            .unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].content, "```\n# no\n```\nendx");
    }

    #[test]
    fn paragraphs_are_one_span_and_unknown_characters_stop() {
        let s = HeaderSplitter::new(vec![rule("#", 0)], false, true);
        let text = units("# A\nx\ny\n\n z\n");
        let scan = s.scan(&text, |_| Some(false)).unwrap();
        let spans = |k: usize| scan.pieces[scan.blocks[k].pieces.clone()].to_vec();
        let text_piece = |start, end| {
            Piece::Text(Span {
                start,
                end,
                copied: false,
            })
        };
        // "x\ny" is one span of the text; " z" is stripped, so the join is a break.
        assert_eq!(
            spans(0),
            [text_piece(4, 7), Piece::Break, text_piece(10, 11)]
        );
        assert_eq!(s.scan(&units("é"), |_| None).err(), Some(Stop::Unknown));
        assert!(
            s.scan(&units("e"), |_| None).is_ok(),
            "ASCII needs no answer"
        );
    }

    type Parts = (Vec<u32>, Vec<Piece>, Vec<Block>, Vec<Meta>);

    /// The scan of `text` stored in `U`, with its copies widened (to compare widths);
    /// `None` if `U` cannot hold the text.
    fn scan_as<U: Unit + TryFrom<u32>>(s: &HeaderSplitter, text: &str) -> Option<Scanned<Parts>> {
        let units: Vec<U> = (text.chars())
            .map(|c| U::try_from(c.into()).ok())
            .collect::<Option<_>>()?;
        let np = |c: u32| Some(c == 0xad || c == 0x2028);
        Some(s.scan(&units, np).map(|scan| {
            let copies = scan.copies.iter().map(|&u| u.into()).collect();
            (copies, scan.pieces, scan.blocks, scan.metas)
        }))
    }

    proptest::proptest! {
        /// Latin-1, UCS-2 and UCS-4 storage of one text scan alike (positions are code
        /// points in all three), whichever settings.
        #[test]
        fn widths_agree(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "# ", "## ", "#", "```", "~~~", "a", " ", "\t", "\r", "\n", "\n\n", "Ü", "\u{ad}",
                "\u{a0}", "漢", "\u{2028}", "😀", "\u{7}",
            ]), 0..40),
            each in proptest::bool::ANY,
            strip in proptest::bool::ANY,
        ) {
            let s = HeaderSplitter::new(vec![rule("##", 1), rule("#", 0)], each, strip);
            let text: String = parts.concat();
            let wide = scan_as::<u32>(&s, &text);
            proptest::prop_assert!(wide.is_some());
            for narrow in [scan_as::<u8>(&s, &text), scan_as::<u16>(&s, &text)].into_iter().flatten() {
                proptest::prop_assert_eq!(wide.as_ref(), Some(&narrow));
            }
        }
    }

    #[test]
    fn custom_reading_wins_over_standard() {
        // "** a**" is a standard header ("**" then a space) and a custom one: the title is
        // what lies between the markers, as in LangChain.
        let bold = units("**");
        assert_eq!(match_header(&units("** a**"), &bold, true), Some((3, 4)));
        assert_eq!(match_header(&units("** a"), &bold, true), Some((3, 4)));
        assert_eq!(match_header(&units("** a**"), &bold, false), Some((3, 6)));
    }

    #[test]
    fn custom_headers() {
        let title = |line: &str| {
            let line = units(line);
            custom_title(&line, &units("**")).map(|(a, b)| line[a..b].len())
        };
        assert_eq!(title("**Title**"), Some(5));
        assert_eq!(title("***Title**"), Some(6));
        assert_eq!(title("****Title**"), None);
        assert_eq!(title("** **"), None);
        assert_eq!(title("*****"), None);
    }
}
