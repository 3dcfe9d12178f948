//! The keys the array-scan merge picks its next step from, as `f32`, so that finding the
//! lowest is one `minps` per four keys.
//!
//! A key is `rank << 6 | place` (the leftmost lowest rank is the lowest key). Every such
//! integer below 2^24 is exactly an `f32`, and `f32` order agrees with integer order on
//! them, so the minimum is the same; but x86-64's baseline (SSE2) has no unsigned 32-bit
//! vector minimum: on `u32` keys the compiler emulates it in five instructions per four
//! keys, and a scalar loop took the remainder. That scan was over half of merging a long
//! run of letters. Keys are padded with [`NONE`] to a multiple of [`LANES`], so the scan
//! has no remainder.

/// No merge here (parts that do not join, or a part already merged away).
pub const NONE: f32 = f32::INFINITY;

/// Keys scanned at a time; key arrays are padded to a multiple of it.
pub const LANES: usize = 16;

/// Bits of a key that hold the part's place: at most 64 parts per scan.
const PLACE_BITS: u32 = 6;

/// Whether ranks up to `max_rank` fit exactly (every bundled encoding: 2^18 tokens).
pub fn fits(max_rank: u32) -> bool {
    u64::from(max_rank) << PLACE_BITS < 1 << f32::MANTISSA_DIGITS
}

/// The key of a join of rank `rank` at part `place` ([`NONE`] if `rank` is `u32::MAX`).
#[inline]
#[allow(clippy::cast_precision_loss)] // exact: below 2^24 (see `fits`)
pub fn key(rank: u32, place: usize) -> f32 {
    if rank == u32::MAX {
        NONE
    } else {
        (rank << PLACE_BITS | place as u32) as f32
    }
}

/// `(rank, place)` of a key that is not [`NONE`].
#[inline]
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // an exact integer
pub fn unpack(key: f32) -> (u32, usize) {
    let k = key as u32;
    (k >> PLACE_BITS, (k & ((1 << PLACE_BITS) - 1)) as usize)
}

/// Pads `keys` with [`NONE`] to a multiple of [`LANES`].
pub fn pad(keys: &mut Vec<f32>) {
    keys.resize(keys.len().next_multiple_of(LANES), NONE);
}

/// The lowest key ([`NONE`] if none): lane-wise minima the compiler turns into `minps`.
/// `keys.len()` is a multiple of [`LANES`] (see [`pad`]).
#[inline]
pub fn lowest(keys: &[f32]) -> f32 {
    // `if a < b` rather than `f32::min`: no NaN to handle, so one `minps`.
    let min = |a: f32, b: f32| if a < b { a } else { b };
    let mut acc = [NONE; LANES];
    for chunk in keys.chunks_exact(LANES) {
        for (a, &k) in acc.iter_mut().zip(chunk) {
            *a = min(k, *a);
        }
    }
    // Halve the lanes until one is left (a fold would be a chain of sixteen scalar steps).
    let mut n = LANES;
    while n > 1 {
        n /= 2;
        for i in 0..n {
            acc[i] = min(acc[i + n], acc[i]);
        }
    }
    acc[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_largest_keys_are_exact() {
        let top = (1u32 << 18) - 1;
        assert!(fits(top) && !fits(top + 1));
        assert_eq!(unpack(key(top, 63)), (top, 63));
        assert!(key(top, 62) < key(top, 63) && key(top - 1, 63) < key(top, 0));
        assert!(key(u32::MAX, 5).is_infinite());
    }

    proptest! {
        /// The lowest key is the leftmost lowest rank, as on integers.
        #[test]
        fn lowest_is_the_integer_minimum(
            ranks in proptest::collection::vec(
                prop_oneof![Just(u32::MAX), 0u32..(1 << 18), 0u32..4], 1..=64),
        ) {
            let mut keys: Vec<f32> = (0..).zip(&ranks).map(|(at, &r)| key(r, at)).collect();
            pad(&mut keys);
            prop_assert_eq!(keys.len() % LANES, 0);
            let want = (0..)
                .zip(&ranks)
                .filter(|&(_, &r)| r != u32::MAX)
                .map(|(at, &r)| (r, at))
                .min();
            let got = lowest(&keys);
            prop_assert_eq!((got != NONE).then(|| unpack(got)), want);
        }
    }
}
