//! Text as code units: one splitting algorithm over UTF-8 and over CPython's own storage.
//!
//! CPython keeps a `str` as one, two or four bytes per code point (PEP 393: Latin-1, UCS-2,
//! UCS-4) and builds a UTF-8 copy only when something asks for one, which for a document
//! just read costs a full transcoding and an allocation. [`Units`] is what the splitter
//! needs from a text, implemented once for `&str` ([`Utf8`], the CLI's and Rust callers'
//! text) and once, generically, for the three fixed widths ([`Fixed`]), so the same code
//! splits all four without converting anything.
//!
//! A *position* is an index into the units: a byte offset for [`Utf8`], a code-point index
//! (Python's string index) for [`Fixed`]. Positions handed to these methods are always at
//! character boundaries, as every position the splitter makes is.
//!
//! - [`fixed`]: Latin-1, UCS-2 and UCS-4, validated to hold Unicode scalar values only.
//! - [`offsets`]: code-point and UTF-8 byte offsets of positions, computed where chunks
//!   begin and end instead of for every piece.

pub mod fixed;
pub mod offsets;

#[cfg_attr(not(feature = "python"), allow(unused_imports))] // used by the binding
pub use fixed::{all_scalar, or_of, utf8_bytes, utf8_measure, Fixed, Unit};
pub use offsets::Offsets;

/// How a text stores its characters; separators keep one needle per storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Storage {
    /// UTF-8 bytes (`&str`).
    Utf8,
    /// One byte per code point, all below U+0100.
    Latin1,
    /// Two bytes per code point, all in the Basic Multilingual Plane.
    Ucs2,
    /// Four bytes per code point.
    Ucs4,
}

impl Storage {
    /// Every storage, in the order [`Storage::index`] numbers them.
    pub const ALL: [Storage; 4] = [Self::Utf8, Self::Latin1, Self::Ucs2, Self::Ucs4];

    /// A small index, for tables with one entry per storage.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Bytes per unit.
    pub fn width(self) -> usize {
        match self {
            Self::Utf8 | Self::Latin1 => 1,
            Self::Ucs2 => 2,
            Self::Ucs4 => 4,
        }
    }

    /// Bytes per unit as a power of two (`width() == 1 << shift()`).
    pub fn shift(self) -> u32 {
        self.width().trailing_zeros()
    }

    /// `s` as the bytes this storage holds it in (native byte order), or `None` if it has a
    /// character the storage cannot hold, in which case `s` occurs in no such text.
    pub fn encode(self, s: &str) -> Option<Vec<u8>> {
        match self {
            Self::Utf8 => Some(s.as_bytes().to_vec()),
            Self::Latin1 => s.chars().map(|c| u8::try_from(c).ok()).collect(),
            Self::Ucs2 => s
                .chars()
                .map(|c| u16::try_from(u32::from(c)).ok().map(u16::to_ne_bytes))
                .collect::<Option<Vec<_>>>()
                .map(|units| units.concat()),
            Self::Ucs4 => Some(s.chars().flat_map(|c| u32::from(c).to_ne_bytes()).collect()),
        }
    }
}

/// What the splitter needs from a text. See the module comment for positions.
pub trait Units<'a>: Copy + Send + Sync + 'a {
    /// Which storage this is.
    const STORAGE: Storage;
    /// Whether every code point is one unit, so positions are code-point indexes.
    const FIXED: bool;

    /// Length in units.
    fn len(self) -> usize;

    /// Whether the text is empty.
    fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Code points in `[a, b)`.
    fn chars(self, a: usize, b: usize) -> usize;

    /// The character at position `i < len` and how many units it takes.
    fn char_at(self, i: usize) -> (char, usize);

    /// The character that ends at position `0 < i` and how many units it takes.
    fn char_before(self, i: usize) -> (char, usize);

    /// The position `n` characters after `i`, or `end` if that comes first.
    fn advance(self, i: usize, n: usize, end: usize) -> usize;

    /// The storage bytes of `[a, b)` (what literal separators are searched in).
    fn bytes(self, a: usize, b: usize) -> &'a [u8];

    /// The length of `[a, b)` in UTF-8, or `None` if it holds a lone surrogate (only a
    /// [`Fixed::lenient`] text can), which has no UTF-8 form.
    fn utf8_len(self, a: usize, b: usize) -> Option<usize>;

    /// `[a, b)` as a `&str` if it is UTF-8 already (always for [`Utf8`]; Latin-1 that is
    /// ASCII): regexes and length functions then read it in place.
    fn as_str(self, a: usize, b: usize) -> Option<&'a str>;

    /// Appends the UTF-8 of `[a, b)` to `out`.
    fn push_utf8(self, a: usize, b: usize, out: &mut String);

    /// Whether `[a, b)` is the text `s`.
    fn eq_str(self, a: usize, b: usize, s: &str) -> bool;

    /// `[a, b)` as UTF-8: borrowed where [`Units::as_str`] allows, else transcoded into
    /// `scratch`.
    fn utf8_in<'s>(self, a: usize, b: usize, scratch: &'s mut String) -> &'s str
    where
        'a: 's,
    {
        if let Some(s) = self.as_str(a, b) {
            return s;
        }
        scratch.clear();
        self.push_utf8(a, b, scratch);
        scratch
    }
}

/// A `&str` as units: positions are byte offsets.
#[derive(Debug, Clone, Copy)]
pub struct Utf8<'a>(pub &'a str);

impl<'a> Units<'a> for Utf8<'a> {
    const STORAGE: Storage = Storage::Utf8;
    const FIXED: bool = false;

    #[inline]
    fn len(self) -> usize {
        self.0.len()
    }

    #[inline]
    fn chars(self, a: usize, b: usize) -> usize {
        crate::text::char_count(&self.0[a..b])
    }

    #[inline]
    fn char_at(self, i: usize) -> (char, usize) {
        let c = self.0[i..].chars().next().unwrap_or('\0');
        (c, c.len_utf8())
    }

    #[inline]
    fn char_before(self, i: usize) -> (char, usize) {
        let c = self.0[..i].chars().next_back().unwrap_or('\0');
        (c, c.len_utf8())
    }

    fn advance(self, i: usize, n: usize, end: usize) -> usize {
        self.0[i..end]
            .char_indices()
            .nth(n)
            .map_or(end, |(offset, _)| i + offset)
    }

    #[inline]
    fn bytes(self, a: usize, b: usize) -> &'a [u8] {
        &self.0.as_bytes()[a..b]
    }

    #[inline]
    fn utf8_len(self, a: usize, b: usize) -> Option<usize> {
        Some(b - a)
    }

    #[inline]
    fn as_str(self, a: usize, b: usize) -> Option<&'a str> {
        Some(&self.0[a..b])
    }

    fn push_utf8(self, a: usize, b: usize, out: &mut String) {
        out.push_str(&self.0[a..b]);
    }

    fn eq_str(self, a: usize, b: usize, s: &str) -> bool {
        &self.0[a..b] == s
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `s` in each storage that can hold it, as `(storage, units)` vectors.
    pub fn latin1(s: &str) -> Option<Vec<u8>> {
        Storage::Latin1.encode(s)
    }

    pub fn ucs2(s: &str) -> Option<Vec<u16>> {
        s.chars()
            .map(|c| u16::try_from(u32::from(c)).ok())
            .collect()
    }

    pub fn ucs4(s: &str) -> Vec<u32> {
        s.chars().map(u32::from).collect()
    }

    #[test]
    fn needles_per_storage() {
        assert_eq!(Storage::Latin1.encode("é\n"), Some(vec![0xE9, b'\n']));
        assert_eq!(Storage::Latin1.encode("漢"), None);
        assert_eq!(
            Storage::Ucs2.encode("漢"),
            Some(0x6F22u16.to_ne_bytes().to_vec())
        );
        assert_eq!(Storage::Ucs2.encode("😀"), None);
        assert_eq!(
            Storage::Ucs4.encode("😀"),
            Some(0x1F600u32.to_ne_bytes().to_vec())
        );
        for s in Storage::ALL {
            assert_eq!(Storage::ALL[s.index()], s);
        }
    }

    #[test]
    fn utf8_positions_are_bytes() {
        let t = Utf8("aé漢😀");
        assert_eq!(t.chars(0, t.len()), 4);
        assert_eq!(t.char_at(1), ('é', 2));
        assert_eq!(t.char_before(t.len()), ('😀', 4));
        assert_eq!(t.advance(0, 2, t.len()), 3);
        assert_eq!(t.advance(0, 9, t.len()), t.len());
        assert!(t.eq_str(3, 6, "漢"));
        let mut scratch = String::new();
        assert_eq!(t.utf8_in(1, 6, &mut scratch), "é漢");
    }
}
