//! A literal separator's search in one storage's bytes.
//!
//! memchr's `memmem` finds a needle by first looking for two of its bytes at their distance
//! (a SIMD prefilter), chosen as the two rarest by a frequency ranking, and two *different*
//! byte values by construction. In UCS-2 text `"\n\n"` is `0A 00 0A 00`: the rarest pair of
//! different values is `0A` and `00`, which every newline matches, so the prefilter stops at
//! each `\n` (every 40 characters of Chinese Markdown) to find a `\n\n` (every 109). Here a
//! wide needle of several units is searched with memchr's AVX2 pair searcher directly, the
//! pair being the low bytes of its two rarest units, equal or not (`0A` and `0A` two units
//! apart). In Latin-1 `memmem`'s own choice is kept: it starts from the needle's first two
//! bytes, whatever their values, and `"\n\n"` is just those. Both searches return the same
//! matches; `memmem` also serves haystacks too short for the pair searcher, needles of one
//! unit, and CPUs without AVX2.

use memchr::arch::all::packedpair::{HeuristicFrequencyRank, Pair};
use memchr::memmem;

use crate::units::Storage;

/// memchr's heuristic takes the rarest bytes of a needle as its prefilter; in UCS-2 and
/// UCS-4 text the zero byte is the most common of all (every ASCII character has one), so
/// it is ranked as such and the prefilter looks for the needle's other bytes.
struct WideTextRank;

impl HeuristicFrequencyRank for WideTextRank {
    fn rank(&self, byte: u8) -> u8 {
        match byte {
            0 => 255,
            b' ' | b'e' | b't' | b'a' | b'o' | b'n' | b'i' | b's' => 240,
            b'\n' => 200,
            0x21..=0x7E => 150,
            _ => 60,
        }
    }
}

/// A needle in one storage, ready to search byte slices of it.
#[derive(Debug, Clone)]
pub struct Literal {
    finder: memmem::Finder<'static>,
    #[cfg(target_arch = "x86_64")]
    pair: Option<memchr::arch::x86_64::avx2::packedpair::Finder>,
}

impl Literal {
    /// `text` as searched in `storage`, or `None` if no text so stored can hold it.
    pub fn new(storage: Storage, text: &str) -> Option<Self> {
        let needle = storage.encode(text)?;
        let width = storage.width();
        let builder = memmem::FinderBuilder::new();
        let finder = if width == 1 {
            builder.build_forward(&needle)
        } else {
            builder.build_forward_with_ranker(WideTextRank, &needle)
        };
        Some(Self {
            #[cfg(target_arch = "x86_64")]
            pair: unit_pair(&needle, width).and_then(|pair| {
                memchr::arch::x86_64::avx2::packedpair::Finder::with_pair(&needle, pair)
            }),
            finder: finder.into_owned(),
        })
    }

    /// The needle's bytes.
    pub fn needle(&self) -> &[u8] {
        self.finder.needle()
    }

    /// The first occurrence of the needle in `hay` (at any byte offset).
    #[inline]
    pub fn find(&self, hay: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(pair) = &self.pair {
            return self.find_by_pair(pair, hay);
        }
        self.finder.find(hay)
    }

    /// [`Literal::find`] with the pair searcher, kept out of line: inlined, it made the
    /// search of one-byte-per-unit text (which never takes it) 5 % slower.
    #[cfg(target_arch = "x86_64")]
    #[inline(never)]
    fn find_by_pair(
        &self,
        pair: &memchr::arch::x86_64::avx2::packedpair::Finder,
        hay: &[u8],
    ) -> Option<usize> {
        if hay.len() >= pair.min_haystack_len() {
            pair.find(hay, self.finder.needle())
        } else {
            self.finder.find(hay)
        }
    }
}

/// For a needle of two or more units of `width > 1` bytes (little-endian), the byte offsets
/// of the low bytes of its two rarest units, in order; `None` otherwise (see the module
/// comment). Offsets must fit a `u8`, so only the units starting in the first 256 bytes
/// are considered.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn unit_pair(needle: &[u8], width: usize) -> Option<Pair> {
    if width == 1 || cfg!(target_endian = "big") || needle.len() < 2 * width {
        return None;
    }
    let mut starts: Vec<u8> = (0..needle.len().min(256))
        .step_by(width)
        .filter_map(|i| u8::try_from(i).ok())
        .collect();
    starts.sort_by_key(|&i| WideTextRank.rank(needle[usize::from(i)]));
    let (a, b) = (starts[0].min(starts[1]), starts[0].max(starts[1]));
    Pair::with_indices(needle, a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first match of `needle` in `hay`, at any byte offset, by brute force.
    fn brute(hay: &[u8], needle: &[u8]) -> Option<usize> {
        hay.windows(needle.len()).position(|w| w == needle)
    }

    #[test]
    fn the_pair_is_two_units_low_bytes() {
        let needle = Storage::Ucs2.encode("\n\n").unwrap();
        let pair = unit_pair(&needle, 2).unwrap();
        assert_eq!((pair.index1(), pair.index2()), (0, 2));
        assert!(unit_pair(&Storage::Ucs2.encode("\n").unwrap(), 2).is_none());
        assert!(unit_pair(b"\n\n", 1).is_none());
    }

    proptest::proptest! {
        #[test]
        fn finds_what_brute_force_finds(
            text in "[ab\n .é漢😀]{0,300}",
            sep in "[ab\n .é漢😀]{1,4}",
            from in 0usize..300,
        ) {
            for storage in [Storage::Latin1, Storage::Ucs2, Storage::Ucs4] {
                let (Some(hay), Some(literal)) =
                    (storage.encode(&text), Literal::new(storage, &sep))
                else {
                    continue;
                };
                let hay = &hay[from.min(hay.len())..];
                proptest::prop_assert_eq!(literal.find(hay), brute(hay, literal.needle()));
            }
        }
    }
}
