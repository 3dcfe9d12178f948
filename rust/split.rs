//! Recursive separator splitting: LangChain's `RecursiveCharacterTextSplitter` and
//! `CharacterTextSplitter` algorithms on byte spans of the input.
//!
//! Every piece is a byte range of the source, so a chunk knows where it came from without
//! searching for its text afterwards. Only LangChain's drop-separator mode can produce text
//! that is not a source span (when empty pieces between separators were discarded); such a
//! chunk carries its own text in [`Chunk::joined`].

use crate::error::{Error, Result};
use crate::merge::merge;
use crate::scan::{KeepSeparator, Separator};
use crate::text::{char_count, strip_range, CharCursor};

/// Measures text the way the user's `length_function` does; the default is code points.
pub trait Length {
    /// The length of `text`; errors abort the split.
    fn length(&self, text: &str) -> Result<usize>;

    /// The length of `text`, or any value above `limit` once it is known to exceed it: lets
    /// token counters stop early on pieces that will be split further anyway.
    fn length_until(&self, text: &str, limit: usize) -> Result<usize> {
        let _ = limit;
        self.length(text)
    }
}

/// Sizes and modes shared by all splitters, validated as LangChain validates them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitConfig {
    /// Maximum chunk length (strict: a piece must be shorter to count as fitting).
    pub chunk_size: usize,
    /// How much of the previous chunk the next one may repeat.
    pub chunk_overlap: usize,
    /// Where separators go.
    pub keep: KeepSeparator,
    /// Whether merged chunks are stripped of Python whitespace.
    pub strip_whitespace: bool,
}

impl SplitConfig {
    /// Validates sizes in LangChain's order and with its messages.
    pub fn new(chunk_size: i64, chunk_overlap: i64) -> Result<Self> {
        if chunk_size <= 0 {
            return Err(Error::ChunkSize(chunk_size));
        }
        if chunk_overlap < 0 {
            return Err(Error::NegativeOverlap(chunk_overlap));
        }
        let (size, overlap) = (
            chunk_size.unsigned_abs() as usize,
            chunk_overlap.unsigned_abs() as usize,
        );
        if overlap > size {
            return Err(Error::OverlapTooLarge { overlap, size });
        }
        Ok(Self {
            chunk_size: size,
            chunk_overlap: overlap,
            keep: KeepSeparator::Start,
            strip_whitespace: true,
        })
    }

    /// The same configuration with another separator placement.
    #[must_use]
    pub fn keep(mut self, keep: KeepSeparator) -> Self {
        self.keep = keep;
        self
    }

    /// The same configuration with stripping turned on or off.
    #[must_use]
    pub fn strip(mut self, strip: bool) -> Self {
        self.strip_whitespace = strip;
        self
    }
}

/// One chunk: a byte range of the source, or (drop-separator mode only) re-joined text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Start of the chunk in the source, in bytes.
    pub byte_start: usize,
    /// End of the chunk in the source, in bytes (exclusive).
    pub byte_end: usize,
    /// The chunk's text when it differs from `source[byte_start..byte_end]`.
    pub joined: Option<String>,
}

impl Chunk {
    /// The chunk's text.
    pub fn text<'a>(&'a self, source: &'a str) -> &'a str {
        self.joined
            .as_deref()
            .unwrap_or(&source[self.byte_start..self.byte_end])
    }
}

/// Chunks in document order plus the sizes LangChain would have warned about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SplitOutput {
    /// The chunks, in the order LangChain returns them.
    pub chunks: Vec<Chunk>,
    /// Sizes of over-long chunks ("Created a chunk of size …"), in the order logged.
    pub oversized: Vec<usize>,
}

impl SplitOutput {
    /// Code-point `(start, end)` of every chunk, computed from the byte offsets.
    pub fn char_spans(&self, source: &str) -> Vec<(usize, usize)> {
        let ascii = source.is_ascii();
        let (mut starts, mut ends) = (
            CharCursor::new(source, ascii),
            CharCursor::new(source, ascii),
        );
        self.chunks
            .iter()
            .map(|c| {
                (
                    starts.char_offset(c.byte_start),
                    ends.char_offset(c.byte_end),
                )
            })
            .collect()
    }
}

/// A configured splitter: recursive over a list of separators, or a single separator.
#[derive(Debug, Clone)]
pub struct Splitter {
    config: SplitConfig,
    separators: Vec<Separator>,
    recursive: bool,
}

/// LangChain's default separators: paragraph, line, word, character.
pub const DEFAULT_SEPARATORS: [&str; 4] = ["\n\n", "\n", " ", ""];

impl Splitter {
    /// `RecursiveCharacterTextSplitter`: the first separator found splits; pieces still too
    /// long are split again with the separators after it. No separators means the defaults.
    pub fn recursive(config: SplitConfig, separators: Vec<Separator>) -> Self {
        let separators = if separators.is_empty() {
            DEFAULT_SEPARATORS
                .iter()
                .map(|s| Separator::literal(s))
                .collect()
        } else {
            separators
        };
        Self {
            config,
            separators,
            recursive: true,
        }
    }

    /// `CharacterTextSplitter`: one separator, pieces merged, no recursion.
    pub fn single(config: SplitConfig, separator: Separator) -> Self {
        Self {
            config,
            separators: vec![separator],
            recursive: false,
        }
    }

    /// The configuration this splitter was built with.
    pub fn config(&self) -> &SplitConfig {
        &self.config
    }

    /// Splits `text`, measuring with `length` (code points when `None`).
    pub fn split(&self, text: &str, length: Option<&dyn Length>) -> Result<SplitOutput> {
        let mut run = Run {
            text,
            config: &self.config,
            length,
            ascii: text.is_ascii(),
            out: SplitOutput::default(),
        };
        if self.recursive {
            run.recurse(0, text.len(), &self.separators)?;
        } else {
            let sep = &self.separators[0];
            let mut pieces = Vec::new();
            sep.split(text, 0, text.len(), self.config.keep, &mut pieces);
            let lengths = run.lengths(&pieces)?;
            run.merge(&pieces, &lengths, sep)?;
        }
        Ok(run.out)
    }
}

/// The state of one split call.
struct Run<'a> {
    text: &'a str,
    config: &'a SplitConfig,
    length: Option<&'a dyn Length>,
    ascii: bool,
    out: SplitOutput,
}

impl Run<'_> {
    fn len(&self, s: &str) -> Result<usize> {
        match self.length {
            Some(f) => f.length(s),
            None if self.ascii => Ok(s.len()),
            None => Ok(char_count(s)),
        }
    }

    /// The length if below `limit`, else any value >= `limit`.
    fn len_until(&self, s: &str, limit: usize) -> Result<usize> {
        match self.length {
            Some(f) => f.length_until(s, limit),
            None => self.len(s),
        }
    }

    fn lengths(&self, pieces: &[(usize, usize)]) -> Result<Vec<usize>> {
        pieces
            .iter()
            .map(|&(a, b)| self.len(&self.text[a..b]))
            .collect()
    }

    /// LangChain's `_split_text`: choose the first separator that occurs, split, keep the
    /// pieces that fit for merging, and recurse into the rest with the later separators.
    fn recurse(&mut self, start: usize, end: usize, seps: &[Separator]) -> Result<()> {
        let (sep, rest) = choose(seps, &self.text[start..end]);
        let mut pieces = Vec::new();
        sep.split(self.text, start, end, self.config.keep, &mut pieces);
        let (mut good, mut good_lens) = (Vec::new(), Vec::new());
        for piece in pieces {
            let len = self.len_until(&self.text[piece.0..piece.1], self.config.chunk_size)?;
            if len < self.config.chunk_size {
                good.push(piece);
                good_lens.push(len);
                continue;
            }
            if !good.is_empty() {
                self.merge(&good, &good_lens, sep)?;
                good.clear();
                good_lens.clear();
            }
            if rest.is_empty() {
                self.push_span(piece.0, piece.1);
            } else {
                self.recurse(piece.0, piece.1, rest)?;
            }
        }
        if !good.is_empty() {
            self.merge(&good, &good_lens, sep)?;
        }
        Ok(())
    }

    /// Merges fitting pieces into chunks, joined by nothing (separators kept) or by the
    /// separator's join text (separators dropped), then stripped as LangChain's `_join_docs`.
    fn merge(
        &mut self,
        pieces: &[(usize, usize)],
        lengths: &[usize],
        sep: &Separator,
    ) -> Result<()> {
        let join = if self.config.keep.keeps() {
            ""
        } else {
            sep.join_text()
        };
        let sep_len = self.len(join)?;
        let merged = merge(
            lengths,
            sep_len,
            self.config.chunk_size,
            self.config.chunk_overlap,
        );
        self.out.oversized.extend(merged.oversized);
        for (lo, hi) in merged.groups {
            self.push_joined(&pieces[lo..hi], join);
        }
        Ok(())
    }

    /// A piece too long to split further, kept as is (LangChain does not strip these).
    fn push_span(&mut self, start: usize, end: usize) {
        self.out.chunks.push(Chunk {
            byte_start: start,
            byte_end: end,
            joined: None,
        });
    }

    fn push_joined(&mut self, pieces: &[(usize, usize)], join: &str) {
        let (start, end) = (pieces[0].0, pieces[pieces.len() - 1].1);
        if is_contiguous(self.text, pieces, join) {
            let (a, b) = self.stripped(start, end);
            if a < b {
                self.push_span(a, b);
            }
            return;
        }
        let mut joined = String::with_capacity(end - start);
        for (i, &(a, b)) in pieces.iter().enumerate() {
            if i > 0 {
                joined.push_str(join);
            }
            joined.push_str(&self.text[a..b]);
        }
        let (a, b) = self.stripped_in(&joined);
        if a < b {
            joined.truncate(b);
            joined.drain(..a);
            self.out.chunks.push(Chunk {
                byte_start: start,
                byte_end: end,
                joined: Some(joined),
            });
        }
    }

    fn stripped(&self, start: usize, end: usize) -> (usize, usize) {
        if self.config.strip_whitespace {
            strip_range(self.text, start, end)
        } else {
            (start, end)
        }
    }

    fn stripped_in(&self, s: &str) -> (usize, usize) {
        if self.config.strip_whitespace {
            strip_range(s, 0, s.len())
        } else {
            (0, s.len())
        }
    }
}

/// The separator LangChain picks for `hay`: the first that occurs (the empty separator
/// always does), with the separators after it for recursion; else the last, alone.
fn choose<'s>(seps: &'s [Separator], hay: &str) -> (&'s Separator, &'s [Separator]) {
    for (i, sep) in seps.iter().enumerate() {
        if sep.is_chars() {
            return (sep, &[]);
        }
        if sep.is_found(hay) {
            return (sep, &seps[i + 1..]);
        }
    }
    (&seps[seps.len() - 1], &[])
}

/// Whether joining `pieces` with `join` gives exactly the source text they span.
fn is_contiguous(text: &str, pieces: &[(usize, usize)], join: &str) -> bool {
    pieces.windows(2).all(|w| &text[w[0].1..w[1].0] == join)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(out: &SplitOutput, text: &str) -> Vec<String> {
        out.chunks.iter().map(|c| c.text(text).to_owned()).collect()
    }

    #[track_caller]
    fn recursive(text: &str, size: i64, overlap: i64, keep: KeepSeparator) -> Vec<String> {
        let config = SplitConfig::new(size, overlap).unwrap().keep(keep);
        let out = Splitter::recursive(config, vec![])
            .split(text, None)
            .unwrap();
        texts(&out, text)
    }

    #[test]
    fn langchain_docs_example() {
        // Output checked by hand against the algorithm: words merged up to 10 characters.
        let text = "Hi.\n\nI'm Harrison.\n\nHow? Are? You?\nOkay then f f f f.";
        let got = recursive(text, 10, 1, KeepSeparator::Start);
        assert!(got.iter().all(|c| c.chars().count() <= 10), "{got:?}");
        assert_eq!(got[0], "Hi.");
        assert!(got.iter().any(|c| c == "Harrison."));
    }

    #[test]
    fn drop_mode_rejoins_across_discarded_empty_pieces() {
        let config = SplitConfig::new(100, 0).unwrap().keep(KeepSeparator::Drop);
        let splitter = Splitter::single(config, Separator::literal("\n\n"));
        let text = "a\n\n\n\nb";
        let out = splitter.split(text, None).unwrap();
        assert_eq!(texts(&out, text), ["a\n\nb"]);
        assert!(out.chunks[0].joined.is_some());
    }

    #[test]
    fn validation_order_and_messages() {
        assert_eq!(SplitConfig::new(0, 0), Err(Error::ChunkSize(0)));
        assert_eq!(SplitConfig::new(5, -1), Err(Error::NegativeOverlap(-1)));
        assert_eq!(
            SplitConfig::new(5, 6).unwrap_err().to_string(),
            "Got a larger chunk overlap (6) than chunk size (5), should be smaller."
        );
    }

    #[test]
    fn oversized_pieces_are_reported() {
        let config = SplitConfig::new(3, 0).unwrap();
        let splitter = Splitter::single(config, Separator::literal(" "));
        let out = splitter.split("abcdef g", None).unwrap();
        assert_eq!(out.oversized, vec![6]);
    }
}
