//! Token counting and encoding with tiktoken's semantics, and the token [`Length`] that lets
//! the splitter size chunks in tokens without leaving Rust.

use std::borrow::Cow;

use memchr::memmem;
use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::length::Length;
use crate::tokens::bpe::Ranks;
use crate::tokens::encodings::{spec, Dialect, EncodingSpec};
use crate::tokens::pretokenize::Pieces;

/// Which special tokens are encoded as such, and which make encoding fail
/// (tiktoken's `allowed_special` and `disallowed_special`, already resolved from `"all"`).
#[derive(Debug, Clone, Default)]
pub struct SpecialPolicy {
    /// Special tokens encoded as their id when they occur.
    pub allowed: Vec<(String, u32)>,
    /// Strings whose presence in the text is an error.
    pub disallowed: Vec<String>,
}

/// A BPE tokenizer for one of tiktoken's encodings; cheap to copy, shareable across threads.
#[derive(Debug, Clone, Copy)]
pub struct Tokenizer {
    spec: &'static EncodingSpec,
    ranks: &'static Ranks,
}

impl Tokenizer {
    /// The bundled encoding called `name` (`cl100k_base`, `o200k_base`, `gpt2`, ...).
    pub fn new(name: &str) -> Result<Self> {
        let spec = spec(name)?;
        Ok(Self {
            spec,
            ranks: spec.ranks(),
        })
    }

    /// The encoding's name.
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// The encoding's definition (pattern dialect, special tokens).
    pub fn spec(&self) -> &'static EncodingSpec {
        self.spec
    }

    /// The mergeable ranks.
    pub fn ranks(&self) -> &'static Ranks {
        self.ranks
    }

    fn dialect(&self) -> Dialect {
        self.spec.dialect
    }

    /// tiktoken's `encode_ordinary`: special-token text is encoded as plain text.
    pub fn encode_ordinary(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::with_capacity(text.len() / 4 + 1);
        self.encode_into(text, &mut out);
        out
    }

    fn encode_into(&self, text: &str, out: &mut Vec<u32>) {
        for piece in Pieces::new(text, self.dialect()) {
            self.ranks.encode_piece(piece.as_bytes(), out);
        }
    }

    /// `len(encode_ordinary(text))`, without building the ids.
    pub fn count_ordinary(&self, text: &str) -> usize {
        Pieces::new(text, self.dialect())
            .map(|piece| self.ranks.count_piece(piece.as_bytes()))
            .sum()
    }

    /// The ordinary count, stopping as soon as it exceeds `limit` (then any value > `limit`).
    pub fn count_ordinary_until(&self, text: &str, limit: usize) -> usize {
        let mut total = 0;
        for piece in Pieces::new(text, self.dialect()) {
            total += self.ranks.count_piece(piece.as_bytes());
            if total > limit {
                break;
            }
        }
        total
    }

    /// tiktoken's `encode`: fails on disallowed special text, encodes allowed special tokens
    /// as their ids and everything between them as ordinary text.
    pub fn encode(&self, text: &str, policy: &SpecialPolicy) -> Result<Vec<u32>> {
        check_disallowed(text, &policy.disallowed)?;
        Ok(self.encode_allowed(text, policy))
    }

    /// [`Self::encode`] once the text is known to hold nothing disallowed.
    fn encode_allowed(&self, text: &str, policy: &SpecialPolicy) -> Vec<u32> {
        let mut out = Vec::with_capacity(text.len() / 4 + 1);
        for_segments(text, &policy.allowed, |segment| match segment {
            Segment::Text(s) => self.encode_into(s, &mut out),
            Segment::Special(id) => out.push(id),
        });
        out
    }

    /// [`Self::encode`] across the current rayon pool: the text's [`segments`] encoded in
    /// parallel and their ids joined in order (each piece of 1 MB or more also in parts).
    /// Call it on a pool of the caller's sizing (`crate::parallel::run`).
    pub fn encode_in_parallel(&self, text: &str, policy: &SpecialPolicy) -> Result<Vec<u32>> {
        check_disallowed(text, &policy.disallowed)?;
        let parts: Vec<Vec<u32>> = segments(text, SEGMENT)
            .par_iter()
            .with_min_len(1)
            .map(|segment| self.encode_allowed(segment, policy))
            .collect();
        Ok(parts.concat())
    }

    /// [`Self::count`] across the current rayon pool, as [`Self::encode_in_parallel`].
    pub fn count_in_parallel(&self, text: &str, policy: &SpecialPolicy) -> Result<usize> {
        Ok(self.count_batch(&[text], policy)?[0])
    }

    /// `len(encode(text, ...))`.
    pub fn count(&self, text: &str, policy: &SpecialPolicy) -> Result<usize> {
        self.count_until(text, policy, usize::MAX)
    }

    /// [`Self::count`], stopping once the count exceeds `limit` (then any value > `limit`).
    pub fn count_until(&self, text: &str, policy: &SpecialPolicy, limit: usize) -> Result<usize> {
        check_disallowed(text, &policy.disallowed)?;
        if policy.allowed.is_empty() {
            return Ok(self.count_ordinary_until(text, limit));
        }
        let mut total = 0;
        for_segments(text, &policy.allowed, |segment| {
            if total <= limit {
                total += match segment {
                    Segment::Text(s) => self.count_ordinary_until(s, limit - total),
                    Segment::Special(_) => 1,
                };
            }
        });
        Ok(total)
    }

    /// Counts of many texts, in parallel across the rayon pool. Long texts are cut into
    /// segments counted in parallel too (see [`segments`]), so one big file, or a few of
    /// very different sizes, still keeps every core busy.
    pub fn count_batch(&self, texts: &[&str], policy: &SpecialPolicy) -> Result<Vec<usize>> {
        let work: Vec<(usize, &str)> = texts
            .iter()
            .enumerate()
            .flat_map(|(i, text)| segments(text, SEGMENT).into_iter().map(move |s| (i, s)))
            .collect();
        let counts: Vec<Result<usize>> = work
            .par_iter()
            .with_min_len(1)
            .map(|(_, segment)| self.count(segment, policy))
            .collect();
        let mut out = vec![0; texts.len()];
        for ((i, _), count) in work.iter().zip(counts) {
            out[*i] += count?; // the first error in text order, as counting in turn finds it
        }
        Ok(out)
    }

    /// The bytes of `ids` (tiktoken's `decode_bytes`), special tokens included.
    pub fn decode_bytes(&self, ids: &[u32]) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(ids.len() * 4);
        for &id in ids {
            out.extend_from_slice(self.token_bytes(id)?);
        }
        Ok(out)
    }

    /// The length in bytes of one token id.
    #[inline]
    pub fn token_len(&self, id: u32) -> Result<usize> {
        match self.ranks.token_len(id) {
            Some(len) => Ok(len),
            None => self.token_bytes(id).map(<[u8]>::len),
        }
    }

    /// The bytes of one token id.
    pub fn token_bytes(&self, id: u32) -> Result<&'static [u8]> {
        if let Some(bytes) = self.ranks.token(id) {
            return Ok(bytes);
        }
        self.spec
            .special()
            .iter()
            .find(|s| s.1 == id)
            .map(|s| s.0.as_bytes())
            .ok_or(Error::InvalidToken(id))
    }

    /// The policy tiktoken applies by default (`allowed_special=set()`,
    /// `disallowed_special="all"`): every special token is an error.
    pub fn default_policy(&self) -> SpecialPolicy {
        self.policy(&[], None)
    }

    /// A policy from explicit sets; `disallowed = None` means tiktoken's `"all"` (every
    /// special token not allowed).
    pub fn policy(&self, allowed: &[&str], disallowed: Option<&[&str]>) -> SpecialPolicy {
        let allowed: Vec<(String, u32)> = self
            .spec
            .special()
            .iter()
            .filter(|(s, _)| allowed.contains(s))
            .map(|&(s, id)| (s.to_owned(), id))
            .collect();
        let disallowed = match disallowed {
            Some(list) => list.iter().map(|s| (*s).to_owned()).collect(),
            None => self
                .spec
                .special()
                .iter()
                .filter(|(s, _)| !allowed.iter().any(|(a, _)| a == s))
                .map(|(s, _)| (*s).to_owned())
                .collect(),
        };
        SpecialPolicy {
            allowed,
            disallowed,
        }
    }
}

/// Bytes per segment when [`Tokenizer::count_batch`] cuts a long text.
const SEGMENT: usize = 32 * 1024;

/// `text` cut into consecutive parts of at least `target` bytes, only just after a `\n`
/// between a visible ASCII character and an ASCII letter: every dialect's pre-tokenizer
/// ends a piece there (no pattern takes a newline and then a letter, none looks behind, and
/// r50k's `\s++$` matches the lone newline at a part's end as `\s` would), and no special
/// token contains a newline, so the parts' counts add up to the text's count exactly.
pub fn segments(text: &str, target: usize) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while text.len() - start > 2 * target {
        let from = start + target;
        let cut = memchr::memchr_iter(b'\n', &bytes[from..])
            .map(|i| from + i + 1)
            .find(|&cut| {
                bytes[cut - 2].is_ascii_graphic()
                    && bytes.get(cut).is_some_and(u8::is_ascii_alphabetic)
            });
        let Some(cut) = cut else { break };
        out.push(&text[start..cut]);
        start = cut;
    }
    out.push(&text[start..]);
    out
}

/// The leftmost disallowed string in `text` is an error, as tiktoken's regex search makes it
/// (the longest of those starting there). Splitters measure thousands of short pieces, so
/// the usual case, where every special token starts with `<`, looks for that byte alone.
pub(crate) fn check_disallowed(text: &str, disallowed: &[String]) -> Result<()> {
    let bytes = text.as_bytes();
    if disallowed.iter().any(String::is_empty) {
        // tiktoken's regex then matches at the start of every text, even an empty one.
        let first = disallowed
            .iter()
            .filter(|d| bytes.starts_with(d.as_bytes()));
        let longest = first.max_by_key(|d| d.len()).cloned().unwrap_or_default();
        return Err(Error::DisallowedSpecial(longest));
    }
    let mut firsts = disallowed
        .iter()
        .filter_map(|d| d.as_bytes().first().copied());
    let first = match firsts.next() {
        Some(byte) if firsts.all(|b| b == byte) => {
            memchr::memchr_iter(byte, bytes).find_map(|at| {
                disallowed
                    .iter()
                    .filter(|d| bytes[at..].starts_with(d.as_bytes()))
                    .max_by_key(|d| d.len())
                    .map(|d| (at, d))
            })
        }
        Some(_) => disallowed
            .iter()
            .filter(|d| !d.is_empty())
            .filter_map(|d| memmem::find(bytes, d.as_bytes()).map(|at| (at, d)))
            .min_by_key(|&(at, d)| (at, std::cmp::Reverse(d.len()))),
        None => None,
    };
    match first {
        Some((_, token)) => Err(Error::DisallowedSpecial(token.clone())),
        None => Ok(()),
    }
}

/// A part of a text cut at its allowed special tokens.
pub(crate) enum Segment<'a> {
    Text(&'a str),
    Special(u32),
}

/// Calls `f` on the text between allowed special tokens and on each token's id, in order.
/// Each text segment is pre-tokenized on its own, as tiktoken does.
pub(crate) fn for_segments<'a>(
    text: &'a str,
    allowed: &[(String, u32)],
    mut f: impl FnMut(Segment<'a>),
) {
    let mut pos = 0;
    loop {
        let next = allowed
            .iter()
            .filter_map(|(s, id)| {
                memmem::find(&text.as_bytes()[pos..], s.as_bytes()).map(|at| (pos + at, s, *id))
            })
            .min_by_key(|&(at, s, _)| (at, std::cmp::Reverse(s.len())));
        let Some((at, s, id)) = next else { break };
        if at > pos {
            f(Segment::Text(&text[pos..at]));
        }
        f(Segment::Special(id));
        pos = at + s.len();
    }
    if pos < text.len() {
        f(Segment::Text(&text[pos..]));
    }
}

/// Measures text in tokens for the splitter (LangChain's `from_tiktoken_encoder`).
#[derive(Debug, Clone)]
pub struct TokenLength {
    /// The tokenizer.
    pub tokenizer: Tokenizer,
    /// Special-token handling, as given to `encode`.
    pub policy: SpecialPolicy,
}

impl Length for TokenLength {
    fn length(&self, text: &str) -> Result<usize> {
        self.tokenizer.count(text, &self.policy)
    }

    fn length_until(&self, text: &str, limit: usize) -> Result<usize> {
        self.tokenizer.count_until(text, &self.policy, limit)
    }

    /// Every token holds at least one byte (a special token too), so no text counts more
    /// tokens than bytes; counting fails only on disallowed special text, and a text
    /// without any holds none in any part.
    fn within_bytes(&self, text: &str) -> bool {
        check_disallowed(text, &self.policy.disallowed).is_ok()
    }
}

/// LangChain's `split_text_on_tokens`: windows of `size` ids advancing by `size - overlap`,
/// each decoded with U+FFFD for bytes cut mid-character; empty decodings are skipped.
/// `ids` must be the encoding of `text`: their bytes are then spans of it, so a window is
/// sliced from `text` (no copy when it starts and ends between characters) instead of
/// decoded token by token.
pub fn token_windows_lossy<'a>(
    tokenizer: &Tokenizer,
    text: &'a str,
    ids: &[u32],
    size: usize,
    overlap: usize,
) -> Result<Vec<Cow<'a, str>>> {
    let windows = lossy_windows(tokenizer, text, ids, size, overlap)?;
    Ok(windows
        .into_iter()
        .map(|window| match window {
            LossyWindow::Span(a, b) => Cow::Borrowed(&text[a..b]),
            LossyWindow::Cut(decoded) => Cow::Owned(decoded),
        })
        .collect())
}

/// A window of [`lossy_windows`]: the text's bytes `[a, b)`, which start and end between
/// characters, or the decoding of a window that cuts one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LossyWindow {
    /// `text[a..b]`.
    Span(usize, usize),
    /// The window's bytes decoded, U+FFFD for each cut character's bytes.
    Cut(String),
}

/// [`token_windows_lossy`]'s windows as spans where they are spans: a caller holding the
/// text in another form (a Python `str`'s own storage) makes them from that.
pub fn lossy_windows(
    tokenizer: &Tokenizer,
    text: &str,
    ids: &[u32],
    size: usize,
    overlap: usize,
) -> Result<Vec<LossyWindow>> {
    let offsets = token_offsets(tokenizer, ids)?;
    debug_assert_eq!(
        offsets.last(),
        Some(&text.len()),
        "ids are not text's encoding"
    );
    let mut out = Vec::new();
    let step = size.saturating_sub(overlap).max(1);
    let mut start = 0;
    while start < ids.len() {
        let end = start.saturating_add(size).min(ids.len());
        match lossy_slice(text, offsets[start], offsets[end]) {
            LossyWindow::Span(a, b) if a == b => {}
            LossyWindow::Cut(s) if s.is_empty() => {}
            window => out.push(window),
        }
        if end == ids.len() {
            break;
        }
        start += step;
    }
    Ok(out)
}

/// `text[a..b]` as `String::from_utf8_lossy` makes it of the bytes: U+FFFD for the bytes of
/// characters cut at either end. Between the first and last character boundaries the text
/// is valid as it is, so only the cut ends (three bytes at most) are checked, not the whole
/// window (that check was a tenth of `TokenTextSplitter`'s time on Chinese).
fn lossy_slice(text: &str, a: usize, b: usize) -> LossyWindow {
    let bytes = text.as_bytes();
    let b = b.min(text.len());
    let a = a.min(b);
    let Some(first) = (a..=b).find(|&i| text.is_char_boundary(i)) else {
        // inside one character
        return LossyWindow::Cut(String::from_utf8_lossy(&bytes[a..b]).into_owned());
    };
    let last = (first..=b)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(first);
    if first == a && last == b {
        return LossyWindow::Span(a, b);
    }
    // A new character starts at `first` and at `last`: no bad sequence spans them.
    let mut out = String::from_utf8_lossy(&bytes[a..first]).into_owned();
    out.push_str(&text[first..last]);
    out.push_str(&String::from_utf8_lossy(&bytes[last..b]));
    LossyWindow::Cut(out)
}

/// Token windows of at most `size` tokens (more only when one character alone spans more),
/// stepping by `size - overlap`, that start and end on character boundaries, so each is an
/// exact span of the text: `(byte_start, byte_end, token_count)`.
pub fn token_windows(
    offsets: &[usize],
    size: usize,
    overlap: usize,
    text: &str,
) -> Vec<(usize, usize, usize)> {
    // offsets[i] = byte offset where token i starts; offsets[n] = text length.
    let n = offsets.len().saturating_sub(1);
    let on_char = |i: usize| text.is_char_boundary(offsets[i]);
    let mut out = Vec::new();
    let mut start = 0;
    while start < n {
        let mut end = start.saturating_add(size).min(n);
        while end > start && !on_char(end) {
            end -= 1;
        }
        if end == start {
            end = (start + 1..=n).find(|&e| on_char(e)).unwrap_or(n);
        }
        out.push((offsets[start], offsets[end], end - start));
        if end == n {
            break;
        }
        let mut next = end.saturating_sub(overlap).max(start + 1);
        while next < end && !on_char(next) {
            next -= 1;
            if next <= start {
                next = (start + 1..=end).find(|&e| on_char(e)).unwrap_or(end);
                break;
            }
        }
        start = next;
    }
    out
}

/// Byte offsets of each token of an encoding, plus the end: the windows' input.
pub fn token_offsets(tokenizer: &Tokenizer, ids: &[u32]) -> Result<Vec<usize>> {
    let mut offsets = Vec::with_capacity(ids.len() + 1);
    let mut pos = 0;
    offsets.push(0);
    for &id in ids {
        pos += tokenizer.token_len(id)?;
        offsets.push(pos);
    }
    Ok(offsets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_tokens_follow_the_policy() {
        let t = Tokenizer::new("cl100k_base").unwrap();
        let text = "a<|endoftext|>b";
        assert_eq!(
            t.encode(text, &t.default_policy()),
            Err(Error::DisallowedSpecial("<|endoftext|>".into()))
        );
        let ids = t.encode(text, &t.policy(&["<|endoftext|>"], None)).unwrap();
        assert!(ids.contains(&100_257));
        let plain = t.encode(text, &t.policy(&[], Some(&[]))).unwrap();
        assert_eq!(plain, t.encode_ordinary(text));
        assert_eq!(
            t.count(text, &t.policy(&["<|endoftext|>"], None)).unwrap(),
            ids.len()
        );
        assert_eq!(t.decode_bytes(&ids).unwrap(), text.as_bytes());
    }

    /// tiktoken's rule by plain search: the leftmost occurrence, the longest there.
    fn leftmost_disallowed(text: &str, disallowed: &[String]) -> Option<String> {
        (0..=text.len()).find_map(|at| {
            disallowed
                .iter()
                .filter(|d| !d.is_empty() && text.as_bytes()[at..].starts_with(d.as_bytes()))
                .max_by_key(|d| d.len())
                .cloned()
        })
    }

    proptest::proptest! {
        #[test]
        fn disallowed_text_is_found_leftmost_longest(
            parts in proptest::collection::vec(
                proptest::sample::select(vec!["a", "<", "|", "<|", "<|end", "<|endoftext|>", "x>", "<|fim_prefix|>", "<|endofprompt|>", "漢"]),
                0..12,
            ),
            sets in proptest::sample::subsequence(
                vec!["<|endoftext|>", "<|end", "<|fim_prefix|>", "<|endofprompt|>", "x>", "|"], 0..4),
        ) {
            let text = parts.concat();
            let disallowed: Vec<String> = sets.iter().map(|s| (*s).to_owned()).collect();
            let want = leftmost_disallowed(&text, &disallowed).map(Error::DisallowedSpecial);
            proptest::prop_assert_eq!(check_disallowed(&text, &disallowed).err(), want);
        }
    }

    proptest::proptest! {
        /// `TokenLength::within_bytes`'s promise, which lets a splitter take a short text
        /// whole: no text counts more tokens than it has bytes, special tokens allowed or
        /// not, and a text it accepts counts without error.
        #[test]
        fn no_text_counts_more_tokens_than_bytes(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Strategy::prop_map(
                        proptest::sample::select(vec!["<|endoftext|>", "<|fim_prefix|>", "<|", " ", "\n\n", "漢字", "😀", "e\u{301}"]),
                        str::to_owned,
                    ),
                    "\\PC{0,6}",
                ],
                0..8,
            ),
            name in proptest::sample::select(vec!["gpt2", "cl100k_base", "o200k_base"]),
            allow in proptest::bool::ANY,
        ) {
            let text = parts.concat();
            let tokenizer = Tokenizer::new(name).unwrap();
            let policy = if allow { tokenizer.policy(&["<|endoftext|>"], Some(&[])) } else { tokenizer.default_policy() };
            let length = TokenLength { tokenizer, policy };
            if length.within_bytes(&text) {
                proptest::prop_assert!(length.length(&text).unwrap() <= text.len());
            } else {
                proptest::prop_assert!(length.length(&text).is_err());
            }
        }
    }

    /// On a pool, long texts are encoded and counted in segments (and long pieces in parts):
    /// the same ids, count and errors as on one thread.
    #[test]
    fn encoding_in_parallel_gives_the_same_ids() {
        let lines = "Hello world\nnext\n\nfoo  \nbar's\r\nBaz 12\n漢字\nx!\n/y\n<|endoftext|>\n";
        let letters: String = (0..300_000u64)
            .map(|i| char::from(b'a' + ((i * 7919) ^ (i >> 5)) as u8 % 26))
            .collect();
        let text = format!("{}{letters}\n{}", lines.repeat(3000), lines.repeat(2000));
        for name in ["gpt2", "cl100k_base", "o200k_base"] {
            let t = Tokenizer::new(name).unwrap();
            for policy in [t.policy(&["<|endoftext|>"], None), SpecialPolicy::default()] {
                let want = t.encode(&text, &policy).unwrap();
                let (ids, count) = crate::parallel::run(3, || {
                    (
                        t.encode_in_parallel(&text, &policy),
                        t.count_in_parallel(&text, &policy),
                    )
                })
                .unwrap();
                assert_eq!(ids.unwrap(), want, "{name}");
                assert_eq!(count.unwrap(), want.len(), "{name}");
            }
            let strict = t.policy(&[], None);
            let refused = crate::parallel::run(2, || t.encode_in_parallel(&text, &strict));
            assert_eq!(refused.unwrap().err(), t.encode(&text, &strict).err());
        }
    }

    #[test]
    fn counting_until_a_limit_stops_early_but_exceeds_it() {
        let t = Tokenizer::new("o200k_base").unwrap();
        let text = "word ".repeat(1000);
        let full = t.count_ordinary(&text);
        assert!(full > 100);
        let capped = t.count_ordinary_until(&text, 10);
        assert!(capped > 10 && capped < full);
    }

    #[test]
    fn segment_counts_add_up_to_the_whole() {
        let text =
            "Hello world\nnext\n\nfoo  \nbar's\r\nBaz 12\n漢字\nx!\n/y\n<|endoftext|>\nend\n"
                .repeat(50);
        for name in ["gpt2", "cl100k_base", "o200k_base"] {
            let t = Tokenizer::new(name).unwrap();
            let policy = t.policy(&["<|endoftext|>"], None);
            let parts = segments(&text, 7);
            assert!(parts.len() > 40, "{}", parts.len());
            assert_eq!(parts.concat(), text);
            let sum: usize = parts.iter().map(|p| t.count(p, &policy).unwrap()).sum();
            assert_eq!(sum, t.count(&text, &policy).unwrap(), "{name}");
            let batch = t.count_batch(&[&text, "", "a"], &policy).unwrap();
            assert_eq!(batch, [sum, 0, 1]);
        }
    }

    proptest::proptest! {
        #[test]
        fn lossy_slices_match_lossy_decoding(
            text in "[a漢é🙂\u{301} ]{0,12}",
            a in 0usize..40,
            b in 0usize..40,
        ) {
            let (a, b) = (a.min(text.len()), b.min(text.len()));
            let (a, b) = (a.min(b), a.max(b));
            let want = String::from_utf8_lossy(&text.as_bytes()[a..b]);
            let got = match lossy_slice(&text, a, b) {
                LossyWindow::Span(a, b) => text[a..b].to_string(),
                LossyWindow::Cut(decoded) => {
                    // Made only where a character is cut: a span could not be the text.
                    proptest::prop_assert!(!(text.is_char_boundary(a) && text.is_char_boundary(b)));
                    decoded
                }
            };
            proptest::prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn windows_are_char_exact() {
        let t = Tokenizer::new("cl100k_base").unwrap();
        let text = "😀漢字 and ascii 🦀🦀🦀 mixed ünïcödé text";
        let ids = t.encode_ordinary(text);
        let offsets = token_offsets(&t, &ids).unwrap();
        for (size, overlap) in [(1, 0), (2, 1), (3, 1), (5, 2), (100, 10)] {
            let windows = token_windows(&offsets, size, overlap, text);
            assert_eq!(windows[0].0, 0);
            assert_eq!(windows.last().unwrap().1, text.len());
            for w in &windows {
                assert!(text.is_char_boundary(w.0) && text.is_char_boundary(w.1));
            }
        }
    }
}
