//! The recursive splitter as a state machine over a stream of text (see the folder's
//! module comment for what it keeps in memory and why).
//!
//! Given the top separator (from [`super::Chooser`]), text arrives in feeds and leaves as
//! chunks. Top-level pieces become final once the separator occurrence after them can no
//! longer change ([`Rule`]). Pieces under the chunk size join the merge run; LangChain's
//! merge only ever keeps its current window, so a long run is merged a prefix at a time:
//! every chunk but the last is final, and merging again from the first piece of that last
//! chunk reaches the same window (each prefix of it fits, so nothing is emitted on the
//! way). A piece at or over the size ends the run and is split alone with the separators
//! after the top one, by the core splitter, exactly as the recursion does.

use super::decode::Utf8Stream;
use super::rules::{floor_char, Rule};
use crate::error::Result;
use crate::length::Length;
use crate::split::merge::merge;
use crate::split::{Chunk, Separator, SplitConfig, Splitter};
use crate::text::{char_count, strip_range};

/// A merge run is merged and trimmed once it holds this many pieces or bytes.
const RUN_PIECES: usize = 4096;
const RUN_BYTES: usize = 1 << 20;

/// A top-level piece: absolute byte and code-point offsets, and its measured length.
#[derive(Debug, Clone, Copy)]
struct Piece {
    start: usize,
    end: usize,
    char_start: usize,
    chars: usize,
    len: usize,
}

/// Chunks made by one feed, with absolute offsets, and the sizes LangChain warns about.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Emitted {
    /// The chunks, in order; their text is [`StreamSplitter::text`] until the next feed.
    pub chunks: Vec<Chunk>,
    /// "Created a chunk of size …" totals, in the order logged.
    pub oversized: Vec<usize>,
}

/// `Splitter::recursive(config, seps).split(whole_text)`, fed in pieces.
#[derive(Debug)]
pub struct StreamSplitter {
    config: SplitConfig,
    top: Separator,
    rule: Rule,
    /// Splits pieces at or over the size with the separators after the top one.
    sub: Option<Splitter>,
    /// The text from absolute byte `base` on.
    buf: String,
    base: usize,
    /// Where the next piece starts (absolute bytes and code points).
    next: usize,
    next_chars: usize,
    /// No separator occurrence starts between `next` and this (absolute), from a search
    /// that found none: the next search resumes there.
    clean: usize,
    run: Vec<Piece>,
    run_bytes: usize,
    /// The run is merged a prefix at a time past this many pieces (doubled while a merge
    /// finds nothing to emit, as with a chunk size far above the pieces' sizes).
    run_limit: usize,
    /// Validates the bytes fed (a character may be cut between feeds).
    utf8: Utf8Stream,
}

impl StreamSplitter {
    /// A stream splitter whose top separator is `seps[top]` (from the chooser); `rules` are
    /// the separators' [`Rule`]s. Separators must be kept (`keep` start or end).
    pub fn new(config: SplitConfig, mut seps: Vec<Separator>, rule: Rule, top: usize) -> Self {
        assert!(config.keep.keeps(), "stream splitting keeps separators");
        let rest = if seps[top].is_chars() {
            Vec::new()
        } else {
            seps.split_off(top + 1)
        };
        let top_sep = seps.swap_remove(top);
        Self {
            config,
            top: top_sep,
            rule,
            sub: (!rest.is_empty()).then(|| Splitter::recursive(config, rest)),
            buf: String::new(),
            base: 0,
            next: 0,
            next_chars: 0,
            clean: 0,
            run: Vec::new(),
            run_bytes: 0,
            run_limit: RUN_PIECES,
            utf8: Utf8Stream::default(),
        }
    }

    /// The text of a chunk emitted by the last feed.
    pub fn text(&self, chunk: &Chunk) -> &str {
        &self.buf[chunk.byte_start - self.base..chunk.byte_end - self.base]
    }

    /// Takes the next bytes of UTF-8 text; returns the chunks now final.
    pub fn feed(&mut self, bytes: &[u8], length: Option<&dyn Length>) -> Result<Emitted> {
        self.compact();
        self.utf8.push(bytes, &mut self.buf)?;
        let mut out = Emitted::default();
        self.scan(false, length, &mut out)?;
        Ok(out)
    }

    /// Ends the text; returns the remaining chunks.
    pub fn finish(&mut self, length: Option<&dyn Length>) -> Result<Emitted> {
        self.compact();
        self.utf8.finish()?;
        let mut out = Emitted::default();
        self.scan(true, length, &mut out)?;
        self.flush(self.run.len(), length, &mut out)?;
        Ok(out)
    }

    /// Drops text no piece still needs (chunks of the last feed have been read).
    fn compact(&mut self) {
        let keep = self.run.first().map_or(self.next, |p| p.start);
        self.buf.drain(..keep - self.base);
        self.base = keep;
    }

    /// Finds the top-level pieces that are now final and hands each on.
    fn scan(&mut self, last: bool, length: Option<&dyn Length>, out: &mut Emitted) -> Result<()> {
        let from = self.next - self.base;
        let Some(cut) = (if last {
            Some(self.buf.len())
        } else {
            self.rule.cut(&self.buf, from)
        }) else {
            return Ok(());
        };
        // Resume the search just before where an occurrence may first start (none starts
        // between the piece's start and `clean`), so a long piece is not searched again.
        let clean = (self.clean - self.base).min(cut);
        let resume = if clean > from {
            floor_char(&self.buf, clean - 1).max(from)
        } else {
            from
        };
        let mut bounds = Vec::new();
        self.top
            .for_each_piece(&self.buf, resume, cut, self.config.keep, |_, b| {
                bounds.push(b);
            });
        let ends: Vec<usize> = if last || self.top.is_chars() {
            bounds
        } else {
            // The piece ending at the cut may still grow; for bounded regexes, so may any
            // whose boundary lies within a match length of the cut.
            let limit = cut.saturating_sub(self.rule.margin());
            bounds.pop();
            bounds.into_iter().filter(|&b| b <= limit).collect()
        };
        if ends.is_empty() && !last && !self.top.is_found(&self.buf[resume..cut]) {
            let clean = match self.rule {
                Rule::Literal(n) => cut.saturating_sub(n.saturating_sub(1)),
                Rule::Bounded(n) => cut.saturating_sub(n),
                Rule::Alphabet(_) => cut,
                Rule::Chars | Rule::Whole => from,
            };
            self.clean = self.base + floor_char(&self.buf, clean).max(from);
        }
        for end in ends {
            let start = self.next - self.base;
            let chars = char_count(&self.buf[start..end]);
            self.piece(start, end, chars, length, out)?;
        }
        Ok(())
    }

    /// One final top-level piece `buf[start..end]`: into the merge run, or split alone.
    fn piece(
        &mut self,
        start: usize,
        end: usize,
        chars: usize,
        length: Option<&dyn Length>,
        out: &mut Emitted,
    ) -> Result<()> {
        let size = self.config.chunk_size;
        let len = match length {
            Some(f) => f.length_until(&self.buf[start..end], size)?,
            None => chars,
        };
        let piece = Piece {
            start: self.base + start,
            end: self.base + end,
            char_start: self.next_chars,
            chars,
            len,
        };
        self.next = piece.end;
        self.next_chars += chars;
        self.clean = self.next;
        if len < size {
            self.run.push(piece);
            self.run_bytes += end - start;
            if self.run.len() >= self.run_limit
                || self.run_bytes >= RUN_BYTES * self.run_limit / RUN_PIECES
            {
                self.flush_prefix(length, out)?;
            }
            return Ok(());
        }
        self.flush(self.run.len(), length, out)?;
        match &self.sub {
            None => self.push_span(piece.start, piece.end, piece.char_start, chars, false, out),
            Some(sub) => {
                let text = &self.buf[start..end];
                let split = sub.split(text, length)?;
                out.oversized.extend(split.oversized);
                for c in split.chunks {
                    out.chunks.push(Chunk {
                        byte_start: piece.start + c.byte_start,
                        byte_end: piece.start + c.byte_end,
                        char_start: piece.char_start + c.char_start,
                        char_end: piece.char_start + c.char_end,
                        joined: None,
                    });
                }
            }
        }
        Ok(())
    }

    /// Merges the run and emits every chunk but the last, keeping the last one's pieces.
    fn flush_prefix(&mut self, length: Option<&dyn Length>, out: &mut Emitted) -> Result<()> {
        let lengths: Vec<usize> = self.run.iter().map(|p| p.len).collect();
        let merged = merge(
            &lengths,
            Self::sep_len(length)?,
            self.size(),
            self.overlap(),
        );
        out.oversized.extend(merged.oversized);
        let Some((&(keep, _), done)) = merged.groups.split_last() else {
            return Ok(());
        };
        self.run_limit = if keep == 0 {
            self.run_limit * 2
        } else {
            RUN_PIECES
        };
        for &(lo, hi) in done {
            self.push_group(lo, hi, out);
        }
        self.run.drain(..keep);
        self.run_bytes = self.run.iter().map(|p| p.end - p.start).sum();
        Ok(())
    }

    /// Merges the first `n` pieces of the run (all of it, as the run ends) and emits them.
    fn flush(&mut self, n: usize, length: Option<&dyn Length>, out: &mut Emitted) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let lengths: Vec<usize> = self.run[..n].iter().map(|p| p.len).collect();
        let merged = merge(
            &lengths,
            Self::sep_len(length)?,
            self.size(),
            self.overlap(),
        );
        out.oversized.extend(merged.oversized);
        for (lo, hi) in merged.groups {
            self.push_group(lo, hi, out);
        }
        self.run.drain(..n);
        self.run_bytes = 0;
        Ok(())
    }

    fn size(&self) -> usize {
        self.config.chunk_size
    }

    fn overlap(&self) -> usize {
        self.config.chunk_overlap
    }

    /// The length of the (empty) join text: kept separators join pieces with nothing.
    fn sep_len(length: Option<&dyn Length>) -> Result<usize> {
        match length {
            Some(f) => f.length_until("", usize::MAX),
            None => Ok(0),
        }
    }

    fn push_group(&self, lo: usize, hi: usize, out: &mut Emitted) {
        let (first, last) = (self.run[lo], self.run[hi - 1]);
        let chars = last.char_start + last.chars - first.char_start;
        let strip = self.config.strip_whitespace;
        self.push_span(first.start, last.end, first.char_start, chars, strip, out);
    }

    /// A source span as a chunk, stripped of Python whitespace if asked; empty ones vanish.
    fn push_span(
        &self,
        start: usize,
        end: usize,
        char_start: usize,
        chars: usize,
        strip: bool,
        out: &mut Emitted,
    ) {
        let (a, b) = (start - self.base, end - self.base);
        let (mut x, mut y) = (a, b);
        let (mut cs, mut ce) = (char_start, char_start + chars);
        if strip {
            (x, y) = strip_range(&self.buf, a, b);
            if x == y {
                return;
            }
            cs += char_count(&self.buf[a..x]);
            ce -= char_count(&self.buf[y..b]);
        }
        out.chunks.push(Chunk {
            byte_start: self.base + x,
            byte_end: self.base + y,
            char_start: cs,
            char_end: ce,
            joined: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::Chooser;
    use super::*;
    use crate::split::KeepSeparator;

    fn sep(p: &str, re: bool) -> Separator {
        if re {
            Separator::regex(p).unwrap()
        } else {
            Separator::literal(p)
        }
    }

    /// Chunks of `text` fed in parts of `step` bytes (split inside characters too).
    fn streamed(
        text: &str,
        specs: &[(&str, bool)],
        config: SplitConfig,
        step: usize,
    ) -> Vec<(usize, usize, usize, usize)> {
        let seps: Vec<Separator> = specs.iter().map(|&(p, r)| sep(p, r)).collect();
        let rules: Vec<Rule> = specs.iter().map(|&(p, r)| Rule::of(p, r)).collect();
        let mut chooser = Chooser::new(seps.clone(), rules.clone());
        let mut at = 0;
        while at < text.len() {
            let end = floor_char(text, at + step).max(at + 1);
            let end = (at + 1..=text.len())
                .find(|&e| e >= end && text.is_char_boundary(e))
                .unwrap_or(text.len());
            chooser.feed(&text[at..end]);
            at = end;
        }
        let top = chooser.finish();
        let mut stream = StreamSplitter::new(config, seps, rules[top].clone(), top);
        let mut got = Vec::new();
        let mut take = |e: Emitted, s: &StreamSplitter| {
            for c in &e.chunks {
                assert_eq!(s.text(c), &text[c.byte_start..c.byte_end]);
                got.push((c.byte_start, c.byte_end, c.char_start, c.char_end));
            }
        };
        for part in text.as_bytes().chunks(step) {
            let e = stream.feed(part, None).unwrap();
            take(e, &stream);
        }
        let e = stream.finish(None).unwrap();
        take(e, &stream);
        got
    }

    fn whole(
        text: &str,
        specs: &[(&str, bool)],
        config: SplitConfig,
    ) -> Vec<(usize, usize, usize, usize)> {
        let seps = specs.iter().map(|&(p, r)| sep(p, r)).collect();
        let out = Splitter::recursive(config, seps).split(text, None).unwrap();
        out.chunks
            .iter()
            .map(|c| (c.byte_start, c.byte_end, c.char_start, c.char_end))
            .collect()
    }

    const SPECS: [&[(&str, bool)]; 4] = [
        &[("\n\n", false), ("\n", false), (" ", false), ("", false)],
        &[
            ("\r\n\r\n", false),
            ("\r\n", false),
            (" ", false),
            ("", false),
        ],
        &[
            ("[.!?]+[ \\n]+", true),
            ("\\n+", true),
            (" ", false),
            ("", false),
        ],
        &[("é😀", false), ("ab", true), ("", false)],
    ];

    proptest::proptest! {
        #[test]
        fn stream_equals_whole(
            text in "(?s)(.|[ab .!?é😀漢]|\n\n|\r\n|\n){0,200}",
            size in 1i64..40,
            overlap_frac in 0i64..=100,
            k in 0usize..4,
            keep_end in proptest::bool::ANY,
            strip in proptest::bool::ANY,
            step in 1usize..20,
        ) {
            let overlap = size * overlap_frac / 100;
            let keep = if keep_end { KeepSeparator::End } else { KeepSeparator::Start };
            let config = SplitConfig::new(size, overlap).unwrap().keep(keep).strip(strip);
            proptest::prop_assert_eq!(streamed(&text, SPECS[k], config, step), whole(&text, SPECS[k], config));
        }
    }

    #[test]
    fn long_runs_are_merged_a_prefix_at_a_time() {
        let text = "word. ".repeat(3000) + "\n\n" + &"x ".repeat(5000);
        let config = SplitConfig::new(50, 20).unwrap();
        assert_eq!(
            streamed(&text, SPECS[0], config, 97),
            whole(&text, SPECS[0], config)
        );
        assert_eq!(
            streamed(&text, SPECS[2], config, 4096),
            whole(&text, SPECS[2], config)
        );
    }
}
