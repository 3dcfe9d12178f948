//! Optional overlap for the Markdown chunker: a chunk may start with the tail of the chunk
//! before it, so a passage cut at a chunk boundary is whole in at least one chunk.
//!
//! The repeated tail starts at a seam of the chunk's separators, tried in order (sentence
//! ends, then lines, clauses, words with the presets; never mid-word, so the empty
//! separator is skipped and a long unspaced CJK clause may get no tail): the first kind of
//! seam that gives a tail of at most `overlap` (and a chunk of at most the maximum) wins,
//! and within it the longest such tail. A tail never crosses a heading (a section starts
//! fresh, and the heading path stays right), never starts inside a code block or table that
//! is whole in one chunk, and starts inside a cut one only at a line start. Chunks that
//! repeat a table header are sized for it and get no tail. Only starts move, so chunks stay
//! exact spans. Mirrored by `python/ferrochunk/reference/markdown/overlap.py`.

use crate::error::Result;
use crate::markdown::blocks::{Block, Kind};
use crate::markdown::chunk::MdChunk;
use crate::split::scan::{KeepSeparator, Separator};
use crate::text::is_py_space;

/// What the tails are cut by and sized to.
pub struct Overlap<'a> {
    /// The source text.
    pub text: &'a str,
    /// Its blocks, in order.
    pub blocks: &'a [Block],
    /// Seam kinds, most preferred first.
    pub seams: &'a [Separator],
    /// The largest tail.
    pub max_tail: usize,
    /// The largest chunk.
    pub max: usize,
}

/// Spans of the code blocks and tables that are whole in one chunk (`cut` false), or that
/// are not (`cut` true).
fn code_and_tables(blocks: &[Block], chunks: &[MdChunk], cut: bool) -> Vec<(usize, usize)> {
    let mut k = 0;
    let mut out = Vec::new();
    for b in blocks {
        if !matches!(b.kind, Kind::Code | Kind::Table) {
            continue;
        }
        while k < chunks.len() && chunks[k].end <= b.start {
            k += 1;
        }
        let whole = k < chunks.len() && chunks[k].start <= b.start && b.end <= chunks[k].end;
        if whole != cut {
            out.push((b.start, b.end));
        }
    }
    out
}

/// The span of `spans` (sorted, disjoint) that has `pos` strictly inside.
fn inside(spans: &[(usize, usize)], pos: usize) -> Option<(usize, usize)> {
    let k = spans.partition_point(|s| s.0 < pos);
    k.checked_sub(1)
        .map(|k| spans[k])
        .filter(|&(_, end)| pos < end)
}

impl Overlap<'_> {
    /// Moves the start of every chunk (but those for which `fresh` says no) back over the
    /// tail of its predecessor, measuring with `size`.
    pub fn apply(
        &self,
        chunks: &mut [MdChunk],
        fresh: impl Fn(usize) -> bool,
        size: &mut dyn FnMut(usize, usize) -> Result<usize>,
    ) -> Result<()> {
        if self.max_tail == 0 {
            return Ok(());
        }
        let whole = code_and_tables(self.blocks, chunks, false);
        let cut = code_and_tables(self.blocks, chunks, true);
        let headings: Vec<(usize, usize)> = self
            .blocks
            .iter()
            .filter(|b| b.kind == Kind::Heading)
            .map(|b| (b.start, b.end))
            .collect();
        // Backwards, so each predecessor still has its own start.
        for k in (1..chunks.len()).rev() {
            let (p, c) = (&chunks[k - 1], &chunks[k]);
            if fresh(k) || c.header.is_some() {
                continue;
            }
            let h = headings.partition_point(|h| h.0 < c.start);
            if headings.get(h).is_some_and(|h| h.0 == c.start) {
                continue; // a chunk that opens a section
            }
            let lo = h
                .checked_sub(1)
                .map_or(p.start, |h| headings[h].1.max(p.start));
            if lo >= p.end {
                continue;
            }
            let valid = |q: usize| self.valid(q, &whole, &cut);
            if let Some(q) = self.tail(lo, p.end, c.end, valid, size)? {
                chunks[k].start = q;
            }
        }
        Ok(())
    }

    /// Whether a tail may start at `q`: not inside a whole code block or table, and inside
    /// a cut one only at a line start.
    fn valid(&self, q: usize, whole: &[(usize, usize)], cut: &[(usize, usize)]) -> bool {
        if inside(whole, q).is_some() {
            return false;
        }
        inside(cut, q).is_none_or(|(start, _)| {
            let line = memchr::memrchr(b'\n', &self.text.as_bytes()[..q]).map_or(0, |i| i + 1);
            self.text.as_bytes()[line.max(start)..q]
                .iter()
                .all(|&b| b == b' ' || b == b'\t')
        })
    }

    /// The start of the longest tail of `text[lo..end]` for the chunk ending at `chunk_end`.
    fn tail(
        &self,
        lo: usize,
        end: usize,
        chunk_end: usize,
        valid: impl Fn(usize) -> bool,
        size: &mut dyn FnMut(usize, usize) -> Result<usize>,
    ) -> Result<Option<usize>> {
        let mut seams = Vec::new();
        for sep in self.seams.iter().filter(|s| !s.is_chars()) {
            seams.clear();
            sep.for_each_piece(self.text, lo, end, KeepSeparator::End, |_, e| {
                let q = self.skip_space(e, end);
                if q < end && seams.last() != Some(&q) && valid(q) {
                    seams.push(q);
                }
            });
            // Longest first fitting tail: walk back from the shortest while it fits.
            let mut best = None;
            for &q in seams.iter().rev() {
                if size(q, end)? > self.max_tail || size(q, chunk_end)? > self.max {
                    break;
                }
                best = Some(q);
            }
            if best.is_some() {
                return Ok(best);
            }
        }
        Ok(None)
    }

    /// The first non-whitespace position at or after `pos` (or `end`).
    fn skip_space(&self, pos: usize, end: usize) -> usize {
        self.text[pos..end]
            .char_indices()
            .find(|&(_, c)| !is_py_space(c))
            .map_or(end, |(i, _)| pos + i)
    }
}
