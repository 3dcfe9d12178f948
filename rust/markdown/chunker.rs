//! Markdown-aware chunking: blocks from [`crate::markdown::blocks`] packed into chunks.
//!
//! A run of headings is glued to the block after it, so no chunk ends with a dangling
//! heading. A unit larger than the chunk size is cut: code, tables, lists, quotes and HTML
//! at line boundaries (table pieces sized so the header and delimiter rows can be repeated
//! in front of them), paragraphs sentence-first ([`super::prose`], or the recursive
//! splitter with separators of one's own). Units are packed greedily ([`super::pack`]),
//! an oversize paragraph's first sentences filling the room the chunk before it left; a heading
//! closes the chunk before it once that chunk has the minimum size; then chunks under the
//! minimum merge into a neighbour when the result still fits.
//! Every chunk is a byte span of the source. Sizes use [`Length`] (code points if none), so
//! token counters plug in. Mirrored by `python/ferrochunk/reference/markdown/chunker.py`.

use std::sync::Arc;

use super::blocks::{self, Block, Kind};
use super::chunk::{MdChunk, MdCut};
use super::overlap::Overlap;
use super::parent::{group, Parent};
use super::prose::{Prose, Seam};
use super::sections::Sections;
use crate::error::Result;
use crate::length::Length;
use crate::split::{Cut, KeepSeparator, Separator, SplitConfig, Splitter};
use crate::structure::{asciidoc, plain, rst, Markup};
use crate::text::is_py_space;

/// The blocks of `text` read as `markup`, in order: the Markdown scanner's, or the
/// scanner of another format ([`crate::structure`]).
fn scan(markup: Markup, text: &str) -> Vec<Block> {
    match markup {
        Markup::Markdown | Markup::Auto => blocks::scan(text),
        Markup::Rst => rst::scan(text),
        Markup::AsciiDoc => asciidoc::scan(text),
        Markup::Plain => plain::scan(text),
    }
}

/// A span to pack, with what it starts with.
#[derive(Debug, Clone)]
#[allow(clippy::struct_excessive_bools)] // four independent facts about one span, not states
pub(super) struct Unit {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) path: Arc<[String]>,
    pub(super) heading: bool,
    pub(super) heading_only: bool,
    pub(super) continuation: bool,
    pub(super) header: Option<(usize, usize)>,
    /// A whole paragraph, cut (if too long for a chunk) when packed: its first sentences
    /// may then fill the chunk before it ([`super::pack`]).
    pub(super) prose: bool,
    /// What a chunk ending with this unit ends at ([`MdChunk::cut`]).
    pub(super) cut: MdCut,
}

impl Unit {
    fn new(start: usize, end: usize, path: &Arc<[String]>) -> Self {
        Self {
            start,
            end,
            path: Arc::clone(path),
            heading: false,
            heading_only: false,
            continuation: false,
            header: None,
            prose: false,
            cut: MdCut::Block,
        }
    }
}

/// Sizes and separators of the Markdown chunker.
#[derive(Debug, Clone)]
pub struct MarkdownChunker {
    pub(super) max: usize,
    pub(super) min: usize,
    /// Cuts paragraphs too long for one chunk; built once, run at each call's budget.
    prose: Splitter,
    /// The separators again, as the seams where an overlapping tail may start.
    seams: Vec<Separator>,
    overlap: usize,
    /// The markup the text is read as (Markdown unless [`MarkdownChunker::with_format`]).
    format: Markup,
    /// Cut inside blocks at sentence ends first ([`crate::markdown::prose`]) instead of at
    /// the separators, and let paragraphs fill the chunk before them ([`super::pack`]).
    pub(super) sentence_cuts: bool,
}

/// The state of one chunking call.
pub(super) struct Run<'a> {
    pub(super) cfg: &'a MarkdownChunker,
    pub(super) text: &'a str,
    ascii: bool,
    length: Option<&'a dyn Length>,
    /// Code points before every multiple of [`STRIDE`] bytes, so that measuring a span in
    /// code points costs at most two short scans (sizes are asked for many times).
    chars_before: Vec<usize>,
}

const STRIDE: usize = 64;

/// Code points in `bytes` (UTF-8 lead bytes), valid on any byte range. Counted in `u8`
/// lanes over runs of at most 255 bytes, which the compiler turns into wide SIMD compares.
fn leads(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|run| {
            let n = run
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(b & 0xC0 != 0x80)));
            usize::from(n)
        })
        .sum()
}

fn is_line_kind(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Code | Kind::Table | Kind::Html | Kind::List | Kind::Quote
    )
}

/// Gives the labels pending at the end of `heads` (those after its last heading) the path
/// of the heading that follows them: a target or anchor belongs to the section it opens.
fn relabel(heads: &mut [(&Block, Arc<[String]>)], path: &Arc<[String]>) {
    for head in heads.iter_mut().rev() {
        if head.0.kind != Kind::Label {
            break;
        }
        head.1 = Arc::clone(path);
    }
}

/// The start of the line after the one at `pos` (or the end of the text).
fn line_after(text: &str, pos: usize) -> usize {
    memchr::memchr(b'\n', &text.as_bytes()[pos..]).map_or(text.len(), |i| pos + i + 1)
}

impl MarkdownChunker {
    /// A chunker for chunks of at most `max` (units of the length function), merging
    /// chunks under `min`; `separators` cut paragraphs too long for one chunk.
    pub fn new(max: usize, min: usize, separators: Vec<Separator>) -> Self {
        let config = SplitConfig {
            chunk_size: max.max(1),
            chunk_overlap: 0,
            keep: KeepSeparator::End,
            strip_whitespace: true,
        };
        Self {
            max: max.max(1),
            min,
            prose: Splitter::recursive(config, separators.clone()),
            seams: separators,
            overlap: 0,
            format: Markup::Markdown,
            sentence_cuts: false,
        }
    }

    /// The same chunker cutting inside blocks at sentence ends, then clause ends, lines,
    /// words, characters, in even pieces ([`crate::markdown::prose`]); the separators then
    /// only give the overlap its seams.
    #[must_use]
    pub fn with_sentence_cuts(mut self, on: bool) -> Self {
        self.sentence_cuts = on;
        self
    }

    /// The same chunker reading its texts as `format` (reStructuredText, AsciiDoc, plain).
    #[must_use]
    pub fn with_format(mut self, format: Markup) -> Self {
        self.format = format;
        self
    }

    /// The same chunker, starting each chunk with up to `overlap` of the tail of the one
    /// before it (see [`crate::markdown::overlap`]).
    #[must_use]
    pub fn with_overlap(mut self, overlap: usize) -> Self {
        self.overlap = overlap;
        self
    }

    /// Chunks `text`, measuring with `length` (code points when `None`).
    pub fn chunk(&self, text: &str, length: Option<&dyn Length>) -> Result<Vec<MdChunk>> {
        self.chunk_as(text, length, self.format)
    }

    /// The markup this chunker reads ([`Markup::Auto`]: each file's, by its suffix).
    pub fn markup(&self) -> Markup {
        self.format
    }

    /// [`MarkdownChunker::chunk`] reading `text` as `markup` (the CLI's choice by suffix).
    pub fn chunk_as(
        &self,
        text: &str,
        length: Option<&dyn Length>,
        markup: Markup,
    ) -> Result<Vec<MdChunk>> {
        Ok(self.grouped_as(text, length, None, markup)?.chunks)
    }

    /// Chunks `text` and, with `parent_size`, groups them into parents
    /// ([`crate::markdown::parent`]); parents are made before the overlap, and the first
    /// child of each gets none, so parents stay disjoint and hold their children whole.
    /// The text's [`Sections`] come along, to say what each chunk covers.
    pub fn chunk_grouped(
        &self,
        text: &str,
        length: Option<&dyn Length>,
        parent_size: Option<usize>,
    ) -> Result<Grouped> {
        self.grouped_as(text, length, parent_size, self.format)
    }

    fn grouped_as(
        &self,
        text: &str,
        length: Option<&dyn Length>,
        parent_size: Option<usize>,
        markup: Markup,
    ) -> Result<Grouped> {
        let ascii = text.is_ascii();
        let mut chars_before = Vec::new();
        if !ascii && length.is_none() {
            let mut total = 0;
            for block in text.as_bytes().chunks(STRIDE) {
                chars_before.push(total);
                total += leads(block);
            }
            chars_before.push(total);
        }
        let run = Run {
            cfg: self,
            text,
            ascii,
            length,
            chars_before,
        };
        let blocks = scan(markup, text);
        let sections = Sections::new(&blocks);
        let units = run.units(&blocks, &sections)?;
        let packed = run.pack(units)?;
        let mut chunks = run.merge_small(packed)?;
        if let Some(last) = chunks.last_mut() {
            last.cut = MdCut::End;
        }
        let parents = match parent_size {
            Some(size) => group(text, &chunks, size, length)?,
            None => Vec::new(),
        };
        let overlap = Overlap {
            text,
            blocks: &blocks,
            seams: &self.seams,
            max_tail: self.overlap,
            max: self.max,
        };
        let firsts: Vec<usize> = parents.iter().map(|p| p.children.start).collect();
        let fresh = |k: usize| firsts.binary_search(&k).is_ok();
        overlap.apply(&mut chunks, fresh, &mut |a, b| run.size(a, b))?;
        Ok(Grouped {
            chunks,
            parents,
            sections,
        })
    }
}

/// What one chunking call gives: the chunks, their parents (if asked for) and the text's
/// sections.
#[derive(Debug, Clone)]
pub struct Grouped {
    /// The chunks, in order.
    pub chunks: Vec<MdChunk>,
    /// Runs of chunks, with `parent_size`; else empty.
    pub parents: Vec<Parent>,
    /// The heading path of every part of the text.
    pub sections: Sections,
}

impl Run<'_> {
    pub(super) fn size(&self, a: usize, b: usize) -> Result<usize> {
        match self.length {
            Some(f) => f.length(&self.text[a..b]),
            None if self.ascii => Ok(b - a),
            None => Ok(self.chars_at(b) - self.chars_at(a)),
        }
    }

    fn chars_at(&self, pos: usize) -> usize {
        let k = pos / STRIDE;
        self.chars_before[k] + leads(&self.text.as_bytes()[k * STRIDE..pos])
    }

    fn units(&self, blocks: &[Block], sections: &Sections) -> Result<Vec<Unit>> {
        let mut out = Vec::new();
        // Pending headings and the path at each.
        let mut heads: Vec<(&Block, Arc<[String]>)> = Vec::new();
        // The path changes only at headings: built there, shared by the blocks under it.
        let mut path: Arc<[String]> = Arc::from([]);
        let mut heading_paths = sections.heading_paths().iter();
        let mut i = 0;
        while i < blocks.len() {
            let block = &blocks[i];
            i += 1;
            if block.kind == Kind::Label {
                heads.push((block, Arc::clone(&path)));
                continue;
            }
            if block.parts > 0 {
                // A container: whole when it fits, else its parts take its place.
                if let Some(unit) = self.whole(&heads, block, &path)? {
                    out.push(unit);
                    heads.clear();
                    i += block.parts;
                }
                continue;
            }
            if block.kind == Kind::Heading {
                if let Some(next) = heading_paths.next() {
                    path = Arc::clone(next);
                }
                relabel(&mut heads, &path);
                heads.push((block, Arc::clone(&path)));
                continue;
            }
            self.atom(&heads, block, &path, &mut out)?;
            heads.clear();
        }
        let mut tail = self.headings_alone(&heads)?;
        if heads.iter().all(|h| h.0.kind == Kind::Label) {
            // Labels that end the text have nothing to glue to: they are content.
            for u in &mut tail {
                u.heading_only = false;
            }
        }
        out.extend(tail);
        Ok(out)
    }

    fn headings_alone(&self, heads: &[(&Block, Arc<[String]>)]) -> Result<Vec<Unit>> {
        let mut out = Vec::new();
        for (block, path) in heads {
            let units = self.cut_prose(block.start, block.end, self.cfg.max, path)?;
            out.extend(units.into_iter().enumerate().map(|(k, mut u)| {
                u.heading = k == 0 && block.kind == Kind::Heading;
                u.heading_only = true;
                u
            }));
        }
        Ok(out)
    }

    fn atom(
        &self,
        heads: &[(&Block, Arc<[String]>)],
        block: &Block,
        path: &Arc<[String]>,
        out: &mut Vec<Unit>,
    ) -> Result<()> {
        let max = self.cfg.max;
        if heads.is_empty() && self.cfg.sentence_cuts && block.kind == Kind::Paragraph {
            let mut unit = Unit::new(block.start, block.end, path);
            unit.prose = true; // cut when packed, beside what comes before it
            out.push(unit);
            return Ok(());
        }
        if let Some(unit) = self.whole(heads, block, path)? {
            out.push(unit);
            return Ok(());
        }
        let start = heads.first().map_or(block.start, |h| h.0.start);
        if heads.is_empty() {
            out.extend(self.cut(block, max, max, path)?);
            return Ok(());
        }
        let budget = max.saturating_sub(self.size(start, block.start)?);
        if budget < max / 2 && heads.len() > 1 {
            // Too many heads for one chunk: those before the last heading go alone, and
            // the last heading (with the labels after it) still opens its text.
            let last = heads.iter().rposition(|h| h.0.kind == Kind::Heading);
            let k = last.filter(|&k| k > 0).unwrap_or(heads.len() - 1);
            out.extend(self.headings_alone(&heads[..k])?);
            return self.atom(&heads[k..], block, path, out);
        }
        let atomic = matches!(block.kind, Kind::Code | Kind::Table)
            && self.size(block.start, block.end)? <= max;
        if budget < max / 2 || atomic {
            out.extend(self.headings_alone(heads)?);
            out.extend(self.cut(block, max, max, path)?);
            return Ok(());
        }
        let mut pieces = self.cut(block, budget, max, path)?;
        let lines = matches!(block.kind, Kind::Code | Kind::Table);
        if lines && self.cuts_a_line(pieces[0].end, block.end)? {
            // The room beside the heads would cut a code line or row that fits a chunk.
            out.extend(self.headings_alone(heads)?);
            out.extend(self.cut(block, max, max, path)?);
            return Ok(());
        }
        if self.size(start, pieces[0].end)? > max {
            out.extend(self.headings_alone(heads)?);
        } else {
            pieces[0].start = start;
            pieces[0].heading = heads.iter().any(|h| h.0.kind == Kind::Heading);
            pieces[0].path = Arc::clone(&heads[0].1);
        }
        out.extend(pieces);
        Ok(())
    }

    /// Whether a piece ending at `at` ends inside a line of `text[..b]` that fits a chunk.
    fn cuts_a_line(&self, at: usize, b: usize) -> Result<bool> {
        let t = self.text;
        let ls = t[..at].rfind('\n').map_or(0, |i| i + 1);
        let nl = memchr::memchr(b'\n', &t.as_bytes()[at..b]).map_or(b, |i| at + i);
        let le = ls + t[ls..nl].trim_end_matches(is_py_space).len();
        Ok(ls < at && at < le && self.size(ls, le)? <= self.cfg.max)
    }

    /// The pending heads and `block` as one unit, if that fits a chunk.
    fn whole(
        &self,
        heads: &[(&Block, Arc<[String]>)],
        block: &Block,
        path: &Arc<[String]>,
    ) -> Result<Option<Unit>> {
        let start = heads.first().map_or(block.start, |h| h.0.start);
        if self.size(start, block.end)? > self.cfg.max {
            return Ok(None);
        }
        let mut unit = Unit::new(start, block.end, heads.first().map_or(path, |h| &h.1));
        unit.heading = heads.iter().any(|h| h.0.kind == Kind::Heading);
        if matches!(block.kind, Kind::Code | Kind::Table) {
            unit.cut = MdCut::Atomic;
        }
        Ok(Some(unit))
    }

    /// Pieces of a block too large for one chunk, the last ending with the block.
    fn cut(
        &self,
        block: &Block,
        first: usize,
        rest: usize,
        path: &Arc<[String]>,
    ) -> Result<Vec<Unit>> {
        let mut units = self.cut_block(block, first, rest, path)?;
        if let Some(last) = units.last_mut() {
            last.cut = MdCut::Block;
        }
        Ok(units)
    }

    fn cut_block(
        &self,
        block: &Block,
        first: usize,
        rest: usize,
        path: &Arc<[String]>,
    ) -> Result<Vec<Unit>> {
        let prose_like = matches!(block.kind, Kind::List | Kind::Quote) && self.cfg.sentence_cuts;
        if !is_line_kind(block.kind) || prose_like {
            return self.cut_prose_first(block.start, block.end, first, rest, path);
        }
        let (mut rest, mut header) = (rest, None);
        if block.kind == Kind::Table {
            let head = if block.head > 0 {
                block.head
            } else {
                // Markdown: the header row and the delimiter row.
                let delim = line_after(self.text, block.start);
                let rows = line_after(self.text, delim);
                delim + self.text[delim..rows].trim_end_matches(is_py_space).len()
            };
            let rows = line_after(self.text, head);
            let hdr = self.size(block.start, rows)?;
            if rows < block.end && hdr <= rest && rest - hdr >= rest / 2 {
                rest -= hdr;
                header = Some((block.start, head));
            }
        }
        let mut units = if block.kind == Kind::Code && self.cfg.sentence_cuts {
            self.sentence_cut(
                block.start,
                block.end,
                (first, rest),
                path,
                (true, MdCut::Block),
            )?
        } else {
            self.cut_lines(block.start, block.end, first, rest, path)?
        };
        for u in &mut units {
            if u.continuation {
                u.header = header;
            }
        }
        Ok(units)
    }

    /// Greedy groups of whole lines; a line is cut as prose only when it alone exceeds the
    /// chunk size: one that fits the size but not the budget (the room beside a heading or a
    /// repeated table header) is a piece alone, so no table row or code line that fits a
    /// chunk is ever cut.
    fn cut_lines(
        &self,
        a: usize,
        b: usize,
        first: usize,
        rest: usize,
        path: &Arc<[String]>,
    ) -> Result<Vec<Unit>> {
        let line = MdCut::Prose(Seam::Line);
        let mut pieces: Vec<(usize, usize, MdCut)> = Vec::new();
        let mut cur: Option<(usize, usize)> = None;
        let mut budget = first;
        let mut pos = a;
        while pos < b {
            let line_end =
                memchr::memchr(b'\n', &self.text.as_bytes()[pos..b]).map_or(b, |i| pos + i);
            let (ls, le) = (
                pos,
                pos + self.text[pos..line_end].trim_end_matches(is_py_space).len(),
            );
            pos = line_end + 1;
            if le == ls {
                continue; // blank lines are never a piece's first or last line
            }
            if let Some(c) = cur {
                if self.size(c.0, le)? <= budget {
                    cur = Some((c.0, le));
                    continue;
                }
                pieces.push((c.0, c.1, line));
                budget = rest;
            }
            if self.size(ls, le)? <= budget.max(self.cfg.max) {
                cur = Some((ls, le));
            } else {
                cur = None;
                for u in self.cut_prose_ending(ls, le, budget, path, line)? {
                    pieces.push((u.start, u.end, u.cut));
                }
                budget = rest;
            }
        }
        pieces.extend(cur.map(|(s, e)| (s, e, line)));
        Ok(pieces
            .into_iter()
            .enumerate()
            .map(|(k, (s, e, cut))| {
                let mut u = Unit::new(s, e, path);
                u.continuation = k > 0;
                u.cut = cut;
                u
            })
            .collect())
    }

    /// Like [`Run::cut_prose`] with a smaller budget for the first piece only (the room
    /// left beside a heading): the rest is cut again at the full budget, so a short first
    /// budget does not chop the whole paragraph small.
    fn cut_prose_first(
        &self,
        a: usize,
        b: usize,
        first: usize,
        rest: usize,
        path: &Arc<[String]>,
    ) -> Result<Vec<Unit>> {
        if self.cfg.sentence_cuts {
            return self.sentence_cut(a, b, (first, rest), path, (false, MdCut::Block));
        }
        let mut units = self.cut_prose(a, b, first, path)?;
        if first == rest || units.len() < 2 {
            return Ok(units);
        }
        let mut more = self.cut_prose(units[1].start, b, rest, path)?;
        for u in &mut more {
            u.continuation = true;
        }
        units.truncate(1);
        units.extend(more);
        Ok(units)
    }

    /// Sentence-first recursive splitting of `text[a..b]` into spans of `budget`.
    fn cut_prose(
        &self,
        a: usize,
        b: usize,
        budget: usize,
        path: &Arc<[String]>,
    ) -> Result<Vec<Unit>> {
        self.cut_prose_ending(a, b, budget, path, MdCut::Block)
    }

    /// [`Run::cut_prose`], the last piece marked `tail` (what follows the span).
    fn cut_prose_ending(
        &self,
        a: usize,
        b: usize,
        budget: usize,
        path: &Arc<[String]>,
        tail: MdCut,
    ) -> Result<Vec<Unit>> {
        if self.cfg.sentence_cuts {
            return self.sentence_cut(a, b, (budget, budget), path, (false, tail));
        }
        let (out, cuts) = self
            .cfg
            .prose
            .cuts_sized(budget, &self.text[a..b], self.length)?;
        Ok(out
            .chunks
            .iter()
            .zip(cuts)
            .enumerate()
            .map(|(k, (c, cut))| {
                let mut u = Unit::new(a + c.byte_start, a + c.byte_end, path);
                u.continuation = k > 0;
                u.cut = match cut {
                    Cut::Separator(i) => MdCut::Separator(i),
                    Cut::End => tail,
                };
                u
            })
            .collect())
    }

    /// Pieces of `text[a..b]` cut sentence-first ([`Prose`]; `code`: after blank lines,
    /// then lines), the first up to `caps.0`, the others up to `caps.1`.
    pub(super) fn sentence_cut(
        &self,
        a: usize,
        b: usize,
        caps: (usize, usize),
        path: &Arc<[String]>,
        (code, tail): (bool, MdCut),
    ) -> Result<Vec<Unit>> {
        let size = |s: usize, e: usize| self.size(s, e);
        let prose = Prose {
            text: self.text,
            size: &size,
            code,
        };
        let (pieces, whys) = prose.cut_why(a, b, caps.0, caps.1)?;
        Ok(pieces
            .into_iter()
            .zip(whys)
            .enumerate()
            .map(|(k, ((s, e), why))| {
                let mut u = Unit::new(s, e, path);
                u.continuation = k > 0;
                u.cut = why.map_or(tail, MdCut::Prose);
                u
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunker(max: usize, min: usize) -> MarkdownChunker {
        let seps = ["[.!?]+[ \\t\\n]+", "\\n", " ", ""]
            .iter()
            .map(|s| Separator::regex(s).unwrap())
            .collect();
        MarkdownChunker::new(max, min, seps)
    }

    fn texts(text: &str, max: usize, min: usize) -> Vec<&str> {
        let chunks = chunker(max, min).chunk(text, None).unwrap();
        chunks.iter().map(|c| &text[c.start..c.end]).collect()
    }

    #[test]
    fn headings_stay_with_text_and_paths_nest() {
        let text = "# A\n\nOne.\n\n## B\n\nTwo.\n";
        let chunks = chunker(20, 0).chunk(text, None).unwrap();
        let got: Vec<_> = chunks
            .iter()
            .map(|c| (&text[c.start..c.end], c.path.to_vec()))
            .collect();
        assert_eq!(got[0], ("# A\n\nOne.", vec!["A".to_owned()]));
        assert_eq!(
            got[1],
            ("## B\n\nTwo.", vec!["A".to_owned(), "B".to_owned()])
        );
    }

    #[test]
    fn oversize_table_repeats_header_budget() {
        let rows = "| 00 | xx |\n".repeat(20);
        let text = format!("| a | b |\n|---|---|\n{rows}");
        let chunks = chunker(60, 0).chunk(&text, None).unwrap();
        assert!(chunks.len() > 1);
        for c in &chunks[1..] {
            let (hs, he) = c.header.unwrap();
            assert_eq!(&text[hs..he], "| a | b |\n|---|---|");
            assert!(c.end - c.start + (he - hs) < 60);
        }
    }

    #[test]
    fn small_document_is_one_chunk() {
        assert_eq!(
            texts("# T\n\ntiny\n\n- a\n- b\n", 100, 50),
            ["# T\n\ntiny\n\n- a\n- b"]
        );
    }

    /// Parents ([`group`]) over this chunker's children cover them in order and fit.
    #[test]
    fn parents_cover_children_in_order_and_fit() {
        let text =
            "# A\n\none two three.\n\nfour five six.\n\n## B\n\nseven.\n\n# C\n\neight nine.\n";
        let seps = vec![
            Separator::regex("\\n").unwrap(),
            Separator::regex(" ").unwrap(),
        ];
        let kids = MarkdownChunker::new(20, 0, seps).chunk(text, None).unwrap();
        let parents = group(text, &kids, 40, None).unwrap();
        let mut next = 0;
        for p in &parents {
            assert_eq!(p.children.start, next);
            next = p.children.end;
            assert_eq!(p.start, kids[p.children.start].start);
            assert_eq!(p.end, kids[p.children.end - 1].end);
            assert!(p.children.len() == 1 || text[p.start..p.end].chars().count() <= 40);
        }
        assert_eq!(next, kids.len());
        assert!(parents.len() < kids.len());
    }
}
