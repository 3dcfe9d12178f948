//! Ranks of the tokens longer than eight bytes, found by the hash the piece cache uses.
//!
//! Every piece is first asked "are you one token?". Long pieces mostly are not (runs of
//! Chinese letters, long identifiers), so a bit array small enough to stay in the CPU's
//! cache answers "no" for almost all of them before any table is read; the pieces that
//! pass are looked up by the hash already computed for the piece cache, not hashed again.
//! Each slot holds a token's first and last eight bytes, so tokens of up to 16 bytes (nearly
//! all) are compared without reading the vocabulary, which is megabytes away.

/// Bits in the filter: 128 KiB, for tens of thousands of long tokens.
const FILTER_BITS: u32 = 20;

/// One slot: a token's first and last eight bytes, its rank and length (`len == 0` marks it
/// empty).
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    head: u64,
    tail: u64,
    rank: u32,
    len: u32,
}

/// The first and last eight bytes of a piece longer than eight bytes, as words.
#[inline]
fn ends(piece: &[u8]) -> Option<(u64, u64)> {
    let (head, tail) = (piece.first_chunk::<8>()?, piece.last_chunk::<8>()?);
    Some((u64::from_le_bytes(*head), u64::from_le_bytes(*tail)))
}

/// The long tokens of one encoding, probed linearly.
#[derive(Debug)]
pub struct LongTokens {
    filter: Vec<u64>,
    slots: Vec<Slot>,
    shift: u32,
}

impl LongTokens {
    /// A table of the tokens in `tokens` (by rank) longer than eight bytes, each found by
    /// its hash from `hash`.
    pub fn new(tokens: &[&[u8]], hash: impl Fn(&[u8]) -> u64) -> Self {
        let long = || (0..).zip(tokens).filter(|(_, t)| t.len() > 8);
        let bits = (long().count() * 2)
            .next_power_of_two()
            .trailing_zeros()
            .max(4);
        let mut table = Self {
            filter: vec![0; 1 << (FILTER_BITS - 6)],
            slots: vec![Slot::default(); 1 << bits],
            shift: 64 - bits,
        };
        let mask = table.slots.len() - 1;
        for (rank, token) in long() {
            let h = hash(token);
            let bit = filter_bit(h);
            table.filter[bit >> 6] |= 1 << (bit & 63);
            let mut i = table.slot(h);
            while table.slots[i].len != 0 {
                i = (i + 1) & mask;
            }
            let (head, tail) = ends(token).unwrap_or_default();
            table.slots[i] = Slot {
                head,
                tail,
                rank,
                len: token.len() as u32,
            };
        }
        table
    }

    #[inline]
    fn slot(&self, hash: u64) -> usize {
        (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The rank of `piece`, whose hash is `hash`, if it is one of the long tokens; `tokens`
    /// are the bytes of every token by rank (bytes decide, never the hash alone).
    #[inline]
    pub fn get(&self, piece: &[u8], hash: u64, tokens: &[&[u8]]) -> Option<u32> {
        let bit = filter_bit(hash);
        if self.filter[bit >> 6] & 1 << (bit & 63) == 0 {
            return None;
        }
        let (head, tail) = ends(piece)?;
        let mask = self.slots.len() - 1;
        let mut i = self.slot(hash);
        loop {
            let slot = self.slots[i];
            if slot.len == 0 {
                return None;
            }
            if slot.head == head
                && slot.tail == tail
                && slot.len as usize == piece.len()
                && (piece.len() <= 16 || tokens[slot.rank as usize][8..] == piece[8..])
            {
                return Some(slot.rank);
            }
            i = (i + 1) & mask;
        }
    }
}

/// The filter bit of a hash: its low bits (the table's slot comes from the high ones).
#[inline]
fn filter_bit(hash: u64) -> usize {
    (hash & ((1 << FILTER_BITS) - 1)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn finds_exactly_the_long_tokens(
            tokens in proptest::collection::btree_set("[ab]{0,20}", 0..300),
            probes in proptest::collection::vec("[ab]{0,20}", 0..100),
        ) {
            let tokens: Vec<&[u8]> = tokens.iter().map(String::as_bytes).collect();
            // A poor hash on purpose: many tokens share one, and bytes must decide.
            let hash = |t: &[u8]| t.iter().map(|&b| u64::from(b)).sum::<u64>();
            let table = LongTokens::new(&tokens, hash);
            for probe in probes.iter().map(String::as_bytes).chain(tokens.iter().copied()) {
                let want = tokens.iter().position(|&t| t == probe && t.len() > 8);
                let got = table.get(probe, hash(probe), &tokens);
                prop_assert_eq!(got, want.map(|r| r as u32));
            }
        }
    }
}
