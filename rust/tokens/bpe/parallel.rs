//! A very long piece merged in parts on the threads of the rayon pool it is counted in, the
//! parts joined at a shared token as windows are ([`super::windows`]).
//!
//! Windows make a run of letters megabytes long linear, but one thread still merges it
//! byte after byte. Here the piece is cut at `c_1 < c_2 < …` and part `k` is the valid
//! encoding of `piece[c_k..c_{k+1} + OVERLAP]`, each merged in windows on its own thread.
//! By the join fact in `windows`, the valid encoding of `piece[..c_k + OVERLAP]` (the parts
//! before, joined) and part `k` join at the first token they hold at the same place into
//! the valid encoding of `piece[..c_{k+1} + OVERLAP]`. A part keeps only the tokens over its
//! first and last `OVERLAP` bytes for the joins (all of them when encoding). Windows join
//! within 8 to 32 bytes; where two parts share no token in their 4 KB (the tests force it
//! with overlaps shorter than the tokens of a run of spaces) the piece is merged on one
//! thread instead, so the result is exact either way.
//!
//! Only callers already running on a pool get this ([`crate::parallel::run`]: the fork-safe
//! pools, never rayon's global one).

use rayon::prelude::*;

use super::Ranks;

/// Pieces shorter than this are merged on one thread (a megabyte of letters: ~50 ms).
pub const PARALLEL_MIN: usize = 1 << 20;

/// Bytes each part reaches into the next, where their join is looked for.
const OVERLAP: usize = 4096;

/// Parts per thread: work stealing evens out parts that merge at different speeds.
const PARTS_PER_THREAD: usize = 4;

/// What joining a part needs: its number of tokens, those over its first `overlap` bytes
/// (`head`), those reaching past where the next part starts (`tail`, from byte `tail_at` of
/// the part), and all of them when encoding.
struct Part {
    count: usize,
    head: Vec<u32>,
    tail: Vec<u32>,
    tail_at: usize,
    ids: Option<Vec<u32>>,
}

/// A part's tokens as they stream out: how many, those starting in its first `overlap`
/// bytes (`head`, `head_end` bytes), the latest ones (enough to cover `overlap` bytes), and
/// all of them when encoding.
#[derive(Default)]
struct Seen {
    count: usize,
    head: Vec<u32>,
    head_end: usize,
    latest: Vec<u32>,
    all: Vec<u32>,
}

impl Seen {
    fn take(&mut self, ranks: &Ranks, ids: &[u32], overlap: usize, keep: bool) {
        self.count += ids.len();
        for &id in ids {
            if self.head_end >= overlap {
                break;
            }
            self.head.push(id);
            self.head_end += ranks.len_of(id);
        }
        // A token is at least one byte: `overlap + 1` tokens reach back past `overlap` bytes.
        self.latest.extend_from_slice(ids);
        if self.latest.len() > 4 * (overlap + 1) {
            self.latest.drain(..self.latest.len() - (overlap + 1));
        }
        if keep {
            self.all.extend_from_slice(ids);
        }
    }
}

impl Ranks {
    /// The tokens of a long `piece` merged in parts across the current pool: their number,
    /// and the tokens themselves if `keep`. `None` where that does not apply (not on a pool
    /// of two or more threads, a piece under [`PARALLEL_MIN`]) or two parts did not join.
    pub(super) fn merge_in_parallel(&self, piece: &[u8], keep: bool) -> Option<(usize, Vec<u32>)> {
        let threads = rayon::current_num_threads();
        if piece.len() < PARALLEL_MIN || threads < 2 || rayon::current_thread_index().is_none() {
            return None;
        }
        self.merge_in_parts(piece, keep, threads * PARTS_PER_THREAD, OVERLAP)
    }

    /// [`Ranks::merge_in_parallel`] in about `parts` parts reaching `overlap` bytes into the
    /// next, on the current pool (or on this thread).
    fn merge_in_parts(
        &self,
        piece: &[u8],
        keep: bool,
        parts: usize,
        overlap: usize,
    ) -> Option<(usize, Vec<u32>)> {
        let cuts = cuts(piece, parts, overlap);
        let parts: Vec<Part> = cuts
            .par_windows(2)
            .map(|w| {
                let end = piece.len().min(w[1] + overlap);
                self.part(&piece[w[0]..end], w[1] - w[0], overlap, keep)
            })
            .collect();
        self.join_parts(parts, &cuts)
    }

    /// Merges one part on this thread and keeps what its joins need: the next part starts at
    /// byte `next` of it, and joins within `overlap` bytes of that. Only the first and the
    /// latest tokens are kept as they stream out (all of them if `keep`).
    fn part(&self, bytes: &[u8], next: usize, overlap: usize, keep: bool) -> Part {
        let seen = std::cell::RefCell::new(Seen::default());
        self.stream_long(
            bytes,
            &mut |ids| seen.borrow_mut().take(self, ids, overlap, keep),
            &mut || *seen.borrow_mut() = Seen::default(),
        );
        let seen = seen.into_inner();
        // The latest tokens end at the part's end: walk back past `next`.
        let (mut first, mut tail_at) = (seen.latest.len(), bytes.len());
        while first > 0 && tail_at > next {
            first -= 1;
            tail_at -= self.len_of(seen.latest[first]);
        }
        Part {
            count: seen.count,
            head: seen.head,
            tail: seen.latest[first..].to_vec(),
            tail_at,
            ids: keep.then_some(seen.all),
        }
    }

    /// Joins the parts cut at `cuts` in order: the count, and the tokens if kept.
    fn join_parts(&self, mut parts: Vec<Part>, cuts: &[usize]) -> Option<(usize, Vec<u32>)> {
        let (mut count, mut ids) = (parts[0].count, parts[0].ids.take().unwrap_or_default());
        for k in 1..parts.len() {
            let (before, part) = (&parts[k - 1], &parts[k]);
            let tail_at = cuts[k - 1] + before.tail_at;
            let (i, j) = self.shared_token(&before.tail, tail_at, &part.head, cuts[k])?;
            // The joined prefix's tokens after the shared one, and the part's up to it, go.
            let dropped = before.tail.len() - 1 - i;
            count = count - dropped + part.count - (j + 1);
            if let Some(more) = &part.ids {
                ids.truncate(ids.len() - dropped);
                ids.extend_from_slice(&more[j + 1..]);
            }
        }
        Some((count, ids))
    }
}

/// Where about `parts` parts of `piece` start, at the start of a character and each part at
/// least four times `overlap` long (so a part's head and tail never meet), then its length.
fn cuts(piece: &[u8], parts: usize, overlap: usize) -> Vec<usize> {
    let step = (piece.len() / parts.max(1)).max(4 * overlap);
    let mut cuts = vec![0];
    let mut at = step;
    while at + 4 * overlap < piece.len() {
        while piece[at] & 0xC0 == 0x80 && at + 4 * overlap < piece.len() {
            at += 1;
        }
        cuts.push(at);
        at += step;
    }
    cuts.push(piece.len());
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::encodings::spec;
    use proptest::prelude::*;

    const ENCODINGS: [&str; 3] = ["cl100k_base", "o200k_base", "r50k_base"];

    /// One thread's windows (themselves checked against the whole merge in `windows`).
    fn alone(r: &Ranks, piece: &[u8]) -> Vec<u32> {
        let mut out = Vec::new();
        r.encode_long_alone(piece, &mut out);
        out
    }

    /// Merged in about `parts` parts joined within `overlap` bytes on a pool of three
    /// threads: the tokens and count of one thread's windows, or no join at all (encoding
    /// and counting alike). `true` if the parts joined.
    fn parts_agree(
        encoding: &str,
        piece: &[u8],
        parts: usize,
        overlap: usize,
    ) -> Result<bool, TestCaseError> {
        let r = spec(encoding).unwrap().ranks();
        let want = alone(r, piece);
        let (encoded, counted) = crate::parallel::run(3, || {
            (
                r.merge_in_parts(piece, true, parts, overlap),
                r.merge_in_parts(piece, false, parts, overlap),
            )
        })
        .unwrap();
        match (encoded, counted) {
            (Some((n, ids)), Some((m, none))) => {
                prop_assert_eq!(&ids, &want);
                prop_assert_eq!((n, m), (want.len(), want.len()));
                prop_assert!(none.is_empty(), "counting keeps no tokens");
                Ok(true)
            }
            (None, None) => Ok(false),
            _ => Err(TestCaseError::fail(
                "encoding and counting disagree on joining",
            )),
        }
    }

    /// Long runs without a break: letters (random and English-like), digits, CJK, one
    /// repeated pattern, any bytes.
    fn long_runs() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            "[a-z]{300,3000}".prop_map(String::into_bytes),
            "(the|and|ing|tion|[a-zA-Z]){100,900}".prop_map(String::into_bytes),
            "[0-9]{300,3000}".prop_map(String::into_bytes),
            "[漢字的是在一中们个这é]{100,900}".prop_map(String::into_bytes),
            "[a-z]{1,30}".prop_map(|s| s.repeat(97).into_bytes()),
            proptest::collection::vec(any::<u8>(), 300..3000),
        ]
    }

    proptest! {
        #[test]
        fn parts_join_into_the_tokens_of_one_thread(
            piece in long_runs(),
            parts in 2usize..12,
            overlap in prop_oneof![Just(16usize), Just(64), Just(256)],
            encoding in 0..ENCODINGS.len(),
        ) {
            parts_agree(ENCODINGS[encoding], &piece, parts, overlap)?;
        }
    }

    #[test]
    fn letters_join_in_every_encoding() {
        let letters: Vec<u8> = (0..40_000u32)
            .map(|i| b"etaoinshrdlucmfwyp"[((i * 7919) ^ (i >> 3)) as usize % 18])
            .collect();
        for encoding in ENCODINGS {
            assert!(
                parts_agree(encoding, &letters, 16, 64).unwrap(),
                "{encoding}"
            );
        }
    }

    /// Runs of spaces make tokens longer than a small overlap: no shared token, and the
    /// caller merges on one thread.
    #[test]
    fn parts_that_share_no_token_are_not_joined() {
        let spaces = vec![b' '; 20_000];
        let r = spec("cl100k_base").unwrap().ranks();
        let joined = crate::parallel::run(2, || r.merge_in_parts(&spaces, false, 8, 8)).unwrap();
        assert_eq!(joined, None);
        assert!(!parts_agree("cl100k_base", &spaces, 8, 8).unwrap());
    }

    /// The entry point merges in parts only on a pool of two or more threads and pieces of
    /// [`PARALLEL_MIN`] bytes or more, and `count_piece`/`encode_piece` agree either way.
    #[test]
    fn long_pieces_go_parallel_only_on_a_pool() {
        let r = spec("cl100k_base").unwrap().ranks();
        let piece: Vec<u8> = (0..PARALLEL_MIN as u64 + 999)
            .map(|i| b'a' + ((i * 7919) % 26) as u8)
            .collect();
        assert!(
            r.merge_in_parallel(&piece, false).is_none(),
            "not on a pool"
        );
        let short = &piece[..PARALLEL_MIN - 1];
        let on_pool = crate::parallel::run(2, || {
            let mut ids = Vec::new();
            r.encode_piece(&piece, &mut ids);
            (
                r.merge_in_parallel(short, false).is_none(),
                r.merge_in_parallel(&piece, false).map(|(n, _)| n),
                ids,
                r.count_piece(&piece),
            )
        })
        .unwrap();
        let want = alone(r, &piece);
        assert!(on_pool.0, "a piece under PARALLEL_MIN stays on one thread");
        assert_eq!(on_pool.1, Some(want.len()));
        assert_eq!(on_pool.2, want);
        assert_eq!(on_pool.3, want.len());
    }
}
