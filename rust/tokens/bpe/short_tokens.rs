//! Ranks of the tokens of at most eight bytes, with the bytes stored inline in each slot.
//!
//! Most pre-tokenized pieces of English are short words that are whole tokens. A hash map
//! keyed by byte slices costs a control-byte probe, a bucket read and a `memcmp` against
//! the token's bytes elsewhere in memory (three likely cache misses on a cold pass over a
//! 200k-token vocabulary); here a piece is packed into one `u64` and a probe reads one
//! 16-byte slot that holds the key, its length and the rank.

/// Longest token (in bytes) the table holds.
pub const MAX_LEN: usize = 8;

/// One open-addressing slot; `len == 0` marks it empty.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Slot {
    key: u64,
    rank: u32,
    len: u32,
}

/// Ranks of every token of 1 to [`MAX_LEN`] bytes, probed linearly.
#[derive(Debug)]
pub struct ShortTokens {
    slots: Vec<Slot>,
    shift: u32,
}

/// Packs up to eight bytes little-endian, zero-padded (the length tells `a` from `a\0`).
/// Two overlapping loads of the first and last bytes, no `memcpy` call: this runs once
/// for nearly every piece of text.
#[inline]
fn pack(bytes: &[u8]) -> u64 {
    let shift = |n: usize| 8 * (bytes.len() - n) as u32;
    if let (Some(lo), Some(hi)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        u64::from(u32::from_le_bytes(*lo)) | u64::from(u32::from_le_bytes(*hi)) << shift(4)
    } else if let (Some(lo), Some(hi)) = (bytes.first_chunk::<2>(), bytes.last_chunk::<2>()) {
        u64::from(u16::from_le_bytes(*lo)) | u64::from(u16::from_le_bytes(*hi)) << shift(2)
    } else {
        bytes.first().map_or(0, |&b| u64::from(b))
    }
}

impl ShortTokens {
    /// A table of `(token, rank)` pairs; tokens longer than [`MAX_LEN`] are skipped.
    pub fn new<'a>(tokens: impl Iterator<Item = (&'a [u8], u32)> + Clone) -> Self {
        let n = tokens
            .clone()
            .filter(|(t, _)| (1..=MAX_LEN).contains(&t.len()))
            .count();
        // Load at most one half: short linear probes.
        let bits = (n * 2).next_power_of_two().trailing_zeros().max(4);
        let mut table = Self {
            slots: vec![Slot::default(); 1 << bits],
            shift: 64 - bits,
        };
        let mask = table.slots.len() - 1;
        for (token, rank) in tokens {
            if !(1..=MAX_LEN).contains(&token.len()) {
                continue;
            }
            let (key, len) = (pack(token), token.len() as u32);
            let mut i = table.slot(key, len);
            while table.slots[i].len != 0 && (table.slots[i].key, table.slots[i].len) != (key, len)
            {
                i = (i + 1) & mask;
            }
            table.slots[i] = Slot { key, rank, len };
        }
        table
    }

    #[inline]
    fn slot(&self, key: u64, len: u32) -> usize {
        let h = (key ^ u64::from(len) << 59).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> self.shift) as usize
    }

    /// The rank of `bytes` (1 to [`MAX_LEN`] bytes long) if it is a token.
    #[inline]
    pub fn get(&self, bytes: &[u8]) -> Option<u32> {
        debug_assert!((1..=MAX_LEN).contains(&bytes.len()));
        let (key, len) = (pack(bytes), bytes.len() as u32);
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key, len);
        loop {
            let slot = self.slots[i];
            if slot.key == key && slot.len == len {
                return Some(slot.rank);
            }
            if slot.len == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_short_tokens() {
        let tokens: Vec<&[u8]> = vec![b"a", b"a\0", b"ab", b"abcdefgh", b"abcdefghi", b"\0"];
        let table = ShortTokens::new(tokens.iter().zip(0..).map(|(&t, r)| (t, r)));
        assert_eq!(table.get(b"a"), Some(0));
        assert_eq!(table.get(b"a\0"), Some(1));
        assert_eq!(table.get(b"ab"), Some(2));
        assert_eq!(table.get(b"abcdefgh"), Some(3));
        assert_eq!(table.get(b"\0"), Some(5));
        assert_eq!(table.get(b"b"), None);
        assert_eq!(table.get(b"\0\0"), None);
        assert_eq!(table.get(b"abcdefg"), None);
    }

    #[test]
    fn packs_like_a_zero_padded_copy() {
        let bytes: Vec<u8> = (1..=8).map(|b| b * 17).collect();
        for len in 0..=MAX_LEN {
            let mut buf = [0u8; 8];
            buf[..len].copy_from_slice(&bytes[..len]);
            assert_eq!(pack(&bytes[..len]), u64::from_le_bytes(buf), "{len} bytes");
        }
    }
}
