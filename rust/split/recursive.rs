//! Recursive separator splitting: LangChain's `RecursiveCharacterTextSplitter` and
//! `CharacterTextSplitter` algorithms on byte spans of the input.
//!
//! Every piece is a byte range of the source, so a chunk knows where it came from without
//! searching for its text afterwards. Only LangChain's drop-separator mode can produce text
//! that is not a source span (when empty pieces between separators were discarded); such a
//! chunk carries its own text in [`Chunk::joined`].

use super::merge::merge;
use super::scan::{KeepSeparator, Separator};
use crate::error::{Error, Result};
use crate::length::Length;
use crate::text::{char_count, strip_range};

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
    /// Start of the chunk in the source, in code points (Python string index).
    pub char_start: usize,
    /// End of the chunk in the source, in code points (exclusive).
    pub char_end: usize,
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
        self.split_with(&self.config, text, length)
    }

    /// [`Splitter::split`] at another chunk size (at least 1; the overlap is capped to it):
    /// one splitter, and the caches of its regexes, serve callers whose budget changes from
    /// call to call (cloning a regex would start it with empty caches).
    pub fn split_sized(
        &self,
        chunk_size: usize,
        text: &str,
        length: Option<&dyn Length>,
    ) -> Result<SplitOutput> {
        let chunk_size = chunk_size.max(1);
        let config = SplitConfig {
            chunk_size,
            chunk_overlap: self.config.chunk_overlap.min(chunk_size),
            ..self.config
        };
        self.split_with(&config, text, length)
    }

    fn split_with(
        &self,
        config: &SplitConfig,
        text: &str,
        length: Option<&dyn Length>,
    ) -> Result<SplitOutput> {
        let mut run = Run {
            text,
            config,
            length,
            ascii: text.is_ascii(),
            out: SplitOutput::default(),
            buffers: Vec::new(),
        };
        let whole = Piece {
            start: 0,
            end: text.len(),
            char_start: 0,
            chars: 0,
        };
        if self.recursive {
            run.recurse(whole, &self.separators)?;
        } else {
            let sep = &self.separators[0];
            let (mut pieces, mut lengths) = (Vec::new(), Vec::new());
            run.pieces(whole, sep, usize::MAX, &mut pieces, &mut lengths)?;
            run.merge(&pieces, &lengths, sep)?;
        }
        Ok(run.out)
    }
}

/// A piece of the source: its byte range and where it starts in code points, so chunk
/// offsets come out of the split itself instead of a second pass over the text.
#[derive(Debug, Clone, Copy)]
struct Piece {
    start: usize,
    end: usize,
    char_start: usize,
    chars: usize,
}

/// The state of one split call.
struct Run<'a> {
    text: &'a str,
    config: &'a SplitConfig,
    length: Option<&'a dyn Length>,
    ascii: bool,
    out: SplitOutput,
    /// Spare piece and length buffers, reused by [`Run::recurse`].
    buffers: Vec<(Vec<Piece>, Vec<usize>)>,
}

impl Run<'_> {
    /// Code points in `text[a..b]`.
    fn chars(&self, a: usize, b: usize) -> usize {
        if self.ascii {
            b - a
        } else {
            char_count(&self.text[a..b])
        }
    }

    /// The user's measure, or code points (already known as `chars`) by default; exact
    /// below `limit`, and only known to be at least `limit` above it.
    fn measure(&self, s: &str, chars: usize, limit: usize) -> Result<usize> {
        match self.length {
            Some(f) => f.length_until(s, limit),
            None => Ok(chars),
        }
    }

    /// Splits `parent` on `sep` into `pieces`, locating every piece in code points, and
    /// measures each into `lengths` (exactly below `limit`).
    fn pieces(
        &self,
        parent: Piece,
        sep: &Separator,
        limit: usize,
        pieces: &mut Vec<Piece>,
        lengths: &mut Vec<usize>,
    ) -> Result<()> {
        if sep.is_chars() {
            return self.char_pieces(parent, limit, pieces, lengths);
        }
        let (mut byte, mut chars) = (parent.start, parent.char_start);
        let mut failure = None;
        sep.for_each_piece(
            self.text,
            parent.start,
            parent.end,
            self.config.keep,
            |start, end| {
                // With separators kept, pieces are adjacent: no gap to count.
                let char_start = if byte < start {
                    chars + self.chars(byte, start)
                } else {
                    chars
                };
                let n = self.chars(start, end);
                match self.measure(&self.text[start..end], n, limit) {
                    Ok(length) => lengths.push(length),
                    Err(err) => {
                        failure.get_or_insert(err);
                        lengths.push(0);
                    }
                }
                pieces.push(Piece {
                    start,
                    end,
                    char_start,
                    chars: n,
                });
                (byte, chars) = (end, char_start + n);
            },
        );
        failure.map_or(Ok(()), Err)
    }

    /// The empty separator's pieces, one per character: their offsets are consecutive, so
    /// nothing needs counting (long CJK paragraphs without spaces end up here).
    fn char_pieces(
        &self,
        parent: Piece,
        limit: usize,
        pieces: &mut Vec<Piece>,
        lengths: &mut Vec<usize>,
    ) -> Result<()> {
        let hay = &self.text[parent.start..parent.end];
        for (i, (offset, c)) in hay.char_indices().enumerate() {
            let start = parent.start + offset;
            let end = start + c.len_utf8();
            lengths.push(self.measure(&self.text[start..end], 1, limit)?);
            pieces.push(Piece {
                start,
                end,
                char_start: parent.char_start + i,
                chars: 1,
            });
        }
        Ok(())
    }

    /// LangChain's `_split_text`: choose the first separator that occurs, split, keep the
    /// pieces that fit for merging, and recurse into the rest with the later separators.
    fn recurse(&mut self, parent: Piece, seps: &[Separator]) -> Result<()> {
        let (sep, rest) = choose(seps, &self.text[parent.start..parent.end]);
        // Buffers are reused across calls: one pair per recursion depth, not per piece.
        let (mut pieces, mut lengths) = self.buffers.pop().unwrap_or_default();
        // Pieces at or over the size are split further, so their exact length is not needed.
        self.pieces(
            parent,
            sep,
            self.config.chunk_size,
            &mut pieces,
            &mut lengths,
        )?;
        let mut first_good = 0; // pieces[first_good..i] fit and wait to be merged
        for (i, (&piece, &len)) in pieces.iter().zip(&lengths).enumerate() {
            if len < self.config.chunk_size {
                continue;
            }
            if first_good < i {
                self.merge(&pieces[first_good..i], &lengths[first_good..i], sep)?;
            }
            first_good = i + 1;
            if rest.is_empty() {
                self.push_span(piece, false);
            } else {
                self.recurse(piece, rest)?;
            }
        }
        if first_good < pieces.len() {
            self.merge(&pieces[first_good..], &lengths[first_good..], sep)?;
        }
        pieces.clear();
        lengths.clear();
        self.buffers.push((pieces, lengths));
        Ok(())
    }

    /// Merges fitting pieces into chunks, joined by nothing (separators kept) or by the
    /// separator's join text (separators dropped), then stripped as LangChain's `_join_docs`.
    fn merge(&mut self, pieces: &[Piece], lengths: &[usize], sep: &Separator) -> Result<()> {
        let join = if self.config.keep.keeps() {
            ""
        } else {
            sep.join_text()
        };
        let sep_len = self.measure(join, char_count(join), usize::MAX)?;
        let merged = merge(
            lengths,
            sep_len,
            self.config.chunk_size,
            self.config.chunk_overlap,
        );
        self.out.oversized.extend(merged.oversized);
        let gaps = GapIndex::new(self.text, pieces, join);
        for (lo, hi) in merged.groups {
            let (first, last) = (pieces[lo], pieces[hi - 1]);
            let span = Piece {
                start: first.start,
                end: last.end,
                char_start: first.char_start,
                chars: last.char_start + last.chars - first.char_start,
            };
            if gaps.is_contiguous(lo, hi) {
                self.push_span(span, self.config.strip_whitespace);
            } else {
                self.push_joined(&pieces[lo..hi], span, join);
            }
        }
        Ok(())
    }

    /// A source span as a chunk, stripped of Python whitespace if asked; empty ones vanish.
    fn push_span(&mut self, span: Piece, strip: bool) {
        let (mut a, mut b) = (span.start, span.end);
        let (mut char_start, mut char_end) = (span.char_start, span.char_start + span.chars);
        if strip {
            (a, b) = strip_range(self.text, a, b);
            if a == b {
                return;
            }
            char_start += self.chars(span.start, a);
            char_end -= self.chars(b, span.end);
        }
        self.out.chunks.push(Chunk {
            byte_start: a,
            byte_end: b,
            char_start,
            char_end,
            joined: None,
        });
    }

    /// A chunk whose text is not a source span: pieces re-joined with the separator. Its
    /// offsets are those of the source span the pieces cover.
    fn push_joined(&mut self, pieces: &[Piece], span: Piece, join: &str) {
        let mut joined = String::with_capacity(span.end - span.start);
        for (i, piece) in pieces.iter().enumerate() {
            if i > 0 {
                joined.push_str(join);
            }
            joined.push_str(&self.text[piece.start..piece.end]);
        }
        let (a, b) = if self.config.strip_whitespace {
            strip_range(&joined, 0, joined.len())
        } else {
            (0, joined.len())
        };
        if a < b {
            joined.truncate(b);
            joined.drain(..a);
            self.out.chunks.push(Chunk {
                byte_start: span.start,
                byte_end: span.end,
                char_start: span.char_start,
                char_end: span.char_start + span.chars,
                joined: Some(joined),
            });
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

/// Answers "does joining pieces `lo..hi` with the separator give exactly the source text
/// they span?" in O(1) per chunk: overlapping chunks share pieces, so each gap is checked
/// once, up front. With separators kept, pieces are adjacent and the answer is always yes.
struct GapIndex {
    /// `bad[k]`: how many of the first `k` gaps differ from the join text; empty if none can.
    bad: Vec<u32>,
}

impl GapIndex {
    fn new(text: &str, pieces: &[Piece], join: &str) -> Self {
        if join.is_empty() {
            return Self { bad: Vec::new() };
        }
        let mut bad = Vec::with_capacity(pieces.len());
        let mut count = 0u32;
        bad.push(0);
        for w in pieces.windows(2) {
            count += u32::from(&text[w[0].end..w[1].start] != join);
            bad.push(count);
        }
        Self { bad }
    }

    fn is_contiguous(&self, lo: usize, hi: usize) -> bool {
        self.bad.is_empty() || self.bad[hi - 1] == self.bad[lo]
    }
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
    fn char_offsets_agree_with_byte_offsets() {
        let text = "héllo wörld 漢字 and 😀 emoji\n\nnext   paragraph  ";
        for keep in [KeepSeparator::Start, KeepSeparator::End] {
            let config = SplitConfig::new(7, 3).unwrap().keep(keep);
            let out = Splitter::recursive(config, vec![])
                .split(text, None)
                .unwrap();
            let mut cursor = crate::text::CharCursor::new(text, false);
            for c in &out.chunks {
                assert_eq!(cursor.char_offset(c.byte_start), c.char_start);
                assert_eq!(cursor.char_offset(c.byte_end), c.char_end);
            }
        }
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

    const KEEPS: [KeepSeparator; 3] = [
        KeepSeparator::Drop,
        KeepSeparator::Start,
        KeepSeparator::End,
    ];
    const POOL: [&str; 8] = ["\n\n", "\n", " ", "", ".", "é", "😀", "ab"];

    fn unicode_text() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::string::string_regex(
            "(?s)(.|[ab \t\n.é😀漢]|\n\n|\r\n|[\u{1c}-\u{1f}\u{85}\u{3000}]){0,80}",
        )
        .unwrap()
    }

    proptest::proptest! {
        #[test]
        fn recursive_matches_langchain_transcription(
            text in unicode_text(),
            size in 1i64..30,
            overlap_frac in 0i64..=100,
            k in 0usize..3,
            strip in proptest::bool::ANY,
            picks in proptest::collection::vec(0usize..POOL.len(), 0..5),
        ) {
            let overlap = size * overlap_frac / 100;
            let seps: Vec<&str> = if picks.is_empty() {
                DEFAULT_SEPARATORS.to_vec()
            } else {
                picks.iter().map(|&i| POOL[i]).collect()
            };
            let config = SplitConfig::new(size, overlap)
                .unwrap()
                .keep(KEEPS[k])
                .strip(strip);
            let splitter =
                Splitter::recursive(config, seps.iter().map(|s| Separator::literal(s)).collect());
            let out = splitter.split(&text, None).unwrap();
            let (size, overlap) = (size.unsigned_abs() as usize, overlap.unsigned_abs() as usize);
            let cfg = crate::split::oracle::Cfg { size, overlap, keep: KEEPS[k], strip };
            proptest::prop_assert_eq!(texts(&out, &text), crate::split::oracle::recursive(&text, &seps, &cfg));
        }

        #[test]
        fn spans_are_exact_and_never_panic(
            text in unicode_text(),
            size in 1i64..2000,
            overlap_frac in 0i64..=100,
            k in 1usize..3,
            strip in proptest::bool::ANY,
            regex in proptest::sample::select(vec!["\\n+", "\\s", "[.。]", "é|😀", "(?:ab)+"]),
        ) {
            let overlap = size * overlap_frac / 100;
            let config = SplitConfig::new(size, overlap).unwrap().keep(KEEPS[k]).strip(strip);
            let seps = vec![Separator::regex(regex).unwrap(), Separator::literal("")];
            let out = Splitter::recursive(config, seps).split(&text, None).unwrap();
            for c in &out.chunks {
                let (start, end) = (c.char_start, c.char_end);
                proptest::prop_assert!(c.joined.is_none(), "kept separators give source spans");
                let piece = &text[c.byte_start..c.byte_end];
                proptest::prop_assert!(!piece.is_empty());
                proptest::prop_assert_eq!(text[..c.byte_start].chars().count(), start);
                proptest::prop_assert_eq!(piece.chars().count(), end - start);
            }
        }

        #[test]
        fn single_separator_never_panics(
            text in unicode_text(),
            size in 1i64..50,
            k in 0usize..3,
            sep in proptest::sample::select(POOL.to_vec()),
        ) {
            let config = SplitConfig::new(size, size / 2).unwrap().keep(KEEPS[k]);
            let out = Splitter::single(config, Separator::literal(sep)).split(&text, None).unwrap();
            for c in &out.chunks {
                proptest::prop_assert!(!c.text(&text).is_empty());
            }
        }
    }
}
