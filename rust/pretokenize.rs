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

use crate::encodings::Dialect;

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

    /// The most common piece, an ASCII word with its optional one-character prefix, found
    /// with byte tests alone; `None` sends anything else (or anything touching non-ASCII,
    /// where letter classes, marks and case folding matter) to the general matcher.
    #[inline]
    fn ascii_word(&self, i: usize, dialect: Dialect) -> Option<usize> {
        let b = self.bytes;
        let b0 = *b.get(i)?;
        let mut j = i;
        if !b0.is_ascii_alphabetic() {
            let prefix = match dialect {
                Dialect::R50k => b0 == b' ',
                _ => {
                    b0 < 0x80 && !b0.is_ascii_alphanumeric() && !matches!(b0, b'\r' | b'\n' | b'\'')
                }
            };
            if !prefix || !b.get(i + 1)?.is_ascii_alphabetic() {
                return None;
            }
            j += 1;
        }
        let run = |mut j: usize, keep: fn(&u8) -> bool| {
            while b.get(j).is_some_and(keep) {
                j += 1;
            }
            j
        };
        let end = match dialect {
            // `U*L+` or else `U+L*`: in ASCII, both are the upper-case run then the lower.
            Dialect::O200k => run(run(j, u8::is_ascii_uppercase), u8::is_ascii_lowercase),
            _ => run(j, u8::is_ascii_alphabetic),
        };
        match b.get(end) {
            Some(&c) if c >= 0x80 => None,
            // o200k's optional contraction suffix (`'s`, `'ll`, ..., case-folded).
            Some(b'\'') if dialect == Dialect::O200k => {
                Some(self.contraction(end, true).unwrap_or(end))
            }
            _ => Some(end),
        }
    }

    /// The class of an ASCII byte, from the same table as [`Text::at`].
    #[inline]
    fn ascii_class(&self, b: u8) -> u8 {
        self.table.blocks[0][usize::from(b)]
    }

    /// The other common pieces of English (whitespace, punctuation, digits) for cl100k and
    /// o200k, found with byte tests when they and the character after them are ASCII;
    /// `None` sends anything else to the general matcher.
    #[inline]
    fn ascii_other(&self, i: usize, dialect: Dialect) -> Option<usize> {
        if dialect == Dialect::R50k {
            return None;
        }
        let b = self.bytes;
        let b0 = *b.get(i)?;
        let next = b.get(i + 1).copied();
        if b0 >= 0x80 || next.is_some_and(|n| n >= 0x80) {
            return None;
        }
        let c1 = next.map(|n| self.ascii_class(n));
        match self.ascii_class(b0) {
            // `\p{N}{1,3}`: a non-ASCII character among the three may be a number too.
            NUMBER => {
                let mut j = i + 1;
                while j < i + 3 {
                    match b.get(j) {
                        Some(d) if d.is_ascii_digit() => j += 1,
                        Some(d) if *d >= 0x80 => return None,
                        _ => break,
                    }
                }
                Some(j)
            }
            // A prefix before a letter makes a word; else ` ?[^\s\p{L}\p{N}]+` and newlines.
            OTHER if !c1.is_some_and(is_letter) => self.ascii_punctuation(i, dialect),
            SPACE => {
                let newline = b0 == b'\r' || b0 == b'\n';
                if !newline && c1.is_some_and(is_letter) {
                    return None;
                }
                if b0 == b' ' && c1 == Some(OTHER) {
                    return self.ascii_punctuation(i + 1, dialect);
                }
                self.ascii_spaces(i, dialect)
            }
            _ => None,
        }
    }

    /// A run of ASCII punctuation from `i`, then `[\r\n]*` (cl100k) or `[\r\n/]*` (o200k);
    /// `None` if the run meets non-ASCII, which may continue it.
    fn ascii_punctuation(&self, i: usize, dialect: Dialect) -> Option<usize> {
        let mut j = i;
        while let Some(&c) = self.bytes.get(j) {
            if c >= 0x80 {
                return None;
            }
            if self.ascii_class(c) != OTHER {
                break;
            }
            j += 1;
        }
        Some(self.newlines(j, dialect == Dialect::O200k))
    }

    /// The whitespace alternatives on a run of ASCII whitespace from `i` (cl100k's `\s++$`
    /// first, then both dialects' newline rule, then `\s+(?!\S)` or `\s`); `None` if the
    /// run meets non-ASCII, which may be whitespace too.
    fn ascii_spaces(&self, i: usize, dialect: Dialect) -> Option<usize> {
        let (mut j, mut newline) = (i, None);
        while let Some(&c) = self.bytes.get(j) {
            if c >= 0x80 {
                return None;
            }
            if self.ascii_class(c) != SPACE {
                break;
            }
            j += 1;
            if c == b'\r' || c == b'\n' {
                newline = Some(j);
            }
        }
        let at_end = j == self.bytes.len();
        if at_end && dialect == Dialect::Cl100k {
            return Some(j);
        }
        Some(newline.unwrap_or(if at_end || j - i < 2 { j } else { j - 1 }))
    }

    fn next(&self, dialect: Dialect, i: usize) -> Option<usize> {
        if let Some(end) = self.ascii_word(i, dialect) {
            return Some(end);
        }
        if let Some(end) = self.ascii_other(i, dialect) {
            return Some(end);
        }
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
    text: &'a str,
    view: Text<'a>,
    dialect: Dialect,
    pos: usize,
}

impl<'a> Pieces<'a> {
    /// Splits `text` the way `dialect`'s pattern does.
    pub fn new(text: &'a str, dialect: Dialect) -> Self {
        Self {
            text,
            view: Text {
                bytes: text.as_bytes(),
                table: classes(),
            },
            dialect,
            pos: 0,
        }
    }

    /// The byte offset the next piece starts at.
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for Pieces<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let start = self.pos;
        let end = self.view.next(self.dialect, start)?;
        self.pos = end;
        self.text.get(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encodings::pattern;
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
        ] {
            check(text);
        }
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
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn matches_fancy_regex_on_tricky_alphabet(text in alphabet()) {
            check(&text);
        }

        #[test]
        fn matches_fancy_regex_on_ascii_words(text in "[a-zA-Z '\n\r\t.,_0-9/(-]{0,40}") {
            check(&text);
        }

        #[test]
        fn matches_fancy_regex_on_any_text(text in "\\PC{0,30}") {
            check(&text);
        }
    }
}
