//! Which token two adjacent tokens make together, keyed by their ranks, in one word per slot.
//!
//! Every merge step of BPE asks this once or twice, and on text the piece cache has not seen
//! (Chinese above all, whose pieces are long runs of letters) these lookups are most of the
//! time. A general hash map spends two cache misses per lookup (control bytes, then the
//! bucket); here a pair and its result are packed into one `u64` and a lookup reads one slot,
//! usually one cache line, in a table half full.

/// Bits of each rank in a packed key: room for two million tokens.
const RANK_BITS: u32 = 21;

/// Bits of the stored result (the joined token's rank plus one, so that 0 marks an empty slot).
const VALUE_BITS: u32 = 64 - 2 * RANK_BITS;

/// Ranks of joined pairs, probed linearly.
#[derive(Debug)]
pub struct Joins {
    /// A Bloom filter of the keys, two bits in one word per key: most asked-for pairs do not
    /// join, and this answers them from a table a quarter of the slots' size that stays in
    /// the CPU's cache (a few percent pass falsely and read the slots).
    filter: Vec<u64>,
    filter_shift: u32,
    slots: Vec<u64>,
    shift: u32,
}

impl Joins {
    /// Whether ranks up to `max_rank` fit the packing (every bundled encoding does; callers
    /// fall back to looking up the joined bytes otherwise).
    pub fn fits(max_rank: u32) -> bool {
        u64::from(max_rank) + 1 < 1 << RANK_BITS
    }

    /// A table of `(left, right, joined)` ranks; all must satisfy [`Joins::fits`].
    pub fn new(entries: &[(u32, u32, u32)]) -> Self {
        // Load at most one half: a miss (the common answer) ends after a short probe.
        let bits = (entries.len() * 2)
            .next_power_of_two()
            .trailing_zeros()
            .max(4);
        // About eight filter bits per key: a few percent false passes.
        let words = (entries.len() / 8).next_power_of_two().max(1);
        let mut table = Self {
            filter: vec![0; words],
            filter_shift: 64 - words.trailing_zeros(),
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
        };
        let mask = table.slots.len() - 1;
        for &(left, right, joined) in entries {
            debug_assert!(Self::fits(left.max(right).max(joined)));
            let key = key(left, right);
            let (word, bits) = table.filter_bits(key);
            table.filter[word] |= bits;
            let mut i = table.slot(key);
            while table.slots[i] != 0 && table.slots[i] >> VALUE_BITS != key {
                i = (i + 1) & mask;
            }
            table.slots[i] = key << VALUE_BITS | (u64::from(joined) + 1);
        }
        table
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The filter word of `key` and the two bits it sets there.
    #[inline]
    fn filter_bits(&self, key: u64) -> (usize, u64) {
        let h = key.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let word = if self.filter_shift == 64 {
            0
        } else {
            (h >> self.filter_shift) as usize
        };
        (word, 1 << (h & 63) | 1 << (h >> 6 & 63))
    }

    /// The rank of the token `left` followed by `right` make, or `u32::MAX` if none.
    #[inline]
    pub fn get(&self, left: u32, right: u32) -> u32 {
        let key = key(left, right);
        let (word, bits) = self.filter_bits(key);
        if self.filter[word] & bits != bits {
            return u32::MAX;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return u32::MAX;
            }
            if slot >> VALUE_BITS == key {
                return (slot & ((1 << VALUE_BITS) - 1)) as u32 - 1;
            }
            i = (i + 1) & mask;
        }
    }
}

#[inline]
fn key(left: u32, right: u32) -> u64 {
    u64::from(left) << RANK_BITS | u64::from(right)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    proptest! {
        #[test]
        fn finds_exactly_what_was_inserted(
            entries in proptest::collection::hash_map(
                (0u32..2000, 0u32..2000), 0u32..(1 << RANK_BITS) - 1, 0..300),
            probes in proptest::collection::vec((0u32..2000, 0u32..2000), 0..300),
        ) {
            let list: Vec<_> = entries.iter().map(|(&(a, b), &c)| (a, b, c)).collect();
            let joins = Joins::new(&list);
            let want: HashMap<_, _> = entries;
            for (a, b) in probes.into_iter().chain(want.keys().copied()) {
                prop_assert_eq!(joins.get(a, b), want.get(&(a, b)).copied().unwrap_or(u32::MAX));
            }
        }
    }

    #[test]
    fn zero_ranks_are_not_empty_slots() {
        let joins = Joins::new(&[(0, 0, 0), (0, 1, (1 << RANK_BITS) - 2)]);
        assert_eq!(joins.get(0, 0), 0);
        assert_eq!(joins.get(0, 1), (1 << RANK_BITS) - 2);
        assert_eq!(joins.get(1, 0), u32::MAX);
        assert!(Joins::fits((1 << RANK_BITS) - 2) && !Joins::fits((1 << RANK_BITS) - 1));
    }
}
