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
//! keeps no list). Where two windows share no token (a change at a window's end that moved
//! the tokens near it), the next window starts twice as far back and is merged again, as long
//! as it still reaches past the last; a window of the same bytes as the one merged just before
//! (one repeated character or pattern) takes its tokens without merging. If no window joins
//! (a token longer than the overlap, as runs of spaces make), the piece starts over with
//! windows twice as wide; past [`MAX_WINDOW`] bytes it is merged whole instead. The result
//! is exact either way, and the work stays linear: a step tries at most three windows, and
//! the attempts before the width that succeeds cost at most as much again.

use super::scratch::Scratch;
use super::Ranks;

/// Bytes merged at a time: at most [`super::SCAN_MAX`] parts, so each window takes the
/// array scan, not the heap.
pub const WINDOW: usize = 64;

/// Bytes of the previous window the next one starts before its end (the join is looked for
/// there): about two tokens of letters; the re-merged overlap is the price of each window.
/// Measured on 5 MB runs of letters (random, and English with everything but letters taken
/// out), builds alternated: 8 ran 1.2x and 1.15x as fast as 16, and beat 4, 6 and 12;
/// windows of 32 and 48 bytes were slower.
pub const MARGIN: usize = 8;

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
        // `tail` is the valid encoding of `piece[..end]` from position `base` on; `next`
        // that of `piece[merged]`, the last window merged.
        let (mut tail, mut next) = (Vec::new(), Vec::new());
        let (mut base, mut end) = (0, window.min(piece.len()));
        let mut merged = 0..0;
        self.merge(&piece[..end], scratch, &mut tail);
        while end < piece.len() {
            let Some((kept, start, stop, (a, b))) = self.join_next(
                piece,
                (window, margin),
                (&tail, base, end),
                (&mut next, &mut merged),
                scratch,
            ) else {
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

    /// Merges the window after `tail` (the valid encoding of `piece[base..end]`) into `next`
    /// and finds where the two join: `(kept, start, stop, (a, b))` where the window is
    /// `piece[start..stop]`, starting after the first `kept` tokens of `tail`, and
    /// `tail[kept + a] == next[b]` is their first shared token. The window starts at the last
    /// token boundary at most `margin` bytes before `end`; if no token is shared, at most
    /// twice as far back, and so on while the window still reaches past `end`. `None` if no
    /// such window joins.
    fn join_next(
        &self,
        piece: &[u8],
        (window, mut margin): (usize, usize),
        (tail, base, end): (&[u32], usize, usize),
        (next, merged): (&mut Vec<u32>, &mut std::ops::Range<usize>),
        scratch: &mut Scratch,
    ) -> Option<(usize, usize, usize, (usize, usize))> {
        loop {
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
                return None;
            }
            // A window of the same bytes as the last (one repeated character or pattern)
            // has the same tokens.
            if piece[start..stop] != piece[merged.clone()] {
                next.clear();
                self.merge(&piece[start..stop], scratch, next);
                *merged = start..stop;
            }
            if let Some(shared) = self.shared_token(&tail[kept..], start, next, start) {
                return Some((kept, start, stop, shared));
            }
            margin *= 2;
        }
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

    /// The first token `a[i] == b[j]` that both sequences (starting at positions `pa` and
    /// `pb`) hold at the same position, as `(i, j)`.
    pub(super) fn shared_token(
        &self,
        a: &[u32],
        mut pa: usize,
        b: &[u32],
        mut pb: usize,
    ) -> Option<(usize, usize)> {
        let (mut i, mut j) = (0, 0);
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
    pub(super) fn len_of(&self, rank: u32) -> usize {
        self.token_len(rank).unwrap_or(1)
    }

    /// Appends the tokens of a long piece to `out`: in parts across the current pool where
    /// that applies ([`Ranks::merge_in_parallel`]), else [`Ranks::encode_long_alone`].
    pub(super) fn encode_long(&self, piece: &[u8], out: &mut Vec<u32>) {
        match self.merge_in_parallel(piece, true) {
            Some((_, ids)) => out.extend_from_slice(&ids),
            None => self.encode_long_alone(piece, out),
        }
    }

    /// Appends the tokens of a long piece to `out`, on this thread.
    pub(super) fn encode_long_alone(&self, piece: &[u8], out: &mut Vec<u32>) {
        let mark = out.len();
        let out = std::cell::RefCell::new(out);
        self.stream_long(
            piece,
            &mut |ids| out.borrow_mut().extend_from_slice(ids),
            &mut || out.borrow_mut().truncate(mark),
        );
    }

    /// The number of tokens of a long piece: in parts across the current pool where that
    /// applies, else on this thread (keeping no tokens).
    pub(super) fn count_long(&self, piece: &[u8]) -> usize {
        if let Some((count, _)) = self.merge_in_parallel(piece, false) {
            return count;
        }
        let count = std::cell::Cell::new(0);
        self.stream_long(
            piece,
            &mut |ids| count.set(count.get() + ids.len()),
            &mut || count.set(0),
        );
        count.get()
    }

    /// Calls `emit` with the tokens of a long piece in order, on this thread: in windows,
    /// else (`reset` having dropped what they emitted) merged whole.
    pub(super) fn stream_long(
        &self,
        piece: &[u8],
        emit: &mut impl FnMut(&[u32]),
        reset: &mut impl FnMut(),
    ) {
        let mut scratch = Scratch::default();
        if !self.merge_windows_widening(piece, (WINDOW, MARGIN), &mut scratch, emit, reset) {
            let mut all = Vec::new();
            self.merge(piece, &mut scratch, &mut all);
            emit(&all);
        }
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
            "[a-zA-Z]{200,700}".prop_map(String::into_bytes),
            "[a-zA-Z]{1,40}".prop_map(|s| s.repeat(9).into_bytes()),
            (1usize..600).prop_map(|n| vec![b'a'; n]),
            (1usize..600).prop_map(|n| vec![b' '; n]),
            "[漢字的是在一中们个这]{1,120}".prop_map(String::into_bytes),
            "[0-9]{1,300}".prop_map(String::into_bytes),
            proptest::collection::vec(any::<u8>(), 1..300),
        ]
    }

    /// `encode_piece` and `count_piece` (the ways text reaches the windows) give the whole
    /// merge's tokens.
    #[track_caller]
    fn piece_agrees(r: &Ranks, piece: &[u8]) {
        let want = whole(r, piece);
        let mut got = Vec::new();
        r.encode_piece(piece, &mut got);
        let shown = String::from_utf8_lossy(&piece[..piece.len().min(24)]).into_owned();
        assert_eq!(got, want, "{} bytes from {shown:?}", piece.len());
        assert_eq!(r.count_piece(piece), want.len(), "{} bytes", piece.len());
    }

    /// Pseudo-random letters (a linear congruential generator: no period a window sees).
    fn random_letters(n: usize, alphabet: &[u8]) -> Vec<u8> {
        let mut x = 0x2545_F491_u64;
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                alphabet[(x >> 33) as usize % alphabet.len()]
            })
            .collect()
    }

    /// English with everything but letters taken out, as one piece.
    fn english_letters(n: usize) -> Vec<u8> {
        let text = "It was the best of times, it was the worst of times, it was the age of \
            wisdom, it was the age of foolishness, it was the epoch of belief, it was the \
            epoch of incredulity, it was the season of Light, it was the season of Darkness";
        let letters: Vec<u8> = text.bytes().filter(u8::is_ascii_alphabetic).collect();
        letters.iter().copied().cycle().take(n).collect()
    }

    /// Every window edge at every place: the same run shifted by each offset up to a window,
    /// at lengths around the threshold and the first window edges.
    #[test]
    fn windows_join_at_every_offset() {
        let lower = random_letters(1000, b"abcdefghijklmnopqrstuvwxyz");
        let mixed = random_letters(
            1000,
            b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        );
        let english = english_letters(1000);
        for encoding in ENCODINGS {
            let r = spec(encoding).unwrap().ranks();
            for run in [&lower, &mixed, &english] {
                for shift in 0..WINDOW {
                    for len in [LONG - 1, LONG, LONG + 1, LONG + WINDOW - MARGIN, 700] {
                        piece_agrees(r, &run[shift..shift + len]);
                    }
                }
            }
        }
    }

    /// One letter, digit or mark repeated: every window after the first holds the same
    /// bytes and takes the last window's tokens.
    #[test]
    fn each_character_repeated() {
        let marks = [b' ', b'\n', b'.', b'-', b'_', b'='];
        let chars = (b'a'..=b'z')
            .chain(b'A'..=b'Z')
            .chain(b'0'..=b'9')
            .chain(marks);
        for encoding in ENCODINGS {
            let r = spec(encoding).unwrap().ranks();
            for c in chars.clone() {
                for len in [LONG - 1, LONG, LONG + 1, 300, 1000, 3001] {
                    piece_agrees(r, &vec![c; len]);
                }
            }
        }
    }

    /// A repeated pattern changed in one place: the window holding the change has other
    /// bytes than the last one and is merged.
    #[test]
    fn repeated_patterns_with_one_change() {
        for encoding in ENCODINGS {
            let r = spec(encoding).unwrap().ranks();
            for pattern in ["ab", "abc", "hello", "xyzzy", "Ab", "aaaaaaab"] {
                let run = pattern.repeat(1200 / pattern.len()).into_bytes();
                piece_agrees(r, &run);
                for at in [0, 63, 64, 255, 256, 600, run.len() - 1] {
                    let mut changed = run.clone();
                    changed[at] = b'Q';
                    piece_agrees(r, &changed);
                }
            }
            piece_agrees(r, "漢字".repeat(200).as_bytes());
        }
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
        assert_eq!(
            r.shared_token(&[hello, world], 9, &[hello], 9),
            Some((0, 0))
        );
        assert_eq!(r.shared_token(&[hello, world], 9, &[world, hello], 9), None);
        let h = r.rank(b"h").unwrap();
        let ello = r.rank(b"ello").unwrap();
        assert_eq!(
            r.shared_token(&[h, ello, world], 0, &[hello, world], 0),
            Some((2, 1))
        );
        // Sequences starting at different places: " world" at 5 in both.
        assert_eq!(
            r.shared_token(&[world], 5, &[hello, world], 0),
            Some((0, 1))
        );
        assert_eq!(r.shared_token(&[world], 4, &[hello, world], 0), None);
    }

    proptest! {
        #[test]
        fn windows_join_exactly(
            piece in runs(),
            encoding in 0..ENCODINGS.len(),
            (window, margin) in prop_oneof![Just((8, 3)), Just((16, 6)), Just((WINDOW, MARGIN)), Just((WINDOW, 16))],
        ) {
            windows_agree(ENCODINGS[encoding], &piece, window, margin)?;
        }
    }
}
