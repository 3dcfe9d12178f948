//! Candidate search: the few positions where a sentence can end (end marks and line
//! breaks), found in each storage's own units without decoding the text.
//!
//! - UTF-8: SIMD `memchr` on `.?!`, `\n` and `\\` (escapes), and the lead bytes of the
//!   other end marks.
//! - Latin-1: the same for `.?!`, `\n` and `\\`; no other end mark fits in one byte.
//! - UCS-2 and UCS-4: blocks of 64 units compared with the whole mark set at once (loops
//!   the compiler turns into vector compares) into a bit mask, whose set bits are the
//!   hits. A `memchr` on the low byte would stop at every `a` (U+FF61 `｡` ends in 0x61)
//!   and at the many CJK letters that share low bytes with marks.
//!
//! Hits are positions in the storage's units; a hit may still be no end mark (a UTF-8 lead
//! byte of some other character): the scan decides.

use crate::units::{Fixed, Units, Utf8};

/// A text the sentence scan can read: a storage with a way to find its candidates.
pub trait Scan<'a>: Units<'a> {
    /// The candidate finder of this storage.
    type Hits: Hits;

    /// A finder over the whole text.
    fn hits(self) -> Self::Hits;
}

/// Finds candidates in increasing order.
pub trait Hits: Clone + std::fmt::Debug {
    /// The first candidate at or after `pos` (`pos` only grows from call to call).
    fn find(&mut self, pos: usize) -> Option<usize>;
}

impl<'a> Scan<'a> for Utf8<'a> {
    type Hits = MemchrHits<'a>;

    fn hits(self) -> MemchrHits<'a> {
        let bytes = self.0.as_bytes();
        MemchrHits::new(bytes, bytes)
    }
}

impl<'a> Scan<'a> for Fixed<'a, u8> {
    type Hits = MemchrHits<'a>;

    fn hits(self) -> MemchrHits<'a> {
        // Latin-1 bytes 0xE2, 0xE3 and 0xEF are letters (â ã ï), not lead bytes.
        MemchrHits::new(self.units(), &[])
    }
}

impl<'a> Scan<'a> for Fixed<'a, u16> {
    type Hits = WideHits<'a, u16>;

    fn hits(self) -> WideHits<'a, u16> {
        WideHits::new(self.units())
    }
}

impl<'a> Scan<'a> for Fixed<'a, u32> {
    type Hits = WideHits<'a, u32>;

    fn hits(self) -> WideHits<'a, u32> {
        WideHits::new(self.units())
    }
}

/// Three SIMD `memchr` iterators run side by side, each holding its next hit: `.?!`,
/// `\n` with `\\`, and the UTF-8 lead bytes of the other end marks (0xE2 for U+2026 `…` to U+22EF
/// `⋯`, 0xE3 for U+3002 `。`, 0xEF for U+FF01 `！` to U+FF61 `｡`), searched in `leads`
/// (the text for UTF-8, empty for Latin-1). Lead bytes are never inside a character, so
/// every hit is at a character boundary.
#[derive(Debug, Clone)]
pub struct MemchrHits<'a> {
    bytes: &'a [u8],
    marks: memchr::Memchr3<'a>,
    lines: memchr::Memchr2<'a>,
    leads: memchr::Memchr3<'a>,
    /// The next hit of each iterator (`usize::MAX` once it has no more).
    next: [usize; 3],
}

impl<'a> MemchrHits<'a> {
    fn new(bytes: &'a [u8], leads: &'a [u8]) -> Self {
        let mut hits = Self {
            bytes,
            marks: memchr::memchr3_iter(b'.', b'?', b'!', bytes),
            lines: memchr::memchr2_iter(b'\n', b'\\', bytes),
            leads: memchr::memchr3_iter(0xE2, 0xE3, 0xEF, leads),
            next: [0; 3],
        };
        for k in 0..3 {
            hits.next[k] = hits.advance(k);
        }
        hits
    }

    fn advance(&mut self, k: usize) -> usize {
        let found = match k {
            0 => self.marks.next(),
            1 => self.lines.next(),
            _ => self.leads.next(),
        };
        found.unwrap_or(usize::MAX)
    }
}

impl Hits for MemchrHits<'_> {
    fn find(&mut self, pos: usize) -> Option<usize> {
        for k in 0..2 {
            while self.next[k] < pos {
                self.next[k] = self.advance(k);
            }
        }
        // Lead bytes of characters that are no end mark (kana, curly quotes, dashes) are
        // dropped here, from their second byte, without decoding them.
        while self.next[2] < pos || !maybe_mark(&self.bytes[self.next[2].min(self.bytes.len())..]) {
            self.next[2] = self.advance(2);
        }
        let first = self.next[0].min(self.next[1]).min(self.next[2]);
        (first != usize::MAX).then_some(first)
    }
}

/// Whether the UTF-8 bytes at a lead-byte hit can start an end mark: the second byte must
/// be one the non-ASCII end marks have (0x80/0x81/0x8B after 0xE2, 0x80 after 0xE3,
/// 0xBC/0xBD after 0xEF). Past the end (no more hits) counts as a mark, ending the search.
fn maybe_mark(bytes: &[u8]) -> bool {
    match bytes {
        [0xE2, b, ..] => matches!(b, 0x80 | 0x81 | 0x8B),
        [0xE3, b, ..] => *b == 0x80,
        [0xEF, b, ..] => matches!(b, 0xBC | 0xBD),
        _ => true,
    }
}

/// Two- and four-byte units, compared with the marks in their own width.
pub trait Wide:
    Copy + PartialOrd + From<u16> + std::ops::BitOr<Output = Self> + std::fmt::Debug + 'static
{
}

impl Wide for u16 {}
impl Wide for u32 {}

/// Whether a unit is `\n`, `\\`, `.`, `?` or `!`: all the candidates below U+2000.
#[inline]
fn ascii_candidate<U: Wide>(u: U) -> bool {
    let is = |c: u16| u == U::from(c);
    is(0x0A) | is(0x5C) | is(0x2E) | is(0x3F) | is(0x21)
}

/// Whether a unit is `\n`, `\\` or an end mark (see [`super::marks::mark`]; a test checks the
/// two lists agree on every code point below U+10000, and no mark lies above).
#[inline]
fn candidate<U: Wide>(u: U) -> bool {
    let is = |c: u16| u == U::from(c);
    is(0x0A)
        | is(0x5C)
        | is(0x2E)
        | is(0x3F)
        | is(0x21)
        | is(0x2026)
        | is(0x22EF)
        | is(0x203C)
        | is(0x2047)
        | is(0x2048)
        | is(0x2049)
        | is(0x3002)
        | is(0xFF01)
        | is(0xFF0E)
        | is(0xFF1B)
        | is(0xFF1F)
        | is(0xFF61)
}

/// Units per block: one bit each in a `u64` mask.
const BLOCK: usize = 64;

/// The candidates of `block` (at most [`BLOCK`] units) as bits, bit `k` for unit `k`. A
/// full block is compared into a byte array first, so the compiler vectorises the compares
/// (a scalar search compares each unit with every mark in turn: 5 ns a unit). A block
/// below U+2000 (English stored two bytes a character for one curly quote or dash
/// elsewhere) can only hold the ASCII candidates: four compares a unit instead of sixteen.
#[inline]
fn mask_of<U: Wide>(block: &[U]) -> u64 {
    let Ok(full) = <&[U; BLOCK]>::try_from(block) else {
        return block
            .iter()
            .enumerate()
            .fold(0, |m, (k, &u)| m | u64::from(candidate(u)) << k);
    };
    let any = full.iter().fold(U::from(0), |acc, &u| acc | u);
    let mut bits = [0u8; BLOCK];
    if any < U::from(0x2000) {
        for (b, &u) in bits.iter_mut().zip(full) {
            *b = u8::from(ascii_candidate(u));
        }
    } else {
        for (b, &u) in bits.iter_mut().zip(full) {
            *b = u8::from(candidate(u));
        }
    }
    bits.iter()
        .enumerate()
        .fold(0, |m, (k, &b)| m | u64::from(b) << k)
}

/// UCS-2 or UCS-4 units, searched a block of [`BLOCK`] at a time; the mask of the current
/// block is kept, so hits close together (a period every few words) cost a bit search each.
#[derive(Debug, Clone)]
pub struct WideHits<'a, U> {
    units: &'a [U],
    /// Start of the block `mask` describes (a multiple of [`BLOCK`]).
    block: usize,
    mask: u64,
}

impl<'a, U: Wide> WideHits<'a, U> {
    fn new(units: &'a [U]) -> Self {
        Self {
            units,
            block: 0,
            mask: mask_of(&units[..units.len().min(BLOCK)]),
        }
    }

    /// Makes the block at `start` the current one.
    fn load(&mut self, start: usize) {
        let end = self.units.len().min(start + BLOCK);
        self.block = start;
        self.mask = mask_of(&self.units[start..end]);
    }
}

impl<U: Wide> Hits for WideHits<'_, U> {
    fn find(&mut self, pos: usize) -> Option<usize> {
        let len = self.units.len();
        let mut start = pos - pos % BLOCK;
        if start >= len {
            return None;
        }
        if start != self.block {
            self.load(start);
        }
        let mut mask = self.mask & (u64::MAX << (pos - start));
        while mask == 0 {
            start += BLOCK;
            if start >= len {
                return None;
            }
            self.load(start);
            mask = self.mask;
        }
        Some(start + mask.trailing_zeros() as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::super::marks::mark;
    use super::*;

    fn wanted(u: u32) -> bool {
        char::from_u32(u).is_some_and(|c| c == '\n' || c == '\\' || mark(c).is_some())
    }

    #[test]
    fn wide_candidates_are_the_marks_and_line_breaks() {
        for u in 0..=0xFFFFu16 {
            assert_eq!(candidate(u), wanted(u.into()), "U+{u:04X}");
            assert_eq!(candidate(u32::from(u)), wanted(u.into()), "U+{u:04X}");
            if u < 0x2000 {
                assert_eq!(ascii_candidate(u), wanted(u.into()), "U+{u:04X}");
            }
        }
        for u in 0x1_0000..=0x10_FFFFu32 {
            assert!(!wanted(u) && !candidate(u), "U+{u:04X}");
        }
    }

    #[test]
    fn latin1_needs_no_lead_bytes() {
        for u in 0..=0xFFu32 {
            let searched = [0x0A, 0x5C, 0x2E, 0x3F, 0x21].contains(&u);
            assert_eq!(searched, wanted(u), "U+{u:04X}");
        }
    }

    /// Every hit of every storage, from 0 on.
    fn all<H: Hits>(mut hits: H) -> Vec<usize> {
        let mut out = Vec::new();
        let mut pos = 0;
        while let Some(i) = hits.find(pos) {
            out.push(i);
            pos = i + 1;
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn every_storage_finds_the_same_marks(
            s in "[a .?!\n\\\\\u{e2}\u{e3}\u{ef}…⋯‼。！？；｡．’かã漢😀]{0,80}",
        ) {
            use crate::units::tests::{latin1, ucs2, ucs4};
            let chars: Vec<char> = s.chars().collect();
            let want: Vec<usize> = (0..chars.len())
                .filter(|&i| wanted(chars[i].into()))
                .collect();
            let starts: Vec<usize> = s.char_indices().map(|(i, _)| i).collect();
            // UTF-8 hits are byte offsets; lead bytes of non-marks may remain.
            let utf8: Vec<usize> = all(Utf8(&s).hits())
                .into_iter()
                .map(|b| starts.binary_search(&b).unwrap())
                .filter(|&i| wanted(chars[i].into()))
                .collect();
            proptest::prop_assert_eq!(&utf8, &want);
            if let Some(units) = latin1(&s) {
                proptest::prop_assert_eq!(&all(Fixed::new(&units[..]).unwrap().hits()), &want);
            }
            if let Some(units) = ucs2(&s) {
                proptest::prop_assert_eq!(&all(Fixed::new(&units[..]).unwrap().hits()), &want);
            }
            let units = ucs4(&s);
            proptest::prop_assert_eq!(&all(Fixed::new(&units[..]).unwrap().hits()), &want);
        }
    }
}
