//! The pre-tokenizers' ASCII fast path. English is mostly ASCII pieces (" word", "\n",
//! ", "), whose matches need only byte tests. One load from `KINDS` per byte answers every
//! test below, and any byte >= 0x80 where it could change the match (a non-ASCII letter
//! continuing a word, a non-breaking space continuing a run, `ſ` folding to `s`) hands the
//! piece to the general matcher in `mod.rs`, so this only has to be right on ASCII.

use crate::tokens::encodings::Dialect;

pub(crate) const K_LOWER: u8 = 1;
pub(crate) const K_UPPER: u8 = 2;
pub(crate) const K_LETTER: u8 = K_LOWER | K_UPPER;
pub(crate) const K_DIGIT: u8 = 4;
/// ASCII `\s` but newlines: tab, vertical tab, form feed, space.
pub(crate) const K_BLANK: u8 = 8;
/// `\r` and `\n`.
pub(crate) const K_NEWLINE: u8 = 16;
/// ASCII `\s`.
pub(crate) const K_SPACE: u8 = K_BLANK | K_NEWLINE;
/// ASCII `[^\s\p{L}\p{N}]`: everything else below 0x80.
pub(crate) const K_PUNCT: u8 = 32;
/// `/`, also [`K_PUNCT`]: o200k lets it trail punctuation along with newlines.
pub(crate) const K_SLASH: u8 = 64;
/// Bytes of non-ASCII characters.
pub(crate) const K_HIGH: u8 = 128;

/// The fast path's kind of every byte (built at compile time; checked in the tests against
/// the Unicode classes the general matcher uses).
pub(crate) const KINDS: [u8; 256] = {
    let mut t = [K_HIGH; 256];
    let mut b = 0;
    while b < 0x80 {
        t[b] = match b as u8 {
            b'a'..=b'z' => K_LOWER,
            b'A'..=b'Z' => K_UPPER,
            b'0'..=b'9' => K_DIGIT,
            b'\r' | b'\n' => K_NEWLINE,
            b'\t' | 0x0B | 0x0C | b' ' => K_BLANK,
            b'/' => K_PUNCT | K_SLASH,
            _ => K_PUNCT,
        };
        b += 1;
    }
    t
};

/// The kind of `s[j]`, or 0 (no kind) past the end.
#[inline]
fn kind(s: &[u8], j: usize) -> u8 {
    s.get(j).map_or(0, |&b| KINDS[usize::from(b)])
}

/// The end of the run of bytes from `j` whose kind shares a bit with `mask`, and the kind
/// of the byte there (0 at the end), which callers test next.
#[inline]
fn run(s: &[u8], mut j: usize, mask: u8) -> (usize, u8) {
    while let Some(&b) = s.get(j) {
        let k = KINDS[usize::from(b)];
        if k & mask == 0 {
            return (j, k);
        }
        j += 1;
    }
    (j, 0)
}

/// An ASCII letter class as a byte range, for testing eight bytes at once: a byte is in it
/// when it is ASCII and `b | fold` lies in `lo..=hi`; `mask` is the same class in [`KINDS`].
struct Letters {
    fold: u8,
    lo: u8,
    hi: u8,
    mask: u8,
}

const ANY_CASE: Letters = Letters {
    fold: 0x20,
    lo: b'a',
    hi: b'z',
    mask: K_LETTER,
};
const UPPER_CASE: Letters = Letters {
    fold: 0,
    lo: b'A',
    hi: b'Z',
    mask: K_UPPER,
};
const LOWER_CASE: Letters = Letters {
    fold: 0,
    lo: b'a',
    hi: b'z',
    mask: K_LOWER,
};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = ONES * 0x80;

/// The eight bytes at `j`, as a little-endian word, if there are eight.
#[inline]
fn word_at(s: &[u8], j: usize) -> Option<u64> {
    s.get(j..)?
        .first_chunk::<8>()
        .map(|c| u64::from_le_bytes(*c))
}

/// The high bit of each byte of `x` that is in `class` (SWAR: eight bytes in a few
/// instructions).
#[inline]
fn in_class(x: u64, class: &Letters) -> u64 {
    // Bytes below 0x80 after masking, so the additions never carry into the next byte.
    let t = (x | (ONES * u64::from(class.fold))) & !HIGH;
    let at_least_lo = t + ONES * u64::from(0x80 - class.lo);
    let above_hi = t + ONES * u64::from(0x7F - class.hi);
    at_least_lo & !above_hi & !x & HIGH
}

/// The end of the run of `class` letters from `j`, eight bytes per step while eight remain:
/// words are the longest common pieces, and this halves their cost.
#[inline]
fn letter_run(s: &[u8], mut j: usize, class: &Letters) -> usize {
    while let Some(x) = word_at(s, j) {
        let outside = !in_class(x, class) & HIGH;
        if outside != 0 {
            return j + (outside.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    run(s, j, class.mask).0
}

/// The end of o200k's ASCII word from `j`: upper-case run, then lower-case run. Both are
/// found in one eight-byte step when the upper-case run is shorter than eight.
#[inline]
fn cased_run(s: &[u8], j: usize) -> usize {
    if let Some(x) = word_at(s, j) {
        let not_upper = !in_class(x, &UPPER_CASE) & HIGH;
        if not_upper != 0 {
            let from = not_upper.trailing_zeros() & !7;
            let not_lower = !in_class(x, &LOWER_CASE) & HIGH & (u64::MAX << from);
            if not_lower != 0 {
                return j + (not_lower.trailing_zeros() / 8) as usize;
            }
            return letter_run(s, j + 8, &LOWER_CASE);
        }
    }
    letter_run(s, letter_run(s, j, &UPPER_CASE), &LOWER_CASE)
}

/// The length of the piece at the start of `s`, if the fast path can tell; `None` sends it
/// to the general matcher. Word shapes come first: they are most of English. Callers pass
/// `dialect` as a constant so each dialect gets its own copy, free of dialect tests.
#[inline]
pub(crate) fn ascii_piece(s: &[u8], dialect: Dialect) -> Option<usize> {
    let &b0 = s.first()?;
    let k0 = KINDS[usize::from(b0)];
    if k0 & K_LETTER != 0 {
        return ascii_word(s, 0, dialect);
    }
    let k1 = kind(s, 1);
    if b0 == b'\'' && dialect != Dialect::O200k {
        // cl100k and r50k try contractions (`'s`, `'ll`, ...) before anything else.
        if k1 & K_HIGH != 0 {
            return None;
        }
        if let Some(end) = ascii_contraction(s, 0, dialect == Dialect::Cl100k) {
            return Some(end);
        }
    }
    // The word's one-character prefix: r50k's optional space, else `[^\r\n\p{L}\p{N}]`.
    let prefix = match dialect {
        Dialect::R50k => b0 == b' ',
        _ => k0 & (K_PUNCT | K_BLANK) != 0,
    };
    if k1 & K_LETTER != 0 && prefix {
        return ascii_word(s, 1, dialect);
    }
    if k0 & K_PUNCT != 0 {
        return ascii_punctuation(s, 0, dialect);
    }
    if b0 == b' ' && k1 & K_PUNCT != 0 {
        return ascii_punctuation(s, 1, dialect);
    }
    if k0 & K_DIGIT != 0 {
        return ascii_digits(s, 0, dialect);
    }
    if b0 == b' ' && k1 & K_DIGIT != 0 && dialect == Dialect::R50k {
        return ascii_digits(s, 1, dialect);
    }
    if k0 & K_SPACE != 0 {
        return ascii_spaces(s, dialect);
    }
    None
}

/// A word whose letters start at `j`: `\p{L}+`, or o200k's `U*L+|U+L*` (in ASCII, the
/// upper-case run then the lower-case run) with its optional contraction suffix.
#[inline]
fn ascii_word(s: &[u8], j: usize, dialect: Dialect) -> Option<usize> {
    let end = match dialect {
        Dialect::O200k => cased_run(s, j),
        _ => letter_run(s, j, &ANY_CASE),
    };
    if kind(s, end) & K_HIGH != 0 {
        return None;
    }
    if dialect == Dialect::O200k && s.get(end) == Some(&b'\'') {
        if kind(s, end + 1) & K_HIGH != 0 {
            return None;
        }
        return Some(ascii_contraction(s, end, true).unwrap_or(end));
    }
    Some(end)
}

/// The end of `'s 't 'd 'm 'll 've 're` at the apostrophe at `at`, ASCII case folded when
/// `fold`. Callers rule out a non-ASCII byte after the apostrophe (`ſ` folds to `s`).
fn ascii_contraction(s: &[u8], at: usize, fold: bool) -> Option<usize> {
    let lower = |j: usize| {
        let b = *s.get(j)?;
        Some(if fold { b.to_ascii_lowercase() } else { b })
    };
    match lower(at + 1)? {
        b's' | b'd' | b'm' | b't' => Some(at + 2),
        b'l' => (lower(at + 2)? == b'l').then_some(at + 3),
        b'v' | b'r' => (lower(at + 2)? == b'e').then_some(at + 3),
        _ => None,
    }
}

/// Digits from `j`: `\p{N}{1,3}`, or r50k's `\p{N}+`. A non-ASCII character may be a
/// number too.
fn ascii_digits(s: &[u8], j: usize, dialect: Dialect) -> Option<usize> {
    let limit = match dialect {
        Dialect::R50k => s.len(),
        _ => s.len().min(j + 3),
    };
    let (end, next) = run(&s[..limit], j, K_DIGIT);
    let full = dialect != Dialect::R50k && end == j + 3;
    (full || next & K_HIGH == 0).then_some(end)
}

/// Punctuation from `j`: `[^\s\p{L}\p{N}]+`, then `[\r\n]*` (cl100k) or `[\r\n/]*` (o200k).
/// A non-ASCII character may continue the run.
fn ascii_punctuation(s: &[u8], j: usize, dialect: Dialect) -> Option<usize> {
    let (end, next) = run(s, j, K_PUNCT);
    if next & K_HIGH != 0 {
        return None;
    }
    Some(match dialect {
        Dialect::R50k => end,
        Dialect::Cl100k => run(s, end, K_NEWLINE).0,
        Dialect::O200k => run(s, end, K_NEWLINE | K_SLASH).0,
    })
}

/// The whitespace alternatives on the run at the start of `s`: `\s++$` (r50k and cl100k try
/// it first), the last newline (`\s*[\r\n]`, not in r50k), else `\s+(?!\S)` then `\s`: the
/// run less the character before the non-space, if that leaves any. A non-ASCII
/// character may be whitespace too.
fn ascii_spaces(s: &[u8], dialect: Dialect) -> Option<usize> {
    let (mut j, mut newline) = (0, None);
    while let Some(&b) = s.get(j) {
        let k = KINDS[usize::from(b)];
        if k & K_SPACE == 0 {
            if k & K_HIGH != 0 {
                return None;
            }
            break;
        }
        j += 1;
        if k & K_NEWLINE != 0 {
            newline = Some(j);
        }
    }
    let at_end = j == s.len();
    match newline {
        _ if at_end && dialect != Dialect::O200k => Some(j),
        Some(end) if dialect != Dialect::R50k => Some(end),
        _ => Some(if at_end || j < 2 { j } else { j - 1 }),
    }
}
