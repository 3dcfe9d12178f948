//! Long pieces merged window by window, in linear time, with tiktoken's result exactly.
//!
//! One piece can be megabytes long (a run of letters, digits or one repeated character with
//! no break the pre-tokenizer cuts at). Merging it whole costs O(n log n) with a heap that
//! outgrows every cache, and keeping it in the piece cache would copy it. Instead the piece
//! is merged a window of [`WINDOW`] bytes at a time, each window starting at a token
//! boundary of the previous result about [`MARGIN`] bytes before its end, and the two
//! results are joined at the first token they share (same bytes, same place).
//!
//! Why the join is exact (the byte-pair encoding of `text` is the unique token sequence
//! that BPE itself produces; call it *valid*). Two facts hold for tiktoken's merge rule
//! (merge the adjacent pair whose concatenation has the lowest rank, leftmost first):
//! - any run of consecutive tokens of a valid encoding is the valid encoding of its own
//!   bytes: BPE never merged across its ends, and the merges inside happened in the same
//!   order whatever lies outside (each was the lowest pair overall, so also inside);
//! - if `A` is the valid encoding of `text[..e]` and `B` that of `text[s..z]` (`s < e`), and
//!   both hold the same token `t` at the same place, then `A` up to `t` followed by `B` after
//!   `t` is the valid encoding of `text[..z]`: the merges of both sides, run together,
//!   never meet across `t`, and a first merge of the whole that neither side makes would
//!   have to cross one of `t`'s ends, which both sides (BPE on each) refused.
//!
//! So each join gives the valid encoding of a longer prefix, and the last one that of the
//! piece. Tokens before the next window's start are final and leave at once (counting
//! keeps no list). If two windows cannot be joined (a token longer than their overlap, as
//! runs of spaces make, or a change at a window's end that moved every token back to its
//! start), the piece starts over with windows twice as wide; past [`MAX_WINDOW`] bytes it is
//! merged whole instead. The result is exact either way, and the work stays linear: the
//! attempts before the one that succeeds cost at most as much again.

use super::scratch::Scratch;
use super::Ranks;

/// Bytes merged at a time: at most [`super::SCAN_MAX`] parts, so each window takes the
/// array scan, not the heap.
pub const WINDOW: usize = 64;

/// Bytes of the previous window the next one starts before its end (the join is looked for
/// there): a few tokens of letters. Measured on 50 MB runs of letters (random, and English
/// with the spaces taken out): 16 beat 8, 12, 24 and 32, and windows of 32 to 128 bytes were
/// within the noise of each other.
pub const MARGIN: usize = 16;

/// The widest window tried before merging a piece whole.
pub const MAX_WINDOW: usize = 1 << 14;

/// Pieces longer than this are merged in windows (and not cached).
pub const LONG: usize = 4 * WINDOW;

impl Ranks {
    /// Calls `emit` with the tokens of `piece`, in order and in batches, merging it in
    /// windows of `window` bytes joined within `margin` bytes; `false` (after possibly
    /// emitting some tokens) where a step cannot join: a token longer than the overlap
    /// (runs of spaces make tokens of up to 128 bytes) or no token shared.
    pub(super) fn merge_windows(
        &self,
        piece: &[u8],
        (window, margin): (usize, usize),
        scratch: &mut Scratch,
        emit: &mut impl FnMut(&[u32]),
    ) -> bool {
        // `tail` is the valid encoding of `piece[..end]` from position `base` on.
        let (mut tail, mut next) = (Vec::new(), Vec::new());
        let (mut base, mut end) = (0, window.min(piece.len()));
        self.merge(&piece[..end], scratch, &mut tail);
        while end < piece.len() {
            // The next window starts at the last token boundary at most `end - margin`,
            // after the first `kept` tokens of `tail`.
            let (mut kept, mut start) = (0, base);
            while kept < tail.len() {
                let after = start + self.len_of(tail[kept]);
                if after > end.saturating_sub(margin) {
                    break;
                }
                (kept, start) = (kept + 1, after);
            }
            let stop = piece.len().min(start + window);
            if stop <= end {
                return false;
            }
            next.clear();
            self.merge(&piece[start..stop], scratch, &mut next);
            let Some((a, b)) = self.shared_token(&tail[kept..], &next, start) else {
                return false;
            };
            emit(&tail[..kept]);
            tail.drain(..kept);
            tail.truncate(a + 1);
            tail.extend_from_slice(&next[b + 1..]);
            (base, end) = (start, stop);
        }
        emit(&tail);
        true
    }

    /// Tries windows of `window` bytes, then twice as wide each time a join fails (`reset`
    /// then drops what was emitted), up to [`MAX_WINDOW`]; `false` if none joined.
    fn merge_windows_widening(
        &self,
        piece: &[u8],
        (mut window, mut margin): (usize, usize),
        scratch: &mut Scratch,
        emit: &mut impl FnMut(&[u32]),
        reset: &mut impl FnMut(),
    ) -> bool {
        while window <= MAX_WINDOW {
            if self.merge_windows(piece, (window, margin), scratch, emit) {
                return true;
            }
            reset();
            (window, margin) = (window * 2, margin * 2);
        }
        false
    }

    /// The first token `a[i] == b[j]` that both sequences (both starting at position `at`)
    /// hold at the same position, as `(i, j)`.
    fn shared_token(&self, a: &[u32], b: &[u32], at: usize) -> Option<(usize, usize)> {
        let (mut i, mut j, mut pa, mut pb) = (0, 0, at, at);
        while i < a.len() && j < b.len() {
            if pa == pb && a[i] == b[j] {
                return Some((i, j));
            }
            if pa <= pb {
                pa += self.len_of(a[i]);
                i += 1;
            } else {
                pb += self.len_of(b[j]);
                j += 1;
            }
        }
        None
    }

    /// The length of a token a merge produced (always a token: at least one byte).
    #[inline]
    fn len_of(&self, rank: u32) -> usize {
        self.token_len(rank).unwrap_or(1)
    }

    /// Appends the tokens of a long piece to `out`: in windows, else whole.
    pub(super) fn encode_long(&self, piece: &[u8], out: &mut Vec<u32>) {
        let (mut scratch, mark) = (Scratch::default(), out.len());
        let out = std::cell::RefCell::new(out);
        let mut emit = |ids: &[u32]| out.borrow_mut().extend_from_slice(ids);
        let mut reset = || out.borrow_mut().truncate(mark);
        if !self.merge_windows_widening(
            piece,
            (WINDOW, MARGIN),
            &mut scratch,
            &mut emit,
            &mut reset,
        ) {
            self.merge(piece, &mut scratch, &mut out.borrow_mut());
        }
    }

    /// The number of tokens of a long piece: in windows (keeping no tokens), else whole.
    pub(super) fn count_long(&self, piece: &[u8]) -> usize {
        let mut scratch = Scratch::default();
        let count = std::cell::Cell::new(0);
        let mut emit = |ids: &[u32]| count.set(count.get() + ids.len());
        let mut reset = || count.set(0);
        if self.merge_windows_widening(piece, (WINDOW, MARGIN), &mut scratch, &mut emit, &mut reset)
        {
            return count.get();
        }
        let mut all = Vec::new();
        self.merge(piece, &mut scratch, &mut all);
        all.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::encodings::spec;
    use proptest::prelude::*;

    const ENCODINGS: [&str; 3] = ["cl100k_base", "o200k_base", "r50k_base"];

    /// The whole-piece merge (itself checked against plain BPE in `bpe::tests`).
    fn whole(r: &Ranks, piece: &[u8]) -> Vec<u32> {
        let mut out = Vec::new();
        r.merge(piece, &mut Scratch::default(), &mut out);
        out
    }

    /// Windows of `window` bytes joined within `margin` give the whole merge's tokens.
    fn windows_agree(
        encoding: &str,
        piece: &[u8],
        window: usize,
        margin: usize,
    ) -> Result<(), TestCaseError> {
        let r = spec(encoding).unwrap().ranks();
        let mut got = Vec::new();
        let done = r.merge_windows(
            piece,
            (window, margin),
            &mut Scratch::default(),
            &mut |ids| {
                got.extend_from_slice(ids);
            },
        );
        let want = whole(r, piece);
        if done {
            prop_assert_eq!(&got, &want);
        }
        // Widening from this size always ends exact.
        let mut got = Vec::new();
        let got = std::cell::RefCell::new(&mut got);
        let done = r.merge_windows_widening(
            piece,
            (window, margin),
            &mut Scratch::default(),
            &mut |ids| got.borrow_mut().extend_from_slice(ids),
            &mut || got.borrow_mut().clear(),
        );
        prop_assert!(done, "pieces this short fit in the widest window");
        prop_assert_eq!(&**got.borrow(), &want);
        Ok(())
    }

    /// Runs without a break: letters, one repeated character or pattern, spaces, CJK.
    fn runs() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            "[a-z]{1,400}".prop_map(String::into_bytes),
            "[a-zA-Z]{1,40}".prop_map(|s| s.repeat(9).into_bytes()),
            (1usize..600).prop_map(|n| vec![b'a'; n]),
            (1usize..600).prop_map(|n| vec![b' '; n]),
            "[漢字的是在一中们个这]{1,120}".prop_map(String::into_bytes),
            "[0-9]{1,300}".prop_map(String::into_bytes),
            proptest::collection::vec(any::<u8>(), 1..300),
        ]
    }

    #[test]
    fn long_pieces_count_and_encode_like_the_whole_merge() {
        let r = spec("cl100k_base").unwrap().ranks();
        let letters: Vec<u8> = (0..20_000u32)
            .map(|i| b'a' + ((i * 7919) % 26) as u8)
            .collect();
        for piece in [
            letters,
            vec![b' '; 5000],
            vec![b'z'; 7777],
            "漢字".repeat(900).into_bytes(),
        ] {
            let want = whole(r, &piece);
            let mut got = vec![7];
            r.encode_long(&piece, &mut got);
            assert_eq!(got[1..], want[..]);
            assert_eq!(r.count_long(&piece), want.len());
        }
    }

    #[test]
    fn a_shared_token_is_the_same_token_at_the_same_place() {
        let r = spec("cl100k_base").unwrap().ranks();
        let (hello, world) = (r.rank(b"hello").unwrap(), r.rank(b" world").unwrap());
        assert_eq!(r.shared_token(&[hello, world], &[hello], 9), Some((0, 0)));
        assert_eq!(r.shared_token(&[hello, world], &[world, hello], 9), None);
        let h = r.rank(b"h").unwrap();
        let ello = r.rank(b"ello").unwrap();
        assert_eq!(
            r.shared_token(&[h, ello, world], &[hello, world], 0),
            Some((2, 1))
        );
    }

    proptest! {
        #[test]
        fn windows_join_exactly(
            piece in runs(),
            encoding in 0..ENCODINGS.len(),
            (window, margin) in prop_oneof![Just((8, 3)), Just((16, 6)), Just((WINDOW, MARGIN))],
        ) {
            windows_agree(ENCODINGS[encoding], &piece, window, margin)?;
        }
    }
}
