//! Packing units into chunks, so that chunks are full and cut at the best seam in reach.
//!
//! Units join the open chunk while the result fits. A paragraph too long for any chunk
//! (with the sentence cuts of the presets) is cut anyway, so its first sentences, as many
//! as fit, fill the open chunk when that chunk is less than nine tenths full; the rest is
//! cut at the full size ([`super::prose`]) and packed on. A paragraph that fits a chunk is
//! never cut to fill one: a whole paragraph is worth more than the room (measured in
//! `docs/markdown.md`, "Cut selection"). Then chunks under the minimum merge into a
//! neighbour when the result still fits.

use super::chunk::{MdChunk, MdCut};
use super::chunker::{Run, Unit};
use super::prose::Seam;
use crate::error::Result;
use crate::sentences::Boundaries;
use crate::text::is_py_space;

impl Run<'_> {
    pub(super) fn pack(&self, units: Vec<Unit>) -> Result<Vec<MdChunk>> {
        let mut out: Vec<MdChunk> = Vec::new();
        let mut cur: Option<MdChunk> = None;
        for u in units {
            if u.prose {
                for piece in self.fill(&mut cur, &u)? {
                    self.pack_one(&mut cur, piece, &mut out)?;
                }
            } else {
                self.pack_one(&mut cur, u, &mut out)?;
            }
        }
        out.extend(cur);
        Ok(out)
    }

    /// Adds `u` to the open chunk if it fits, else closes that chunk and opens one with `u`.
    fn pack_one(&self, cur: &mut Option<MdChunk>, u: Unit, out: &mut Vec<MdChunk>) -> Result<()> {
        if let Some(c) = cur.as_mut() {
            // Table pieces that repeat a header are sized for it: they stay alone.
            if (c.heading_only || !u.heading_only) && u.header.is_none() && c.header.is_none() {
                // A chunk of headings alone is never closed: it belongs to what follows.
                let closes = u.heading && !c.heading_only && self.chunk_size(c)? >= self.cfg.min;
                if !closes {
                    let grown = self.size(c.start, u.end)?;
                    if grown <= self.cfg.max {
                        c.end = u.end;
                        c.size = Some(grown);
                        c.heading_only = c.heading_only && u.heading_only;
                        c.cut = u.cut;
                        return Ok(());
                    }
                }
            }
        }
        out.extend(cur.take().map(|mut c| {
            if u.heading {
                c.cut = MdCut::Heading; // the heading opens the next chunk
            }
            c
        }));
        *cur = Some(MdChunk {
            start: u.start,
            end: u.end,
            path: u.path,
            continuation: u.continuation,
            header: u.header,
            heading_only: u.heading_only,
            size: None,
            cut: u.cut,
        });
        Ok(())
    }

    /// The paragraph `u` as units to pack: whole if it fits a chunk; else, when the open
    /// chunk is under nine tenths full, its first sentences join that chunk, and the rest is
    /// cut at the full size (every piece then a continuation).
    fn fill(&self, cur: &mut Option<MdChunk>, u: &Unit) -> Result<Vec<Unit>> {
        let max = self.cfg.max;
        if self.size(u.start, u.end)? <= max {
            let mut whole = u.clone();
            whole.prose = false;
            return Ok(vec![whole]); // never cut: it joins the open chunk or opens one
        }
        let mut start = u.start;
        if let Some(c) = cur.as_mut().filter(|c| c.header.is_none()) {
            // Nine tenths, exactly for any size (u128: no overflow near usize::MAX).
            if u128::from(self.chunk_size(c)? as u64) * 10 < u128::from(max as u64) * 9 {
                if let Some((end, rest)) = self.leading_sentences(c.start, u.start, u.end)? {
                    c.end = end;
                    c.size = None;
                    c.heading_only = false;
                    c.cut = MdCut::Prose(Seam::Sentence);
                    start = rest;
                }
            }
        }
        let mut pieces =
            self.sentence_cut(start, u.end, (max, max), &u.path, (false, MdCut::Block))?;
        if start > u.start {
            for p in &mut pieces {
                p.continuation = true;
            }
        }
        Ok(pieces)
    }

    /// The longest run of whole sentences opening `text[a..b]` that fits beside the chunk
    /// starting at `from`: where that chunk would end, and where the rest starts.
    fn leading_sentences(&self, from: usize, a: usize, b: usize) -> Result<Option<(usize, usize)>> {
        let mut best = None;
        // Lazily: only the sentences that fit are scanned (a paragraph may be megabytes of
        // one-line JSON; its rest is scanned again when cut). The last sentence, ending at
        // `b`, is never a boundary: the whole paragraph does not fit.
        for end in Boundaries::new(&self.text[a..b]).map(|e| a + e) {
            let kept = a + self.text[a..end].trim_end_matches(is_py_space).len();
            if kept == a || self.size(from, kept)? > self.cfg.max {
                break;
            }
            best = Some((kept, end));
        }
        Ok(best)
    }

    pub(super) fn merge_small(&self, chunks: Vec<MdChunk>) -> Result<Vec<MdChunk>> {
        let mut out: Vec<MdChunk> = Vec::with_capacity(chunks.len());
        for mut c in chunks {
            if let Some(p) = out.last_mut() {
                if (p.heading_only || !c.heading_only) && c.header.is_none() && p.header.is_none() {
                    let small = self.chunk_size(p)?.min(self.chunk_size(&mut c)?);
                    if small < self.cfg.min {
                        let merged = self.size(p.start, c.end)?;
                        if merged <= self.cfg.max {
                            p.end = c.end;
                            p.size = Some(merged);
                            p.heading_only = p.heading_only && c.heading_only;
                            p.cut = c.cut;
                            continue;
                        }
                    }
                }
            }
            out.push(c);
        }
        Ok(out)
    }

    /// The size of `c`, measured once.
    fn chunk_size(&self, c: &mut MdChunk) -> Result<usize> {
        if let Some(n) = c.size {
            return Ok(n);
        }
        let n = self.size(c.start, c.end)?;
        c.size = Some(n);
        Ok(n)
    }
}
