//! tiktoken's `encode_with_unstable`: the tokens of a text that more text cannot change, and
//! every token sequence its unstable end may become once more text follows. A transcription
//! of tiktoken 0.14's `_encode_unstable_native`, completions sorted (tiktoken's come from a
//! hash set, in no order).

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::OnceLock;

use crate::error::Result;
use crate::tokens::pretokenize::Pieces;
use crate::tokens::tokenizer::{check_disallowed, for_segments, Segment};
use crate::tokens::{SpecialPolicy, Tokenizer};

/// Stable tokens and the possible completions of the rest.
pub type Unstable = (Vec<u32>, Vec<Vec<u32>>);

/// A mergeable token's bytes and rank.
type Entry = (&'static [u8], u32);

/// Every mergeable token, sorted by bytes, per encoding (by cache slot).
static SORTED: [OnceLock<Vec<Entry>>; 16] = [const { OnceLock::new() }; 16];

impl Tokenizer {
    /// tiktoken's `encode_with_unstable`: fails on disallowed special text as `encode`.
    pub fn encode_with_unstable(&self, text: &str, policy: &SpecialPolicy) -> Result<Unstable> {
        check_disallowed(text, &policy.disallowed)?;
        let (mut tokens, last) = self.encode_with_last(text, policy);
        if last == 0 {
            return Ok((tokens, Vec::new())); // ends with a special token: nothing unstable
        }
        let last = self.widen_over_spaces(&tokens, last);
        let unstable = self.decode_bytes(&tokens[tokens.len() - last..])?;
        tokens.truncate(tokens.len() - last);
        let mut completions = BTreeSet::new();
        if unstable.is_empty() {
            return Ok((tokens, Vec::new()));
        }
        let sorted = self.sorted_tokens();
        for &(_, id) in starting_with(&sorted, &unstable) {
            completions.insert(vec![id]);
        }
        // Every other place a token could straddle the end: re-encode prefix + token.
        for i in 1..unstable.len() {
            let (prefix, suffix) = unstable.split_at(i);
            for &(token, _) in starting_with(&sorted, suffix) {
                let possibility = [prefix, token].concat();
                let encoded = match std::str::from_utf8(&possibility) {
                    Ok(s) => self.encode_ordinary(s),
                    Err(_) => self.plain_bpe(&possibility),
                };
                completions.insert(self.covering(&encoded, unstable.len()));
            }
        }
        if let Some(split) = self.whitespace_split(&unstable) {
            completions.insert(split);
        }
        Ok((tokens, completions.into_iter().collect()))
    }

    /// `encode` and how many tokens its last piece made (0 after a special token).
    fn encode_with_last(&self, text: &str, policy: &SpecialPolicy) -> (Vec<u32>, usize) {
        let (mut out, mut last) = (Vec::with_capacity(text.len() / 4 + 1), 0);
        for_segments(text, &policy.allowed, |segment| match segment {
            Segment::Text(s) => {
                for piece in Pieces::new(s, self.spec().dialect) {
                    let before = out.len();
                    self.ranks().encode_piece(piece.as_bytes(), &mut out);
                    last = out.len() - before;
                }
            }
            Segment::Special(id) => {
                out.push(id);
                last = 0;
            }
        });
        (out, last)
    }

    /// The leading tokens of `encoded` that cover `len` bytes.
    fn covering(&self, encoded: &[u32], len: usize) -> Vec<u32> {
        let (mut seq, mut covered) = (Vec::new(), 0);
        for &id in encoded {
            seq.push(id);
            covered += self.token_len(id).unwrap_or(0);
            if covered >= len {
                break;
            }
        }
        seq
    }

    /// tiktoken's fix for `\s+(?!\S)`: more text can cut a run of whitespace before its last
    /// character, so that cut, merged in two, is a completion too.
    fn whitespace_split(&self, unstable: &[u8]) -> Option<Vec<u32>> {
        let (last, size) = last_char(unstable)?;
        let cut = unstable.len() - size;
        if unstable.len() <= 1 || cut == 0 || !last.is_whitespace() {
            return None;
        }
        let mut out = self.plain_bpe(&unstable[..cut]);
        out.extend(self.plain_bpe(&unstable[cut..]));
        Some(out)
    }

    /// tiktoken's `byte_pair_encode`: the plain merge (leftmost lowest rank first), with no
    /// whole-token check first. Only for the short byte strings above.
    fn plain_bpe(&self, piece: &[u8]) -> Vec<u32> {
        if piece.is_empty() {
            return Vec::new();
        }
        let ranks = self.ranks();
        let mut bounds: Vec<usize> = (0..=piece.len()).collect();
        while let Some((_, i)) = (0..bounds.len() - 2)
            .filter_map(|i| ranks.rank(&piece[bounds[i]..bounds[i + 2]]).map(|r| (r, i)))
            .min()
        {
            bounds.remove(i + 1);
        }
        bounds
            .windows(2)
            .filter_map(|w| ranks.rank(&piece[w[0]..w[1]]))
            .collect()
    }

    /// The tokens sorted by bytes, built once per encoding.
    fn sorted_tokens(&self) -> Cow<'static, [Entry]> {
        let build = || {
            let ranks = self.ranks();
            let mut all: Vec<Entry> = (0..)
                .zip(ranks.tokens())
                .filter(|(_, t)| !t.is_empty())
                .map(|(id, t)| (*t, id))
                .collect();
            all.sort_unstable();
            all
        };
        match SORTED.get(self.ranks().slot()) {
            Some(cell) => Cow::Borrowed(cell.get_or_init(build).as_slice()),
            None => Cow::Owned(build()),
        }
    }
}

/// The run of `sorted` whose bytes start with `prefix`.
fn starting_with<'a>(sorted: &'a [Entry], prefix: &[u8]) -> &'a [Entry] {
    let start = sorted.partition_point(|(t, _)| *t < prefix);
    let len = sorted[start..].partition_point(|(t, _)| t.starts_with(prefix));
    &sorted[start..start + len]
}

/// The last character of `bytes` and its length, if they end in valid UTF-8.
fn last_char(bytes: &[u8]) -> Option<(char, usize)> {
    (1..=bytes.len().min(4)).find_map(|k| {
        let s = std::str::from_utf8(&bytes[bytes.len() - k..]).ok()?;
        let mut chars = s.chars();
        let c = chars.next()?;
        chars.next().is_none().then_some((c, k))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unstable_end_completes_the_text() {
        let t = Tokenizer::new("gpt2").unwrap();
        let text = "hello fanta";
        let (stable, completions) = t.encode_with_unstable(text, &t.policy(&[], None)).unwrap();
        assert_eq!(stable, vec![31373]); // tiktoken's docstring
        assert!(completions.contains(&vec![5113, 265]));
        for seq in &completions {
            let all = t
                .decode_bytes(&[stable.clone(), seq.clone()].concat())
                .unwrap();
            assert!(all.starts_with(text.as_bytes()));
        }
        let special = t.policy(&["<|endoftext|>"], None);
        let (ids, none) = t.encode_with_unstable("a<|endoftext|>", &special).unwrap();
        assert_eq!((ids, none.len()), (vec![64, 50256], 0));
    }

    #[test]
    fn plain_bpe_merges_leftmost_lowest() {
        let t = Tokenizer::new("cl100k_base").unwrap();
        assert_eq!(t.plain_bpe(b"hello"), vec![15339]);
        assert_eq!(t.plain_bpe(b""), Vec::<u32>::new());
        assert_eq!(last_char(b"a \xe3\x80\x80"), Some(('\u{3000}', 3)));
        assert_eq!(last_char(b"\xff"), None);
    }
}
