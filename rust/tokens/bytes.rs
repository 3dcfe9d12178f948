//! tiktoken's byte-level entry points: `_encode_bytes` (bytes that need not be UTF-8) and
//! `_encode_single_piece` (one piece, no pre-tokenizing), with tiktoken's exact results.

use crate::tokens::pretokenize::Pieces;
use crate::tokens::Tokenizer;

impl Tokenizer {
    /// BPE of `piece` as one piece: no pre-tokenizer, no special tokens (tiktoken's
    /// `_encode_single_piece`). Works on any bytes, UTF-8 or not.
    pub fn encode_single_piece(&self, piece: &[u8]) -> Vec<u32> {
        let mut out = Vec::with_capacity(piece.len() / 2 + 1);
        if !piece.is_empty() {
            self.ranks().encode_piece(piece, &mut out);
        }
        out
    }

    /// tiktoken's `_encode_bytes`: valid UTF-8 is `encode_ordinary`; otherwise the valid
    /// prefix is encoded, the tokens of its last piece (and of whitespace tokens before it,
    /// which a later `\n` could merge with) are dropped, and their bytes plus the invalid
    /// rest are merged as one piece, as if the text had been cut mid-character.
    pub fn encode_bytes(&self, bytes: &[u8]) -> Vec<u32> {
        let valid = match std::str::from_utf8(bytes) {
            Ok(text) => return self.encode_ordinary(text),
            Err(err) => err.valid_up_to(),
        };
        // `valid_up_to` ends valid UTF-8, so this is never the empty default.
        let text = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        let (mut tokens, last) = self.encode_with_last_piece(text);
        let last = self.widen_over_spaces(&tokens, last);
        let mut unstable = Vec::new();
        for &id in &tokens[tokens.len() - last..] {
            unstable.extend_from_slice(self.ranks().token(id).unwrap_or_default());
        }
        tokens.truncate(tokens.len() - last);
        unstable.extend_from_slice(&bytes[valid..]);
        self.ranks().encode_piece(&unstable, &mut tokens);
        tokens
    }

    /// `encode_ordinary(text)` and how many of its tokens the last piece made.
    fn encode_with_last_piece(&self, text: &str) -> (Vec<u32>, usize) {
        let mut out = Vec::with_capacity(text.len() / 4 + 1);
        let mut last = 0;
        for piece in Pieces::new(text, self.spec().dialect) {
            let before = out.len();
            self.ranks().encode_piece(piece.as_bytes(), &mut out);
            last = out.len() - before;
        }
        (out, last)
    }

    /// tiktoken's `_increase_last_piece_token_len`: when the last piece starts with a token
    /// of only spaces, tabs and newlines, the whitespace tokens before it join it (cl100k's
    /// `\s*[\r\n]+` can merge them once more text follows).
    pub(crate) fn widen_over_spaces(&self, tokens: &[u32], mut last: usize) -> usize {
        let all_space = |id: u32| {
            self.ranks()
                .token(id)
                .is_some_and(|b| b.iter().all(|c| matches!(c, b' ' | b'\n' | b'\t')))
        };
        if last > 0 && all_space(tokens[tokens.len() - last]) {
            while last < tokens.len() && all_space(tokens[tokens.len() - last - 1]) {
                last += 1;
            }
        }
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(name: &str, bytes: &[u8], expected: &[u32]) {
        let t = Tokenizer::new(name).unwrap();
        assert_eq!(t.encode_bytes(bytes), expected, "{bytes:?}");
        assert_eq!(t.decode_bytes(&t.encode_bytes(bytes)).unwrap(), bytes);
    }

    #[test]
    fn encode_bytes_is_tiktokens() {
        // tiktoken 0.14.0's own test and values from its `_encode_bytes`.
        check("cl100k_base", b" \xec\x8b\xa4\xed", &[62085]);
        check("cl100k_base", b"hello world", &[15339, 1917]);
        check("cl100k_base", b"", &[]);
        for n in 0..10 {
            let bytes = vec![0x80; n];
            let t = Tokenizer::new("r50k_base").unwrap();
            assert_eq!(t.decode_bytes(&t.encode_bytes(&bytes)).unwrap(), bytes);
        }
    }

    #[test]
    fn single_piece_skips_the_pretokenizer() {
        let t = Tokenizer::new("cl100k_base").unwrap();
        assert_eq!(t.encode_single_piece(b""), Vec::<u32>::new());
        let joined = t.encode_single_piece(b"hello world");
        assert_eq!(t.decode_bytes(&joined).unwrap(), b"hello world");
        assert_eq!(t.encode_single_piece(b"hello"), vec![15339]);
    }
}
