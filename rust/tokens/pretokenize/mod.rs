//! Hand-written pre-tokenizers: split text into the pieces tiktoken's regexes would match,
//! before byte-pair encoding each piece.
//!
//! tiktoken runs these patterns on `fancy-regex` because they use look-ahead (`\s+(?!\S)`)
//! and possessive quantifiers; a backtracking VM is the slowest part of its encoder. Each
//! pattern is a leftmost-first alternation over a handful of character classes, so a
//! hand-written matcher that tries the alternatives in order, and emulates backtracking where
//! it matters (o200k's `U*Lw+`, `\s*[\r\n]`, `\s+(?!\S)`), gives the same pieces at several
//! times the speed. The tests check it against `fancy-regex` on the exact patterns.
//!
//! Character classes come from `regex-syntax`, the tables the regex engines use, so Unicode
//! versions agree with tiktoken's engine.

use std::sync::OnceLock;

use regex_syntax::hir::{Class, HirKind};

use crate::tokens::encodings::Dialect;
mod ascii;

use ascii::ascii_piece;

const OTHER: u8 = 0;
const SPACE: u8 = 1;
const NUMBER: u8 = 2;
/// `Lu`, `Lt`: upper-case only.
const UPPER: u8 = 3;
/// `Ll`: lower-case only.
const LOWER: u8 = 4;
/// `Lm`, `Lo`: letters o200k counts as both upper- and lower-case.
const CASELESS: u8 = 5;
/// `M`: marks, not letters (`\p{L}`), but in both of o200k's letter classes.
const MARK: u8 = 6;

/// The general-category class of every code point, in 256-code-point blocks shared when equal.
struct Classes {
    index: Vec<u16>,
    blocks: Vec<[u8; 256]>,
}

fn ranges(pattern: &str) -> Vec<(usize, usize)> {
    let Ok(hir) = regex_syntax::Parser::new().parse(pattern) else {
        return Vec::new();
    };
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|r| (r.start() as usize, r.end() as usize))
            .collect(),
        _ => Vec::new(),
    }
}

fn classes() -> &'static Classes {
    static TABLE: OnceLock<Classes> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut flat = vec![OTHER; 0x11_0000];
        let sets = [
            (r"\p{Lu}", UPPER),
            (r"\p{Lt}", UPPER),
            (r"\p{Ll}", LOWER),
            (r"\p{Lm}", CASELESS),
            (r"\p{Lo}", CASELESS),
            (r"\p{M}", MARK),
            (r"\p{N}", NUMBER),
            (r"\s", SPACE),
        ];
        for (pattern, class) in sets {
            for (a, b) in ranges(pattern) {
                flat[a..=b].fill(class);
            }
        }
        let mut table = Classes {
            index: Vec::with_capacity(flat.len() / 256),
            blocks: Vec::new(),
        };
        for chunk in flat.chunks_exact(256) {
            let mut block = [OTHER; 256];
            block.copy_from_slice(chunk);
            let id = table
                .blocks
                .iter()
                .position(|b| *b == block)
                .unwrap_or_else(|| {
                    table.blocks.push(block);
                    table.blocks.len() - 1
                });
            table.index.push(id as u16);
        }
        table
    })
}

fn is_letter(c: u8) -> bool {
    matches!(c, UPPER | LOWER | CASELESS)
}

/// `[^\s\p{L}\p{N}]`.
fn is_other(c: u8) -> bool {
    matches!(c, OTHER | MARK)
}

/// o200k's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`.
fn is_upper(c: u8) -> bool {
    matches!(c, UPPER | CASELESS | MARK)
}

/// o200k's `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`.
fn is_lower(c: u8) -> bool {
    matches!(c, LOWER | CASELESS | MARK)
}

fn is_newline(ch: u32) -> bool {
    ch == u32::from(b'\r') || ch == u32::from(b'\n')
}

/// A position-wise view of one text: code point, class and length at a byte offset.
struct Text<'a> {
    bytes: &'a [u8],
    table: &'static Classes,
}

impl Text<'_> {
    /// `(class, code point, length in bytes)` of the character at `i`, if any.
    #[inline]
    fn at(&self, i: usize) -> Option<(u8, u32, usize)> {
        let b = self.bytes;
        let b0 = *b.get(i)?;
        let (ch, len) = if b0 < 0x80 {
            (u32::from(b0), 1)
        } else if b0 < 0xE0 {
            ((u32::from(b0 & 0x1F) << 6) | u32::from(b[i + 1] & 0x3F), 2)
        } else if b0 < 0xF0 {
            let ch = (u32::from(b0 & 0x0F) << 12)
                | (u32::from(b[i + 1] & 0x3F) << 6)
                | u32::from(b[i + 2] & 0x3F);
            (ch, 3)
        } else {
            let ch = (u32::from(b0 & 0x07) << 18)
                | (u32::from(b[i + 1] & 0x3F) << 12)
                | (u32::from(b[i + 2] & 0x3F) << 6)
                | u32::from(b[i + 3] & 0x3F);
            (ch, 4)
        };
        let block = self.table.index[(ch >> 8) as usize] as usize;
        Some((self.table.blocks[block][(ch & 0xFF) as usize], ch, len))
    }

    fn class(&self, i: usize) -> Option<u8> {
        self.at(i).map(|(c, _, _)| c)
    }

    /// The end of the run of characters from `i` whose class satisfies `keep`.
    #[inline]
    fn run(&self, mut i: usize, keep: impl Fn(u8) -> bool) -> usize {
        while let Some((c, _, len)) = self.at(i) {
            if !keep(c) {
                break;
            }
            i += len;
        }
        i
    }

    /// The end of a run of `\r`, `\n` (and `/` when `slash`) from `i`.
    fn newlines(&self, mut i: usize, slash: bool) -> usize {
        while let Some(&b) = self.bytes.get(i) {
            if !(b == b'\r' || b == b'\n' || (slash && b == b'/')) {
                break;
            }
            i += 1;
        }
        i
    }

    /// Up to three numbers (`\p{N}{1,3}`).
    fn digits(&self, mut i: usize) -> usize {
        for _ in 0..3 {
            match self.at(i) {
                Some((NUMBER, _, len)) => i += len,
                _ => break,
            }
        }
        i
    }

    /// The end of a contraction starting with the apostrophe at `i`: `'s 't 'd 'm 'll 've 're`,
    /// case-insensitively (`(?i)`, where `s` also folds to U+017F `ſ`) when `fold`.
    fn contraction(&self, i: usize, fold: bool) -> Option<usize> {
        let lower = |j: usize| -> Option<(u32, usize)> {
            let (_, ch, len) = self.at(j)?;
            let ch = match ch {
                0x17F if fold => u32::from(b's'),
                0x41..=0x5A if fold => ch + 32,
                _ => ch,
            };
            Some((ch, len))
        };
        let (first, len1) = lower(i + 1)?;
        let first = u8::try_from(first).ok()?;
        if matches!(first, b's' | b'd' | b'm' | b't') {
            return Some(i + 1 + len1);
        }
        let (second, len2) = lower(i + 1 + len1)?;
        let pair = (first, u8::try_from(second).ok()?);
        matches!(pair, (b'l', b'l') | (b'v' | b'r', b'e')).then_some(i + 1 + len1 + len2)
    }

    /// A whitespace run from `i`: `(end, start of its last char, chars, end of its last
    /// newline)`.
    fn spaces(&self, mut i: usize) -> (usize, usize, usize, Option<usize>) {
        let (mut last, mut count, mut newline) = (i, 0, None);
        while let Some((SPACE, ch, len)) = self.at(i) {
            last = i;
            count += 1;
            i += len;
            if is_newline(ch) {
                newline = Some(i);
            }
        }
        (i, last, count, newline)
    }

    /// `\s+(?!\S)` then `\s` or `\s+`: the run, less its last character when a non-space
    /// follows and the run has more than one.
    fn trailing_spaces(&self, i: usize) -> usize {
        let (end, last, count, _) = self.spaces(i);
        if end == self.bytes.len() || count < 2 {
            end
        } else {
            last
        }
    }

    /// `' ?[^\s\p{L}\p{N}]+'` then a run of newlines (and slashes), if it matches at `i`.
    fn punctuation(&self, i: usize, ch0: u32, slash: bool) -> Option<usize> {
        let start = if ch0 == u32::from(b' ') && self.class(i + 1).is_some_and(is_other) {
            i + 1
        } else if self.class(i).is_some_and(is_other) {
            i
        } else {
            return None;
        };
        Some(self.newlines(self.run(start, is_other), slash))
    }

    fn next_r50k(&self, i: usize, c0: u8, ch0: u32) -> usize {
        if ch0 == u32::from(b'\'') {
            if let Some(end) = self.contraction(i, false) {
                return end;
            }
        }
        let start = if ch0 == u32::from(b' ') { i + 1 } else { i };
        match self.class(start) {
            Some(c) if is_letter(c) => self.run(start, is_letter),
            Some(NUMBER) => self.run(start, |c| c == NUMBER),
            Some(c) if is_other(c) => self.run(start, is_other),
            _ if c0 == SPACE => self.trailing_spaces(i),
            _ => i + 1, // unreachable: every class is handled above
        }
    }

    fn next_cl100k(&self, i: usize, c0: u8, ch0: u32, len0: usize) -> usize {
        if ch0 == u32::from(b'\'') {
            if let Some(end) = self.contraction(i, true) {
                return end;
            }
        }
        if is_letter(c0) {
            return self.run(i, is_letter);
        }
        if c0 != NUMBER && !is_newline(ch0) && self.class(i + len0).is_some_and(is_letter) {
            return self.run(i + len0, is_letter);
        }
        if c0 == NUMBER {
            return self.digits(i);
        }
        if let Some(end) = self.punctuation(i, ch0, false) {
            return end;
        }
        let (end, _, _, newline) = self.spaces(i);
        if end == self.bytes.len() {
            return end;
        }
        newline.unwrap_or_else(|| self.trailing_spaces(i))
    }

    /// o200k's first letter pattern after its optional prefix: `U*Lw+`, backtracking into
    /// the upper-case run to find a character both classes share when no `Ll` follows it.
    fn lower_word(&self, i: usize) -> Option<usize> {
        let (mut j, mut shared) = (i, None);
        while let Some((c, _, len)) = self.at(j) {
            if !is_upper(c) {
                break;
            }
            if is_lower(c) {
                shared = Some(j);
            }
            j += len;
        }
        let start = if self.class(j) == Some(LOWER) {
            j
        } else {
            shared?
        };
        Some(self.run(start, is_lower))
    }

    /// o200k's second letter pattern after its prefix: `U+Lw*`.
    fn upper_word(&self, i: usize) -> Option<usize> {
        let end = self.run(i, is_upper);
        (end > i).then(|| self.run(end, is_lower))
    }

    fn next_o200k(&self, i: usize, c0: u8, ch0: u32, len0: usize) -> usize {
        let prefixed = is_other(c0) || (c0 == SPACE && !is_newline(ch0));
        let starts = [prefixed.then_some(i + len0), Some(i)];
        let word = starts
            .iter()
            .flatten()
            .find_map(|&s| self.lower_word(s))
            .or_else(|| starts.iter().flatten().find_map(|&s| self.upper_word(s)));
        if let Some(end) = word {
            let apostrophe = self.bytes.get(end) == Some(&b'\'');
            return apostrophe
                .then(|| self.contraction(end, true))
                .flatten()
                .unwrap_or(end);
        }
        if c0 == NUMBER {
            return self.digits(i);
        }
        if let Some(end) = self.punctuation(i, ch0, true) {
            return end;
        }
        let (_, _, _, newline) = self.spaces(i);
        newline.unwrap_or_else(|| self.trailing_spaces(i))
    }

    /// The end of the piece at `i` by the general matcher, which handles every character.
    #[inline(never)]
    fn next(&self, dialect: Dialect, i: usize) -> Option<usize> {
        let (c0, ch0, len0) = self.at(i)?;
        let end = match dialect {
            Dialect::R50k => self.next_r50k(i, c0, ch0),
            Dialect::Cl100k => self.next_cl100k(i, c0, ch0, len0),
            Dialect::O200k => self.next_o200k(i, c0, ch0, len0),
        };
        Some(end.max(i + len0))
    }
}

/// The pieces of `text` in order, as tiktoken's pre-tokenizer regex finds them.
pub struct Pieces<'a> {
    /// The text not yet split: pieces are cut off its front.
    rest: &'a str,
    view: Text<'a>,
    dialect: Dialect,
}

impl<'a> Pieces<'a> {
    /// Splits `text` the way `dialect`'s pattern does.
    pub fn new(text: &'a str, dialect: Dialect) -> Self {
        Self {
            rest: text,
            view: Text {
                bytes: text.as_bytes(),
                table: classes(),
            },
            dialect,
        }
    }

    /// The byte offset the next piece starts at.
    pub fn position(&self) -> usize {
        self.view.bytes.len() - self.rest.len()
    }

    /// The length of the next piece: the fast path, specialised per dialect, else the
    /// general matcher.
    #[inline]
    fn next_len(&self) -> Option<usize> {
        let s = self.rest.as_bytes();
        let fast = match self.dialect {
            Dialect::R50k => ascii_piece(s, Dialect::R50k),
            Dialect::Cl100k => ascii_piece(s, Dialect::Cl100k),
            Dialect::O200k => ascii_piece(s, Dialect::O200k),
        };
        debug_assert_ne!(fast, Some(0), "the fast path made an empty piece");
        // An empty piece would never advance: hand it to the general matcher instead.
        fast.filter(|&n| n > 0).or_else(|| {
            let start = self.position();
            Some(self.view.next(self.dialect, start)? - start)
        })
    }
}

impl<'a> Iterator for Pieces<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let len = self.next_len()?;
        // One char-boundary check (pieces always end on one), not two as `get(a..b)` makes.
        let (piece, rest) = self.rest.split_at_checked(len)?;
        self.rest = rest;
        Some(piece)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::encodings::pattern;
    use crate::tokens::pretokenize::ascii::{
        KINDS, K_BLANK, K_DIGIT, K_HIGH, K_LOWER, K_NEWLINE, K_PUNCT, K_SLASH, K_UPPER,
    };
    use proptest::prelude::*;

    const DIALECTS: [Dialect; 3] = [Dialect::R50k, Dialect::Cl100k, Dialect::O200k];

    /// tiktoken's own patterns on the engine tiktoken uses, compiled once per dialect
    /// (compiling them per case made this test take minutes in debug builds).
    fn oracle(text: &str, dialect: Dialect) -> Vec<String> {
        static COMPILED: std::sync::OnceLock<Vec<fancy_regex::Regex>> = std::sync::OnceLock::new();
        let all = COMPILED.get_or_init(|| {
            DIALECTS
                .iter()
                .map(|&d| fancy_regex::Regex::new(pattern(d)).unwrap())
                .collect()
        });
        let re = &all[DIALECTS.iter().position(|&d| d == dialect).unwrap()];
        re.find_iter(text)
            .map(|m| m.unwrap().as_str().to_owned())
            .collect()
    }

    #[track_caller]
    fn check(text: &str) {
        for dialect in DIALECTS {
            let got: Vec<&str> = Pieces::new(text, dialect).collect();
            assert_eq!(got, oracle(text, dialect), "{dialect:?} on {text:?}");
        }
    }

    #[test]
    fn hand_picked_edges() {
        for text in [
            "",
            "Hello world",
            "  leading  and trailing  ",
            "a\n\n  \n b\r\n\tc",
            "don't DON'T we'LL it'ſ 'x' '",
            "12345 1,234.5 ٣٤٥",
            "\u{301}X \u{301}a AbC ǅa ʰʰx 漢字かなカナ",
            "...hello $x (y) //\n/ ?!\r\n",
            "\u{3000} \u{a0}x\u{85}y\u{1680}",
            "ABCdef GHI'S xY'll",
            "ABCDEFGHIJklmnopqrstuv ABCDEFGHijklmnop abcdefghijklmnopq'S xYZabcdefghijk@[`{",
        ] {
            check(text);
        }
    }

    #[test]
    fn fast_path_byte_kinds_agree_with_the_unicode_classes() {
        let ascii = &classes().blocks[classes().index[0] as usize];
        for b in 0..0x80u8 {
            let want = match ascii[usize::from(b)] {
                LOWER => K_LOWER,
                UPPER => K_UPPER,
                NUMBER => K_DIGIT,
                SPACE if matches!(b, b'\r' | b'\n') => K_NEWLINE,
                SPACE => K_BLANK,
                OTHER if b == b'/' => K_PUNCT | K_SLASH,
                OTHER => K_PUNCT,
                other => panic!("unexpected class {other} for ASCII {b:#x}"),
            };
            assert_eq!(KINDS[usize::from(b)], want, "{b:#x}");
        }
        assert!(KINDS[0x80..].iter().all(|&k| k == K_HIGH));
    }

    #[test]
    fn fold_sets_of_contractions_are_exactly_these() {
        // (?i) in the regex engines: only `s` gains a third member (U+017F).
        for (letter, want) in [("s", 3), ("d", 2), ("m", 2), ("t", 2), ("l", 2), ("v", 2)] {
            let got: usize = ranges(&format!("(?i){letter}"))
                .iter()
                .map(|(a, b)| b - a + 1)
                .sum();
            assert_eq!(got, want, "{letter}");
        }
        assert_eq!(ranges("(?i)e").len() + ranges("(?i)r").len(), 4);
    }

    fn alphabet() -> impl Strategy<Value = String> {
        let chars = prop::sample::select(vec![
            'a', 'Z', 'é', 'ſ', 's', 'S', 'l', 'L', 'e', 'v', 'r', 'd', 'm', 't', '\'', ' ', ' ',
            '\n', '\r', '\t', '\u{3000}', '\u{a0}', '0', '7', '٣', '½', '.', '/', '$', '-',
            '\u{301}', '\u{94d}', 'ǅ', 'ʰ', '漢', 'か', '😀', '\u{85}', '\u{b}', '\u{1c}', 'Ⅻ',
        ]);
        prop::collection::vec(chars, 0..40).prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        // `with_cases` overrides `PROPTEST_CASES`, so read it here for longer runs.
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(2000)
        ))]
        #[test]
        fn matches_fancy_regex_on_tricky_alphabet(text in alphabet()) {
            check(&text);
        }

        #[test]
        fn matches_fancy_regex_on_ascii_words(text in "[a-zA-Z '\n\r\t.,_0-9/(-]{0,40}") {
            check(&text);
        }

        /// ASCII with the non-ASCII characters that can change an ASCII match next to it
        /// (letters, marks, numbers, spaces, `ſ`), for the fast path's hand-offs.
        #[test]
        fn matches_fancy_regex_on_mostly_ascii(
            text in "[a-zA-Z '\n\r\t\x0b\x0c.,_0-9/(-]{0,30}[é\u{301}ſ\u{a0}\u{85}٣½—]?[a-zA-Z '\n\r\t.,0-9/-]{0,10}"
        ) {
            check(&text);
        }

        /// Long words with case runs around the fast path's eight-byte steps.
        #[test]
        fn matches_fancy_regex_on_long_cased_words(
            text in "([A-Z]{0,12}[a-z]{0,12}[ '.\\[`{@é\u{301}0]){0,4}"
        ) {
            check(&text);
        }

        #[test]
        fn matches_fancy_regex_on_any_text(text in "\\PC{0,30}") {
            check(&text);
        }
    }
}
