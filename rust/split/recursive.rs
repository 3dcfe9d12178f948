//! Recursive separator splitting: LangChain's `RecursiveCharacterTextSplitter` and
//! `CharacterTextSplitter` algorithms on positions of the input.
//!
//! One algorithm for every text storage ([`Units`]): UTF-8 for Rust callers and the CLI,
//! and CPython's own Latin-1/UCS-2/UCS-4 for Python strings, which are split where they
//! lie. Pieces are positions streamed from the scan straight into LangChain's merge
//! ([`Window`]), which keeps only the current window; nothing holds a list of all pieces.
//! The empty separator with code-point lengths (every piece one character long) needs no
//! pieces at all: its chunks are windows of characters, found by arithmetic.
//!
//! Every chunk is a range of the source, so it knows where it came from without searching
//! for its text afterwards. Only LangChain's drop-separator mode can produce text that is
//! not a source range (when empty pieces between separators were discarded); such a chunk
//! carries its own text in [`Span::joined`].

use super::cuts::{Cut, Level};
use super::merge::{Item, Report, Sizes, Window};
use super::scan::{KeepSeparator, Separator};
use crate::error::{Error, Result};
use crate::length::Length;
use crate::text::{is_py_space, strip_range};
use crate::units::{Offsets, Units, Utf8};

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

/// One chunk in positions of the text it was split from (see [`Units`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// Start position.
    pub start: usize,
    /// End position (exclusive).
    pub end: usize,
    /// The chunk's text (UTF-8) when it is not the source range `start..end`.
    pub joined: Option<String>,
}

/// [`Span`]s in document order plus the sizes LangChain would have warned about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpanOutput {
    /// The chunks, in the order LangChain returns them.
    pub spans: Vec<Span>,
    /// Sizes of over-long chunks ("Created a chunk of size …"), in the order logged.
    pub oversized: Vec<usize>,
    /// Why each span ends where it does, one per span, when asked for
    /// ([`Splitter::cuts_units`]); else empty.
    pub cuts: Vec<Cut>,
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

    /// Whether every separator is a literal (no regex).
    pub fn literal_only(&self) -> bool {
        self.separators.iter().all(|sep| !sep.is_regex())
    }

    /// Splits `text`, measuring with `length` (code points when `None`).
    pub fn split(&self, text: &str, length: Option<&dyn Length>) -> Result<SplitOutput> {
        let out = self.split_with(&self.config, Utf8(text), length, false)?;
        Ok(with_offsets(Utf8(text), out))
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
        let out = self.split_with(&config, Utf8(text), length, false)?;
        Ok(with_offsets(Utf8(text), out))
    }

    /// [`Splitter::split_sized`] and why each chunk ends where it does ([`Splitter::cuts`]).
    pub fn cuts_sized(
        &self,
        chunk_size: usize,
        text: &str,
        length: Option<&dyn Length>,
    ) -> Result<(SplitOutput, Vec<Cut>)> {
        let chunk_size = chunk_size.max(1);
        let config = SplitConfig {
            chunk_size,
            chunk_overlap: self.config.chunk_overlap.min(chunk_size),
            ..self.config
        };
        let mut out = self.split_with(&config, Utf8(text), length, true)?;
        let cuts = std::mem::take(&mut out.cuts);
        Ok((with_offsets(Utf8(text), out), cuts))
    }

    /// Whether [`Splitter::split_units`] without a length returns `text` as one chunk
    /// without scanning it (see [`fits_whole`]): no work a caller need hand to another
    /// thread.
    pub fn takes_whole<'a, T: Units<'a>>(&self, text: T) -> bool {
        fits_whole(&self.config, text, None)
    }

    /// Splits text in any storage; chunks come back as positions of it.
    pub fn split_units<'a, T: Units<'a>>(
        &self,
        text: T,
        length: Option<&dyn Length>,
    ) -> Result<SpanOutput> {
        self.split_with(&self.config, text, length, false)
    }

    /// [`Splitter::split_units`] with [`SpanOutput::cuts`] filled: why each chunk ends
    /// where it does (see [`super::cuts`]).
    pub fn cuts_units<'a, T: Units<'a>>(
        &self,
        text: T,
        length: Option<&dyn Length>,
    ) -> Result<SpanOutput> {
        self.split_with(&self.config, text, length, true)
    }

    /// Why each chunk of [`Splitter::split`] ends where it does, one per chunk.
    pub fn cuts(&self, text: &str, length: Option<&dyn Length>) -> Result<Vec<Cut>> {
        Ok(self.cuts_units(Utf8(text), length)?.cuts)
    }

    /// The separators, in the order they are tried ([`Cut::Separator`] indexes them).
    pub fn separators(&self) -> &[Separator] {
        &self.separators
    }

    fn split_with<'a, T: Units<'a>>(
        &self,
        config: &SplitConfig,
        text: T,
        length: Option<&dyn Length>,
        record: bool,
    ) -> Result<SpanOutput> {
        // Chunks step by at least `chunk_size - chunk_overlap` code points when code points
        // measure: room for all of them up front (capped, in case a length measures more).
        let step = (config.chunk_size - config.chunk_overlap).max(1);
        let spans = Vec::with_capacity((text.len() / step + 2).min(1 << 16));
        let mut run = Run {
            text,
            config,
            length,
            scratch: String::new(),
            out: SpanOutput {
                spans,
                oversized: Vec::new(),
                cuts: Vec::new(),
            },
            windows: SPARE_WINDOWS.with_borrow_mut(std::mem::take),
            separators: self.separators.len(),
            level: Level::top(text.len()),
            record,
        };
        let result = if fits_whole(config, text, length) {
            run.push_span(0, text.len(), config.strip_whitespace);
            Ok(())
        } else if self.recursive {
            run.recurse(0, text.len(), &self.separators)
        } else {
            run.level = run.level.deeper(text.len(), 0);
            run.single(&self.separators[0])
        };
        SPARE_WINDOWS.with_borrow_mut(|spare| *spare = std::mem::take(&mut run.windows));
        result.map(|()| run.out)
    }
}

/// Whether `text` is one chunk without looking at it: shorter than the chunk size in code
/// points (or, for a length that counts at most a token per byte, in UTF-8 bytes, and with
/// nothing in it that the length would fail on), with separators kept. Every piece then
/// fits, the pieces' lengths add up to at most the text's and the join text is empty (its
/// length 0), so LangChain's merge puts them all back into one chunk, the text itself
/// (stripped if asked), in either splitter. A document shorter than the chunk size is
/// common (rows, messages, short pages), and it was otherwise cut at every space, each
/// piece measured (in tokens: merged), and merged again. Not for other lengths (their
/// pieces need not add up), nor when separators are dropped (the join re-inserts one where
/// empty pieces were left out), nor at the size itself (a single piece of that length is
/// kept unstripped when no separator is left).
fn fits_whole<'a, T: Units<'a>>(
    config: &SplitConfig,
    text: T,
    length: Option<&dyn Length>,
) -> bool {
    let (len, size) = (text.len(), config.chunk_size);
    // A code point is at most four units (UTF-8 bytes): a longer text is not counted.
    if !config.keep.keeps() || len / 4 >= size {
        return false;
    }
    match length {
        None => text.chars(0, len) < size,
        Some(length) => text
            .as_str(0, len)
            .is_some_and(|s| s.len() < size && length.within_bytes(s)),
    }
}

/// Spans of `text` as chunks with both kinds of offsets.
fn with_offsets<'a, T: Units<'a>>(text: T, out: SpanOutput) -> SplitOutput {
    let mut offsets = Offsets::new(text);
    let chunks = out
        .spans
        .into_iter()
        .map(|span| {
            let (char_start, byte_start) = offsets.of(span.start);
            let (char_end, byte_end) = offsets.of(span.end);
            Chunk {
                byte_start,
                byte_end,
                char_start,
                char_end,
                joined: span.joined,
            }
        })
        .collect();
    SplitOutput {
        chunks,
        oversized: out.oversized,
    }
}

thread_local! {
    /// Merge windows (and the memory their queues grew) kept between calls on this thread:
    /// a document of a few kB splits in microseconds, and allocating a queue per recursion
    /// depth per call was a visible part of that. Each window is empty when put back.
    static SPARE_WINDOWS: std::cell::RefCell<Vec<Window>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The state of one split call.
struct Run<'r, T> {
    text: T,
    config: &'r SplitConfig,
    length: Option<&'r dyn Length>,
    /// Where a piece is transcoded to UTF-8 for a length function, when it is not UTF-8.
    scratch: String,
    out: SpanOutput,
    /// Spare merge windows, one per recursion depth, reused across calls.
    windows: Vec<Window>,
    /// How many separators the splitter has (to index the ones a recursion step gets).
    separators: usize,
    /// The gaps of the range being split, for [`SpanOutput::cuts`].
    level: Level,
    /// Whether [`SpanOutput::cuts`] is filled.
    record: bool,
}

impl<'a, T: Units<'a>> Run<'_, T> {
    /// The length of `[a, b)`: code points by default, else the user's measure, exact
    /// below `limit` and only known to be at least `limit` above it.
    fn measure(&mut self, a: usize, b: usize, limit: usize) -> Result<usize> {
        match self.length {
            None => Ok(self.text.chars(a, b)),
            Some(f) => f.length_until(self.text.utf8_in(a, b, &mut self.scratch), limit),
        }
    }

    /// The length of a separator's join text.
    fn measure_join(&self, join: &str) -> Result<usize> {
        match self.length {
            None => Ok(join.chars().count()),
            Some(f) => f.length(join),
        }
    }

    /// The text pieces are joined with: nothing when separators are kept (pieces are then
    /// adjacent), else the separator's join text.
    fn join_of<'s>(&self, sep: &'s Separator) -> &'s str {
        if self.config.keep.keeps() {
            ""
        } else {
            sep.join_text()
        }
    }

    /// `CharacterTextSplitter`: every piece is merged, whatever its size.
    fn single(&mut self, sep: &Separator) -> Result<()> {
        let (text, end) = (self.text, self.text.len());
        let join = self.join_of(sep);
        let sep_len = self.measure_join(join)?;
        if sep.is_chars() && self.length.is_none() && sep_len == 0 {
            self.char_windows(0, end);
            return Ok(());
        }
        let mut window = self.windows.pop().unwrap_or_default();
        for (a, b) in sep.pieces(text, 0, end, self.config.keep) {
            let len = self.measure(a, b, usize::MAX)?;
            self.push(&mut window, (a, b, len), join, sep_len);
        }
        self.flush(&mut window, join);
        self.windows.push(window);
        Ok(())
    }

    /// LangChain's `_split_text`: choose the first separator that occurs, split, merge the
    /// pieces that fit, and recurse into the rest with the later separators.
    fn recurse(&mut self, a: usize, b: usize, seps: &[Separator]) -> Result<()> {
        let (index, rest) = choose(seps, self.text, a, b);
        let sep = &seps[index];
        let outer = self.level;
        self.level = outer.deeper(b, self.separators - seps.len() + index);
        let result = self.recurse_at(a, b, (sep, rest));
        self.level = outer;
        result
    }

    fn recurse_at(
        &mut self,
        a: usize,
        b: usize,
        (sep, rest): (&Separator, &[Separator]),
    ) -> Result<()> {
        let join = self.join_of(sep);
        let sep_len = match self.measure_join(join) {
            Ok(len) => len,
            Err(err) => return self.refuse_at_merge((a, b), (sep, rest), err),
        };
        let size = self.config.chunk_size;
        if sep.is_chars() && self.length.is_none() && sep_len == 0 && size > 1 {
            // Every character is a piece of length 1 < size: all of them are merged.
            self.char_windows(a, b);
            return Ok(());
        }
        let mut window = self.windows.pop().unwrap_or_default();
        let result = self.recurse_pieces((a, b), (sep, rest), (join, sep_len), &mut window);
        self.flush(&mut window, join);
        self.windows.push(window);
        result
    }

    fn recurse_pieces(
        &mut self,
        (a, b): (usize, usize),
        (sep, rest): (&Separator, &[Separator]),
        (join, sep_len): (&str, usize),
        window: &mut Window,
    ) -> Result<()> {
        let size = self.config.chunk_size;
        for (start, end) in sep.pieces(self.text, a, b, self.config.keep) {
            // Pieces at or over the size are split further: their exact length is not needed.
            let len = self.measure(start, end, size)?;
            if len < size {
                self.push(window, (start, end, len), join, sep_len);
                continue;
            }
            self.flush(window, join);
            if rest.is_empty() {
                self.push_span(start, end, false);
            } else {
                self.recurse(start, end, rest)?;
            }
        }
        Ok(())
    }

    /// [`Run::recurse_pieces`] when the join text cannot be measured (special-token text a
    /// tokenizer refuses): LangChain measures it only in `_merge_splits`, so its error is
    /// raised where pieces that fit are first merged, and not at all when none fit.
    fn refuse_at_merge(
        &mut self,
        (a, b): (usize, usize),
        (sep, rest): (&Separator, &[Separator]),
        err: Error,
    ) -> Result<()> {
        let size = self.config.chunk_size;
        let mut fits = false;
        for (start, end) in sep.pieces(self.text, a, b, self.config.keep) {
            if self.measure(start, end, size)? < size {
                fits = true;
            } else if fits {
                return Err(err);
            } else if rest.is_empty() {
                self.push_span(start, end, false);
            } else {
                self.recurse(start, end, rest)?;
            }
        }
        if fits {
            Err(err)
        } else {
            Ok(())
        }
    }

    /// Adds a piece to the merge window, building the chunks the merge closes.
    fn push(
        &mut self,
        window: &mut Window,
        (a, b, len): (usize, usize, usize),
        join: &str,
        sep: usize,
    ) {
        let joins = match window.last_end() {
            Some(last) if join.is_empty() => last == a,
            Some(last) => self.text.eq_str(last, a, join),
            None => true,
        };
        let sizes = Sizes {
            size: self.config.chunk_size,
            overlap: self.config.chunk_overlap,
            sep,
        };
        let item = Item {
            start: a,
            end: b,
            len,
            joins,
        };
        window.push(item, sizes, |merged| self.take(merged, join));
    }

    /// Closes the merge window: its last chunk is built and the window emptied.
    fn flush(&mut self, window: &mut Window, join: &str) {
        window.finish(|merged| self.take(merged, join));
    }

    /// Records what the merge reported: a chunk (a source span when every gap in it is the
    /// join text, else the pieces re-joined) or an oversize warning.
    fn take(&mut self, merged: Report<'_>, join: &str) {
        match merged {
            Report::Oversized(total) => self.out.oversized.push(total),
            Report::Chunk(items, span) => {
                let (Some(first), Some(last)) = (items.front(), items.back()) else {
                    return;
                };
                if span {
                    self.push_span(first.start, last.end, self.config.strip_whitespace);
                } else {
                    self.push_joined(items.iter(), (first.start, last.end), join);
                }
            }
        }
    }

    /// The chunks of `[a, b)` split into characters, each character of length 1 and joined
    /// by nothing: LangChain's merge then takes windows of `size` characters, each keeping
    /// `min(overlap, size - 1)` of the previous one (it pops until the kept part is at most
    /// the overlap and the next character fits), the last one ending at `b`. No piece is
    /// made.
    fn char_windows(&mut self, a: usize, b: usize) {
        let (size, overlap) = (self.config.chunk_size, self.config.chunk_overlap);
        let step = size - overlap.min(size - 1);
        let strip = self.config.strip_whitespace;
        let text = self.text;
        let mut left = text.chars(a, b); // characters from `lo` to `b`
        let mut lo = a;
        while left > size {
            self.push_span(lo, text.advance(lo, size, b), strip);
            lo = text.advance(lo, step, b);
            left -= step;
        }
        self.push_span(lo, b, strip);
    }

    /// A source span as a chunk, stripped of Python whitespace if asked; empty ones vanish.
    fn push_span(&mut self, mut a: usize, mut b: usize, strip: bool) {
        let cut = self.level.at(b);
        if strip {
            while a < b {
                let (c, width) = self.text.char_at(a);
                if !is_py_space(c) {
                    break;
                }
                a += width;
            }
            while a < b {
                let (c, width) = self.text.char_before(b);
                if !is_py_space(c) {
                    break;
                }
                b -= width;
            }
        }
        if a < b {
            self.out.spans.push(Span {
                start: a,
                end: b,
                joined: None,
            });
            self.record(cut);
        }
    }

    /// A chunk whose text is not a source span: pieces re-joined with the separator. Its
    /// positions are those of the source span the pieces cover.
    fn push_joined<'i>(
        &mut self,
        pieces: impl Iterator<Item = &'i Item>,
        (start, end): (usize, usize),
        join: &str,
    ) {
        let mut joined = String::new();
        for (i, piece) in pieces.enumerate() {
            if i > 0 {
                joined.push_str(join);
            }
            self.text.push_utf8(piece.start, piece.end, &mut joined);
        }
        let (a, b) = if self.config.strip_whitespace {
            strip_range(&joined, 0, joined.len())
        } else {
            (0, joined.len())
        };
        if a < b {
            joined.truncate(b);
            joined.drain(..a);
            self.out.spans.push(Span {
                start,
                end,
                joined: Some(joined),
            });
            self.record(self.level.at(end));
        }
    }

    /// Notes why the span just pushed ends there, if asked to.
    fn record(&mut self, cut: Cut) {
        if self.record {
            self.out.cuts.push(cut);
        }
    }
}

/// The separator LangChain picks for `[a, b)`: the first that occurs (the empty separator
/// always does), with the separators after it for recursion; else the last, alone.
fn choose<'s, 'a, T: Units<'a>>(
    seps: &'s [Separator],
    text: T,
    a: usize,
    b: usize,
) -> (usize, &'s [Separator]) {
    for (i, sep) in seps.iter().enumerate() {
        if sep.is_chars() {
            return (i, &[]);
        }
        if sep.occurs(text, a, b) {
            return (i, &seps[i + 1..]);
        }
    }
    (seps.len() - 1, &[])
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

    /// Text whose UCS-2 and UCS-4 bytes hold separators' bytes across two units: U+0A20
    /// then U+2000 has the bytes of `"\n"` straddling them, U+2020 then U+0100 those of
    /// `" "` (little-endian), which must not count as matches.
    fn storage_text() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::string::string_regex(
            "(?s)(.|[ab \t\n.é😀漢\u{a20}\u{2000}\u{2020}\u{100}]|\n\n|\r\n|\u{a20}\u{2000}|\u{2020}\u{100}){0,80}",
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

        #[test]
        fn every_storage_splits_alike(
            text in storage_text(),
            size in 1i64..40,
            overlap_frac in 0i64..=100,
            k in 0usize..3,
            single in proptest::bool::ANY,
            seps in proptest::sample::subsequence(
                vec!["\n\n", "\n", " ", "é", "漢", "😀", "[.。]", "\\s+", "(?:ab)+", ""], 0..4),
        ) {
            let overlap = size * overlap_frac / 100;
            let config = SplitConfig::new(size, overlap).unwrap().keep(KEEPS[k]);
            let regex = |s: &&str| {
                if s.len() > 2 && !s.contains('漢') { Separator::regex(s).unwrap() } else { Separator::literal(s) }
            };
            let separators: Vec<Separator> = seps.iter().map(regex).collect();
            let splitter = if single {
                Splitter::single(config, separators.first().cloned().unwrap_or_else(|| Separator::literal(" ")))
            } else {
                Splitter::recursive(config, separators)
            };
            let want = splitter.split(&text, None).unwrap();
            let expected: Vec<(usize, usize, String)> = want
                .chunks
                .iter()
                .map(|c| (c.char_start, c.char_end, c.text(&text).to_owned()))
                .collect();
            let check = |got: SpanOutput, units: &dyn Fn(usize, usize) -> String| {
                let got: Vec<(usize, usize, String)> = got
                    .spans
                    .into_iter()
                    .map(|s| { let t = s.joined.clone().unwrap_or_else(|| units(s.start, s.end)); (s.start, s.end, t) })
                    .collect();
                (got, ())
            };
            if let Some(units) = crate::units::tests::latin1(&text) {
                let t = crate::units::Fixed::new(&units[..]).unwrap();
                let out = splitter.split_units(t, None).unwrap();
                proptest::prop_assert_eq!(&out.oversized, &want.oversized);
                let (got, ()) = check(out, &|a, b| { let mut s = String::new(); t.push_utf8(a, b, &mut s); s });
                proptest::prop_assert_eq!(&got, &expected);
            }
            if let Some(units) = crate::units::tests::ucs2(&text) {
                let t = crate::units::Fixed::new(&units[..]).unwrap();
                let out = splitter.split_units(t, None).unwrap();
                proptest::prop_assert_eq!(&out.oversized, &want.oversized);
                let (got, ()) = check(out, &|a, b| { let mut s = String::new(); t.push_utf8(a, b, &mut s); s });
                proptest::prop_assert_eq!(&got, &expected);
            }
            let units = crate::units::tests::ucs4(&text);
            let t = crate::units::Fixed::new(&units[..]).unwrap();
            let out = splitter.split_units(t, None).unwrap();
            proptest::prop_assert_eq!(&out.oversized, &want.oversized);
            let (got, ()) = check(out, &|a, b| { let mut s = String::new(); t.push_utf8(a, b, &mut s); s });
            proptest::prop_assert_eq!(&got, &expected);
        }
    }
}

#[cfg(test)]
mod cut_tests {
    use super::{Separator, SplitConfig, Splitter};
    use crate::split::cuts::Cut::{self, End, Separator as Sep};

    #[track_caller]
    fn check(size: i64, seps: &[&str], text: &str, want: &[(&str, Cut)]) {
        let config = SplitConfig::new(size, 0).unwrap();
        let seps = seps.iter().map(|s| Separator::literal(s)).collect();
        let splitter = Splitter::recursive(config, seps);
        let out = splitter.split(text, None).unwrap();
        let cuts = splitter.cuts(text, None).unwrap();
        let got: Vec<_> = out.chunks.iter().map(|c| c.text(text)).zip(cuts).collect();
        let want: Vec<_> = want.iter().map(|&(t, c)| (t, c)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn each_chunk_ends_at_the_gap_its_last_piece_leaves() {
        let defaults: &[&str] = &[];
        check(100, defaults, "short", &[("short", End)]);
        // Paragraphs that fit end at the paragraph gap, the last at the end.
        check(
            12,
            defaults,
            "aaaa bbbb\n\ncccc",
            &[("aaaa bbbb", Sep(0)), ("cccc", End)],
        );
        // A paragraph split at words: inner chunks end at words, its last at the paragraph.
        check(
            10,
            defaults,
            "aaaa bbbb cccc\n\ndd",
            &[("aaaa bbbb", Sep(2)), ("cccc", Sep(0)), ("dd", End)],
        );
        // Characters: windows end inside the word, the last at the line after it.
        check(
            4,
            defaults,
            "abcdefgh\nxy",
            &[("abcd", Sep(3)), ("efgh", Sep(1)), ("xy", End)],
        );
        check(
            3,
            &["|"],
            "ab|cd|ef",
            &[("ab", Sep(0)), ("|cd", Sep(0)), ("|ef", End)],
        );
    }

    #[test]
    fn a_plain_split_records_nothing() {
        let splitter = Splitter::recursive(SplitConfig::new(4, 0).unwrap(), vec![]);
        let out = splitter
            .split_units(crate::units::Utf8("ab cd ef"), None)
            .unwrap();
        assert!(out.cuts.is_empty() && out.spans.len() == 3);
    }
}
