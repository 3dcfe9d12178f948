//! Latin-1, UCS-2 and UCS-4 text: one unit per code point, as CPython stores a `str`.
//!
//! One generic type serves the three widths. A Python `str` may hold lone surrogates,
//! which have no UTF-8 form. [`Fixed::new`] refuses those texts up front (with the index of
//! the first one, for the error message), so nothing later has to decide what they mean.
//! [`Fixed::lenient`] takes them as they are, for splits where UTF-8 never comes into it
//! (by code points, at literal separators, chunks cut from the units themselves): a
//! surrogate then reads as U+FFFD, which like it is neither whitespace nor any separator's
//! character, and the caller finds any surrogate later in a pass it makes anyway (building
//! the chunk strings, or their byte offsets), instead of in one more pass up front.

use super::{Storage, Units};

/// A code unit of a fixed-width storage: `u8` (Latin-1), `u16` (UCS-2) or `u32` (UCS-4).
pub trait Unit:
    bytemuck::Pod
    + Send
    + Sync
    + Into<u32>
    + Default
    + std::ops::Add<Output = Self>
    + std::ops::BitOr<Output = Self>
    + 'static
{
    /// The storage made of these units.
    const STORAGE: Storage;

    /// Whether the unit is a Unicode scalar value (not a surrogate, not above U+10FFFF).
    fn is_scalar(self) -> bool;

    /// UTF-8 bytes of the code point beyond the first (0 to 3), in the unit's own width so
    /// that a sum over many units runs in as many vector lanes as possible.
    #[must_use]
    fn utf8_extra(self) -> Self;

    /// The most UTF-8 bytes one unit can take (U+FFFD for a non-character takes 3).
    const UTF8_MAX: usize;

    /// How many [`Unit::utf8_extra`] values a sum in the unit's own width holds.
    const SUM_BLOCK: usize;

    /// Whether a block of these units is likely pure ASCII, so worth testing for that first:
    /// CPython stores any text below U+0100 as Latin-1, most of it English; a text is stored
    /// wider because of some character beyond, often in every block.
    const ASCII_FIRST: bool;

    /// The unit of an ASCII character (what joins pieces of text cut from these units).
    fn from_ascii(b: u8) -> Self;
}

impl Unit for u8 {
    const STORAGE: Storage = Storage::Latin1;

    #[inline]
    fn is_scalar(self) -> bool {
        true
    }

    #[inline]
    fn utf8_extra(self) -> Self {
        self >> 7
    }

    const UTF8_MAX: usize = 2;
    const SUM_BLOCK: usize = 255; // 255 extras of at most 1
    const ASCII_FIRST: bool = true;

    #[inline]
    fn from_ascii(b: u8) -> Self {
        b
    }
}

impl Unit for u16 {
    const STORAGE: Storage = Storage::Ucs2;

    #[inline]
    fn is_scalar(self) -> bool {
        !(0xD800..0xE000).contains(&self)
    }

    #[inline]
    fn utf8_extra(self) -> Self {
        u16::from(self >= 0x80) + u16::from(self >= 0x800)
    }

    const UTF8_MAX: usize = 3;
    const SUM_BLOCK: usize = 4096; // extras of at most 2: far below 65 535
    const ASCII_FIRST: bool = false;

    #[inline]
    fn from_ascii(b: u8) -> Self {
        u16::from(b)
    }
}

impl Unit for u32 {
    const STORAGE: Storage = Storage::Ucs4;

    #[inline]
    fn is_scalar(self) -> bool {
        self < 0xD800 || (0xE000..0x11_0000).contains(&self)
    }

    #[inline]
    fn utf8_extra(self) -> Self {
        u32::from(self >= 0x80) + u32::from(self >= 0x800) + u32::from(self >= 0x1_0000)
    }

    const UTF8_MAX: usize = 4;
    const SUM_BLOCK: usize = 4096;
    const ASCII_FIRST: bool = false;

    #[inline]
    fn from_ascii(b: u8) -> Self {
        u32::from(b)
    }
}

/// Text of one unit per code point; every unit is a Unicode scalar value.
#[derive(Debug, Clone, Copy)]
pub struct Fixed<'a, U>(&'a [U]);

impl<'a, U: Unit> Fixed<'a, U> {
    /// `units` as text, or the index of the first unit that is not a character (a lone
    /// surrogate, which a Python `str` may hold).
    pub fn new(units: &'a [U]) -> Result<Self, usize> {
        match first_invalid(units) {
            Some(at) => Err(at),
            None => Ok(Self(units)),
        }
    }

    /// `units` as text, lone surrogates included (see the module comment for the one use
    /// this is for: they read as U+FFFD, so any UTF-8 made of this text has U+FFFD there).
    pub fn lenient(units: &'a [U]) -> Self {
        Self(units)
    }

    /// The units.
    pub fn units(self) -> &'a [U] {
        self.0
    }
}

/// The index of the first unit that is not a scalar value. Blocks are checked with a fold
/// that has no early exit, which the compiler turns into vector instructions; only a block
/// with a bad unit is searched one by one.
fn first_invalid<U: Unit>(units: &[U]) -> Option<usize> {
    const BLOCK: usize = 256;
    units.chunks(BLOCK).enumerate().find_map(|(k, block)| {
        if block.iter().fold(false, |bad, &u| bad | !u.is_scalar()) {
            block
                .iter()
                .position(|&u| !u.is_scalar())
                .map(|i| k * BLOCK + i)
        } else {
            None
        }
    })
}

/// The character of a unit: U+FFFD for a lone surrogate, which only a [`Fixed::lenient`]
/// text holds.
#[inline]
fn to_char<U: Into<u32>>(u: U) -> char {
    char::from_u32(u.into()).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The OR of `units`: its highest bit is that of the widest unit (a fold the compiler
/// vectorises), which tells a text's kind and rules surrogates out below U+D800.
#[inline]
pub fn or_of<U: Unit>(units: &[U]) -> u32 {
    units.iter().fold(U::default(), |acc, &u| acc | u).into()
}

/// Whether every unit is a Unicode scalar value (a fold with no early exit, vectorised).
#[inline]
#[cfg_attr(not(feature = "python"), allow(dead_code))] // the binding's only user
pub fn all_scalar<U: Unit>(units: &[U]) -> bool {
    units.iter().fold(true, |ok, &u| ok & u.is_scalar())
}

/// UTF-8 bytes of `units` (one each, plus one at each of U+0080, U+0800 and U+10000), or
/// `None` if one is a lone surrogate, which has no UTF-8 form.
#[inline]
fn utf8_len<U: Unit>(units: &[U]) -> Option<usize> {
    let (len, _, scalar) = utf8_measure(units);
    scalar.then_some(len)
}

/// The UTF-8 length of `units` (a unit that is no character counted as U+FFFD is, three
/// bytes, or four beyond U+FFFF), their OR (whose highest bit tells the narrowest storage
/// that holds them, see [`or_of`]), and whether every one is a Unicode scalar value. One
/// fold per block sums the extra bytes and the units that are no character (in the units'
/// own width, lane for lane, so as many lanes as the vector holds) and ORs the units.
/// Latin-1 blocks are OR-ed first and skipped when ASCII ([`Unit::ASCII_FIRST`]). Compiled
/// for AVX2 too, picked at run time (`multiversion`): the native API measures every chunk
/// this way for its byte offsets and string kind.
#[multiversion::multiversion(targets("x86_64+avx2"))]
pub fn utf8_measure<U: Unit>(units: &[U]) -> (usize, u32, bool) {
    const BLOCK: usize = 4096;
    let (mut extra, mut any, mut scalar) = (0, 0, true);
    for block in units.chunks(BLOCK) {
        if U::ASCII_FIRST {
            let or = or_of(block);
            if or < 0x80 {
                any |= or;
                continue;
            }
        }
        for part in block.chunks(U::SUM_BLOCK) {
            // Units that are no character counted in the units' own width too (a `bool`
            // fold packs its lanes to bytes; a second pass read Chinese chunks twice).
            let zero = U::default();
            let (sum, or, bad) = part.iter().fold((zero, zero, zero), |(sum, or, bad), &u| {
                let bad = bad + U::from_ascii(u8::from(!u.is_scalar()));
                (sum + u.utf8_extra(), or | u, bad)
            });
            let sum: u32 = sum.into();
            extra += sum as usize;
            any |= or.into();
            scalar &= Into::<u32>::into(bad) == 0;
        }
    }
    (units.len() + extra, any, scalar)
}

/// The UTF-8 bytes of `units`, a lone surrogate (or any unit that is not a scalar value)
/// written as U+FFFD: always valid UTF-8, whatever the units (`python/ffi/read.rs` relies on
/// it to make a `String` without checking again). The output is sized for the worst case
/// up front, so the loop has no capacity checks; blocks of 16 ASCII units are narrowed in
/// one step the compiler vectorises. Measured (2026-12-03, best of 30 passes): 1.1 GB/s on
/// zh-markdown and 4.1 GB/s on en-markdown as UCS-2 (0.6 for a `char`-by-`char` push);
/// CPython's own conversion reads 1.3 and 1.6 GB/s there (`str.encode`, fresh strings: it
/// is the faster on Chinese) and, reached through `to_str`, keeps its copy inside the string
/// for the string's lifetime. Writing each three-byte character as one 4-byte word in blocks
/// of such units was tried: 1.07 against 1.09 GB/s, no gain.
///
/// Returned with the bytes: whether every unit was a Unicode scalar value (no U+FFFD stood
/// in for one), so a text is checked while it is converted, not in a pass before.
#[cfg_attr(not(feature = "python"), allow(dead_code))] // the binding's only user
pub fn utf8_bytes<U: Unit>(units: &[U]) -> (Vec<u8>, bool) {
    const BLOCK: usize = 16;
    let mut out = vec![0u8; units.len() * U::UTF8_MAX + 4];
    let (mut pos, mut clean) = (0, true);
    let mut blocks = units.chunks_exact(BLOCK);
    for block in &mut blocks {
        if or_of(block) < 0x80 {
            for (d, &u) in out[pos..pos + BLOCK].iter_mut().zip(block) {
                *d = u.into() as u8;
            }
            pos += BLOCK;
        } else {
            for &u in block {
                pos += put_char(&mut out, pos, u.into(), &mut clean);
            }
        }
    }
    for &u in blocks.remainder() {
        pos += put_char(&mut out, pos, u.into(), &mut clean);
    }
    out.truncate(pos);
    (out, clean)
}

/// Writes the UTF-8 of code point `u` (U+FFFD if it is none, and then `clean` is cleared)
/// at `pos`; returns its length. `out` has 4 bytes of room at `pos` (see [`utf8_bytes`]).
#[inline]
#[cfg_attr(not(feature = "python"), allow(dead_code))]
fn put_char(out: &mut [u8], pos: usize, u: u32, clean: &mut bool) -> usize {
    let dst = &mut out[pos..pos + 4];
    let (b1, b2) = ((0x80 | (u & 0x3F)) as u8, (0x80 | ((u >> 6) & 0x3F)) as u8);
    if u < 0x80 {
        dst[0] = u as u8;
        1
    } else if u < 0x800 {
        dst[0] = (0xC0 | u >> 6) as u8;
        dst[1] = b1;
        2
    } else if u < 0xD800 || (0xE000..0x1_0000).contains(&u) {
        dst[0] = (0xE0 | u >> 12) as u8;
        dst[1] = b2;
        dst[2] = b1;
        3
    } else if (0x1_0000..0x11_0000).contains(&u) {
        dst[0] = (0xF0 | u >> 18) as u8;
        dst[1] = (0x80 | ((u >> 12) & 0x3F)) as u8;
        dst[2] = b2;
        dst[3] = b1;
        4
    } else {
        dst[..3].copy_from_slice("\u{FFFD}".as_bytes());
        *clean = false;
        3
    }
}

impl<'a, U: Unit> Units<'a> for Fixed<'a, U> {
    const STORAGE: Storage = U::STORAGE;
    const FIXED: bool = true;

    #[inline]
    fn len(self) -> usize {
        self.0.len()
    }

    #[inline]
    fn chars(self, a: usize, b: usize) -> usize {
        b - a
    }

    #[inline]
    fn char_at(self, i: usize) -> (char, usize) {
        (to_char(self.0[i]), 1)
    }

    #[inline]
    fn char_before(self, i: usize) -> (char, usize) {
        (to_char(self.0[i - 1]), 1)
    }

    #[inline]
    fn advance(self, i: usize, n: usize, end: usize) -> usize {
        i.saturating_add(n).min(end)
    }

    #[inline]
    fn bytes(self, a: usize, b: usize) -> &'a [u8] {
        bytemuck::cast_slice(&self.0[a..b])
    }

    #[inline]
    fn utf8_len(self, a: usize, b: usize) -> Option<usize> {
        utf8_len(&self.0[a..b])
    }

    fn as_str(self, a: usize, b: usize) -> Option<&'a str> {
        if U::STORAGE != Storage::Latin1 {
            return None;
        }
        let bytes = self.bytes(a, b);
        // Latin-1 above U+007F is not UTF-8 (even where the bytes would decode as some).
        bytes
            .is_ascii()
            .then(|| std::str::from_utf8(bytes).ok())
            .flatten()
    }

    fn push_utf8(self, a: usize, b: usize, out: &mut String) {
        out.reserve(b - a);
        out.extend(self.0[a..b].iter().map(|&u| to_char(u)));
    }

    fn eq_str(self, a: usize, b: usize, s: &str) -> bool {
        s.chars()
            .map(u32::from)
            .eq(self.0[a..b].iter().map(|&u| u.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{latin1, ucs2, ucs4};
    use super::*;

    #[test]
    fn refuses_lone_surrogates_with_their_index() {
        assert_eq!(Fixed::new(&[0x61u16, 0xD800, 0x62][..]).err(), Some(1));
        let mut long = vec![0x41u16; 1000];
        long[700] = 0xDFFF;
        assert_eq!(Fixed::new(&long[..]).err(), Some(700));
        assert_eq!(Fixed::new(&[0x1F600u32, 0xDC00][..]).err(), Some(1));
        assert_eq!(Fixed::new(&[0x11_0000u32][..]).err(), Some(0));
        assert!(Fixed::new(&[0xFFu8, 0][..]).is_ok());
    }

    /// `utf8_len` as the definition says: each unit's UTF-8 length, `None` at a non-scalar.
    fn utf8_len_by_char<U: Unit>(units: &[U]) -> Option<usize> {
        units
            .iter()
            .map(|&u| char::from_u32(u.into()).map(char::len_utf8))
            .sum()
    }

    /// Units mostly from `common`, some anywhere in `0..=max`, enough to span more than one block.
    fn units_of<U: Unit + TryFrom<u32> + std::fmt::Debug>(
        common: std::ops::Range<u32>,
        max: u32,
    ) -> impl proptest::strategy::Strategy<Value = Vec<U>> {
        use proptest::prelude::*;
        let unit = prop_oneof![9 => common, 1 => 0..=max]
            .prop_map(|u| U::try_from(u).ok().unwrap_or_default());
        proptest::collection::vec(unit, 0..6000)
    }

    proptest::proptest! {
        #[test]
        fn utf8_len_is_the_sum_of_each_characters(
            latin1 in units_of::<u8>(0x20..0x80, 0xFF),
            // Mostly ASCII blocks, now and then one with U+0080 (ASCII blocks are skipped).
            latin1_ascii in units_of::<u8>(0x20..0x80, 0x80),
            ucs2_en in units_of::<u16>(0x20..0x80, 0xFFFF),
            ucs2_cjk in units_of::<u16>(0x4E00..0xA000, 0xFFFF),
            ucs4 in units_of::<u32>(0x1F600..0x1F650, 0x11_0100),
        ) {
            proptest::prop_assert_eq!(utf8_len(&latin1), utf8_len_by_char(&latin1));
            proptest::prop_assert_eq!(utf8_len(&latin1_ascii), utf8_len_by_char(&latin1_ascii));
            proptest::prop_assert_eq!(utf8_len(&ucs2_en), utf8_len_by_char(&ucs2_en));
            proptest::prop_assert_eq!(utf8_len(&ucs2_cjk), utf8_len_by_char(&ucs2_cjk));
            proptest::prop_assert_eq!(utf8_len(&ucs4), utf8_len_by_char(&ucs4));
            check_measure(&latin1)?;
            check_measure(&latin1_ascii)?;
            check_measure(&ucs2_en)?;
            check_measure(&ucs2_cjk)?;
            check_measure(&ucs4)?;
        }
    }

    /// [`utf8_measure`] against its definition: the OR of the units, whether each is a
    /// scalar value, and the UTF-8 length with U+FFFD's three bytes for a lone surrogate
    /// (four for a value beyond U+10FFFF, as a four-byte sequence would take).
    fn check_measure<U: Unit>(units: &[U]) -> Result<(), proptest::test_runner::TestCaseError> {
        let len = units
            .iter()
            .map(|&u| match char::from_u32(u.into()) {
                Some(c) => c.len_utf8(),
                None if u.into() > 0xFFFF => 4,
                None => 3,
            })
            .sum();
        let scalar = units.iter().all(|&u| u.is_scalar());
        proptest::prop_assert_eq!(utf8_measure(units), (len, or_of(units), scalar));
        Ok(())
    }

    #[test]
    fn utf8_lengths_of_long_texts_do_not_overflow_their_sums() {
        let latin1 = vec![0xE9u8; 1000];
        assert_eq!(
            Fixed::new(&latin1[..]).unwrap().utf8_len(0, 1000),
            Some(2000)
        );
        let ucs2 = vec![0x6F22u16; 70_000];
        assert_eq!(
            Fixed::new(&ucs2[..]).unwrap().utf8_len(0, 70_000),
            Some(210_000)
        );
        let ucs4 = vec![0x1F600u32; 1000];
        assert_eq!(Fixed::new(&ucs4[..]).unwrap().utf8_len(1, 1000), Some(3996));
        // A surrogate in any block is found.
        let mut mixed = vec![0x61u16; 1000];
        mixed[300] = 0x6F22;
        mixed[900] = 0xE9;
        assert_eq!(
            Fixed::new(&mixed[..]).unwrap().utf8_len(0, 1000),
            Some(1003)
        );
        mixed[700] = 0xDC00;
        assert_eq!(Fixed::lenient(&mixed[..]).utf8_len(0, 1000), None);
        assert_eq!(Fixed::lenient(&mixed[..]).utf8_len(0, 700), Some(702));
        let lone = [0x61u16, 0xD800, 0x62];
        assert_eq!(Fixed::lenient(&lone[..]).utf8_len(0, 1), Some(1));
        assert_eq!(Fixed::lenient(&lone[..]).utf8_len(0, 3), None);
    }

    #[test]
    fn latin1_reads_in_place_only_when_ascii() {
        let ascii = latin1("ab\n").unwrap();
        let t = Fixed::new(&ascii[..]).unwrap();
        assert_eq!(t.as_str(0, 3), Some("ab\n"));
        // "Ã©" in Latin-1 is the bytes of "é" in UTF-8, and must not be read as it.
        let bytes = latin1("Ã©").unwrap();
        let t = Fixed::new(&bytes[..]).unwrap();
        assert_eq!(t.as_str(0, 2), None);
        let mut scratch = String::new();
        assert_eq!(t.utf8_in(0, 2, &mut scratch), "Ã©");
    }

    /// Every method agrees with the same text as `&str`, in each storage that holds it.
    fn agrees<U: Unit>(s: &str, units: &[U]) -> Result<(), proptest::test_runner::TestCaseError> {
        use proptest::prop_assert_eq;
        let t = Fixed::new(units).unwrap();
        let chars: Vec<char> = s.chars().collect();
        prop_assert_eq!(t.len(), chars.len());
        for a in 0..=chars.len() {
            for b in a..=chars.len() {
                let piece: String = chars[a..b].iter().collect();
                prop_assert_eq!(t.utf8_len(a, b), Some(piece.len()));
                let mut out = String::new();
                t.push_utf8(a, b, &mut out);
                prop_assert_eq!(&out, &piece);
                proptest::prop_assert!(t.eq_str(a, b, &piece));
                prop_assert_eq!(
                    t.as_str(a, b).is_some(),
                    U::STORAGE == Storage::Latin1 && piece.is_ascii()
                );
            }
            if a < chars.len() {
                prop_assert_eq!(t.char_at(a), (chars[a], 1));
                prop_assert_eq!(t.char_before(a + 1), (chars[a], 1));
            }
        }
        Ok(())
    }

    /// [`utf8_bytes`] is the text's UTF-8, and U+FFFD where a unit is no character.
    fn transcodes<U: Unit>(units: &[U]) -> Result<(), proptest::test_runner::TestCaseError> {
        let want: String = units.iter().map(|&u| to_char(u)).collect();
        let (bytes, clean) = utf8_bytes(units);
        proptest::prop_assert_eq!(&bytes, want.as_bytes());
        proptest::prop_assert_eq!(clean, units.iter().all(|&u| u.is_scalar()));
        // `push_utf8` appends the same (a lenient text: any units).
        let mut out = String::from("x");
        Fixed::lenient(units).push_utf8(0, units.len(), &mut out);
        proptest::prop_assert_eq!(out, format!("x{want}"));
        Ok(())
    }

    #[test]
    fn utf8_bytes_of_blocks_and_tails() {
        let text = "a".repeat(40) + "é漢😀" + &"b".repeat(17);
        let units = ucs4(&text);
        for n in 0..=units.len() {
            assert_eq!(
                utf8_bytes(&units[..n]).0,
                text.chars().take(n).collect::<String>().into_bytes()
            );
        }
        let lone = [0x61u16, 0xD800, 0x62, 0xDFFF];
        assert_eq!(utf8_bytes(&lone[..]).0, "a\u{FFFD}b\u{FFFD}".as_bytes());
        assert_eq!(
            utf8_bytes(&[0x11_0000u32, 0x41][..]).0,
            "\u{FFFD}A".as_bytes()
        );
    }

    proptest::proptest! {
        #[test]
        fn utf8_bytes_agree(
            units in proptest::collection::vec(
                proptest::prop_oneof![0u32..0x80, 0x80u32..0x800, 0xD7F0u32..0xE010, 0x1_0000u32..0x11_0010],
                0..160,
            ),
            narrow in 0usize..3,
        ) {
            match narrow {
                0 => transcodes(&units.iter().map(|&u| u as u8).collect::<Vec<_>>())?,
                1 => transcodes(&units.iter().map(|&u| u as u16).collect::<Vec<_>>())?,
                _ => transcodes(&units)?,
            }
        }

        #[test]
        fn fixed_widths_agree_with_str(s in "[a \n\u{e9}\u{ff}\u{100}\u{3000}漢\u{ffff}😀]{0,12}") {
            if let Some(units) = latin1(&s) {
                agrees(&s, &units)?;
            }
            if let Some(units) = ucs2(&s) {
                agrees(&s, &units)?;
            }
            agrees(&s, &ucs4(&s))?;
        }
    }
}
