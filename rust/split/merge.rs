//! Merging pieces into chunks with overlap: LangChain's `_merge_splits`, on lengths only.
//!
//! Working on lengths and piece indices (not strings) lets one algorithm serve both
//! source spans and re-joined text, and keeps the hot loop free of allocation.

/// What a merge decided: which consecutive pieces form each chunk, and the sizes of
/// chunks that came out longer than the limit (LangChain logs a warning for each).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Merged {
    /// Half-open ranges of piece indices, in order; each one is one chunk before joining.
    pub groups: Vec<(usize, usize)>,
    /// The running total each time a chunk longer than `size` was emitted.
    pub oversized: Vec<usize>,
}

/// Groups pieces of the given `lengths` into chunks of at most `size` (measured as the sum
/// of piece lengths plus `sep_len` between pieces), carrying up to `overlap` into the next.
///
/// Reproduces LangChain 1.1's `_merge_splits` decision for decision, including the strict
/// `>` test, popping from the front while the kept part exceeds the overlap or the next
/// piece still would not fit, and warnings only when the running total exceeds `size`.
pub fn merge(lengths: &[usize], sep_len: usize, size: usize, overlap: usize) -> Merged {
    let mut out = Merged::default();
    let mut lo = 0; // current chunk is lengths[lo..i]
    let mut total = 0usize;
    let sep_if = |n: usize, min: usize| if n > min { sep_len } else { 0 };
    for (i, &len) in lengths.iter().enumerate() {
        if total + len + sep_if(i - lo, 0) > size {
            if total > size {
                out.oversized.push(total);
            }
            if i > lo {
                out.groups.push((lo, i));
                while total > overlap || (total + len + sep_if(i - lo, 0) > size && total > 0) {
                    total -= lengths[lo] + sep_if(i - lo, 1);
                    lo += 1;
                }
            }
        }
        total += len + sep_if(i + 1 - lo, 1);
    }
    if lo < lengths.len() {
        out.groups.push((lo, lengths.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LangChain's algorithm on strings, transcribed literally, as an in-crate oracle.
    fn oracle(lengths: &[usize], sep_len: usize, size: usize, overlap: usize) -> Merged {
        let mut out = Merged::default();
        let mut cur: Vec<usize> = Vec::new(); // piece indices
        let mut total = 0usize;
        for (i, &len) in lengths.iter().enumerate() {
            let s = if cur.is_empty() { 0 } else { sep_len };
            if total + len + s > size {
                if total > size {
                    out.oversized.push(total);
                }
                if !cur.is_empty() {
                    out.groups.push((cur[0], cur[cur.len() - 1] + 1));
                    loop {
                        let s = if cur.is_empty() { 0 } else { sep_len };
                        if !(total > overlap || (total + len + s > size && total > 0)) {
                            break;
                        }
                        total -= lengths[cur[0]] + if cur.len() > 1 { sep_len } else { 0 };
                        cur.remove(0);
                    }
                }
            }
            cur.push(i);
            total += len + if cur.len() > 1 { sep_len } else { 0 };
        }
        if let (Some(a), Some(b)) = (cur.first(), cur.last()) {
            out.groups.push((*a, b + 1));
        }
        out
    }

    #[test]
    fn matches_transcription_on_small_cases() {
        let cases: &[(&[usize], usize, usize, usize)] = &[
            (&[3, 3, 3, 3], 1, 7, 3),
            (&[10, 1, 1], 0, 5, 2),
            (&[0, 0, 0], 0, 1, 0),
            (&[5, 5, 5, 5, 5], 2, 12, 6),
            (&[], 1, 5, 0),
        ];
        for &(lengths, sep, size, overlap) in cases {
            assert_eq!(
                merge(lengths, sep, size, overlap),
                oracle(lengths, sep, size, overlap)
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn matches_transcription(
            lengths in proptest::collection::vec(0usize..40, 0..60),
            sep in 0usize..4,
            size in 1usize..60,
            overlap_frac in 0usize..=100,
        ) {
            let overlap = size * overlap_frac / 100;
            proptest::prop_assert_eq!(
                merge(&lengths, sep, size, overlap),
                oracle(&lengths, sep, size, overlap)
            );
        }
    }
}
