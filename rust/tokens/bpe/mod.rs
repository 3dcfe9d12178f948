//! Byte-pair encoding of one pre-tokenized piece, merge for merge as tiktoken does it.
//!
//! tiktoken's rule: start from single bytes; repeatedly merge the adjacent pair whose
//! concatenation has the lowest rank (the leftmost on ties) until no pair is a token. Most
//! pieces are whole tokens (one table probe). The others start from their bytes, except
//! letters of several bytes whose own merges provably come first ([`LetterParts`]); pieces
//! of few parts then merge by scanning a small array for the minimum, longer ones (runs of
//! CJK letters, long words, repeated characters) with a heap with lazy deletion, which picks
//! the same `(rank, position)` minimum in O(n log n) instead of O(n²). Which token two
//! parts make is one probe of [`Joins`], keyed by their ranks. Very long pieces (a run of
//! letters megabytes long) are merged in small windows joined at a shared token, in linear
//! time and without caching them ([`windows`]).

mod joins;
mod letter_parts;
mod long_tokens;
mod parallel;
mod piece_cache;
mod scan_keys;
mod scratch;
mod short_tokens;
mod tables;
mod windows;

use std::cmp::Reverse;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use joins::Joins;
use letter_parts::{utf8_len, LetterParts, Parts};
use long_tokens::LongTokens;
use piece_cache::piece_hash;
use scratch::Scratch;
use short_tokens::ShortTokens;

#[cfg_attr(not(feature = "python"), allow(unused_imports))] // the binding: long texts
pub use parallel::PARALLEL_MIN;
pub use piece_cache::clear_caches;

/// Pieces of more parts than this are merged with a heap instead of linear scans (at most
/// 64: the scan keeps a part's place in six bits, see [`scan_keys`]).
const SCAN_MAX: usize = 64;

/// The mergeable ranks of one encoding, borrowed from the bundled data.
#[derive(Debug)]
pub struct Ranks {
    /// The tokens of up to eight bytes, bytes inline: one probe, no `memcmp`.
    short: ShortTokens,
    /// The longer tokens, by the hash the piece cache uses.
    long: LongTokens,
    tokens: Vec<&'static [u8]>,
    /// Every token's length by rank (0 for gaps), two bytes each: windows of ids are sized
    /// by summing lengths, and this stays in cache where `tokens` (16 bytes each) does not.
    lens: Vec<u16>,
    /// Rank of every two-byte token, indexed by the two bytes (`u32::MAX` if none): the
    /// first round of every merge asks for pairs of bytes, and an array beats hashing.
    pairs: Vec<u32>,
    /// Rank of every single byte (every byte is a token in these encodings).
    bytes: [u32; 256],
    /// See [`Ranks::joins`].
    joins: OnceLock<Option<Joins>>,
    /// See [`Ranks::letters`].
    letters: OnceLock<LetterParts>,
    /// Which cache slot this table owns in each thread's piece cache.
    slot: usize,
}

impl Ranks {
    /// Unpacks tables of `(first rank, length-prefixed tokens)` (see `tools/pack_ranks.py`).
    pub fn from_packed(parts: &[(u32, &'static [u8])]) -> Self {
        static SLOTS: AtomicUsize = AtomicUsize::new(0);
        let mut tokens: Vec<&'static [u8]> = Vec::new();
        for &(first, mut data) in parts {
            let mut rank = first as usize;
            while let Some((&len, rest)) = data.split_first() {
                let Some((token, rest)) = rest.split_at_checked(len as usize) else {
                    break;
                };
                if tokens.len() <= rank {
                    tokens.resize(rank + 1, &[]);
                }
                tokens[rank] = token;
                rank += 1;
                data = rest;
            }
        }
        let (mut pairs, mut bytes) = (vec![u32::MAX; 1 << 16], [u32::MAX; 256]);
        for (rank, token) in (0..).zip(&tokens) {
            match **token {
                [a] => bytes[usize::from(a)] = rank,
                [a, b] => pairs[usize::from(a) << 8 | usize::from(b)] = rank,
                _ => {}
            }
        }
        Self {
            lens: tokens
                .iter()
                .map(|t| u16::try_from(t.len()).unwrap_or(u16::MAX))
                .collect(),
            short: ShortTokens::new(tokens.iter().copied().zip(0..)),
            long: LongTokens::new(&tokens, piece_hash),
            tokens,
            pairs,
            bytes,
            joins: OnceLock::new(),
            letters: OnceLock::new(),
            slot: SLOTS.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// Which slot this table owns in per-thread caches (one per encoding).
    pub fn slot(&self) -> usize {
        self.slot
    }

    /// Number of mergeable tokens.
    pub fn len(&self) -> usize {
        self.tokens.iter().filter(|t| !t.is_empty()).count()
    }

    /// Whether there are no tokens (never, for a bundled encoding).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The highest rank.
    pub fn max_rank(&self) -> u32 {
        self.tokens.len().saturating_sub(1) as u32
    }

    /// The rank of `bytes` if it is a token.
    #[inline]
    pub fn rank(&self, bytes: &[u8]) -> Option<u32> {
        match bytes.len() {
            0 => None,
            1..=short_tokens::MAX_LEN => self.short.get(bytes),
            _ => self.long.get(bytes, piece_hash(bytes), &self.tokens),
        }
    }

    /// The bytes of the token with rank `rank`, if it is one.
    pub fn token(&self, rank: u32) -> Option<&'static [u8]> {
        self.tokens
            .get(rank as usize)
            .copied()
            .filter(|t| !t.is_empty())
    }

    /// The length in bytes of the token with rank `rank`, if it is one.
    #[inline]
    pub fn token_len(&self, rank: u32) -> Option<usize> {
        match *self.lens.get(rank as usize)? {
            0 => None,
            u16::MAX => self.token(rank).map(<[u8]>::len),
            len => Some(usize::from(len)),
        }
    }

    /// Every token's bytes by rank (empty where a rank is a gap).
    pub fn tokens(&self) -> &[&'static [u8]] {
        &self.tokens
    }

    /// Appends the tokens of `piece` to `out`.
    pub fn encode_piece(&self, piece: &[u8], out: &mut Vec<u32>) {
        if piece.len() >= windows::LONG {
            return self.encode_long(piece, out);
        }
        if piece.len() <= short_tokens::MAX_LEN {
            if let Some(rank) = self.rank(piece) {
                out.push(rank);
                return;
            }
            return self.with_cached(piece, piece_hash(piece), |ids| out.extend_from_slice(ids));
        }
        let hash = piece_hash(piece);
        if let Some(rank) = self.long.get(piece, hash, &self.tokens) {
            out.push(rank);
            return;
        }
        self.with_cached(piece, hash, |ids| out.extend_from_slice(ids));
    }

    /// The number of tokens of `piece`.
    #[inline]
    pub fn count_piece(&self, piece: &[u8]) -> usize {
        let whole = match piece.len() {
            0 | 1 => return piece.len(),
            // Both bytes are tokens: one token if the pair is.
            2 => self.pairs[usize::from(piece[0]) << 8 | usize::from(piece[1])] != u32::MAX,
            3..=short_tokens::MAX_LEN => self.short.get(piece).is_some(),
            windows::LONG.. => return self.count_long(piece),
            _ => {
                let hash = piece_hash(piece);
                if self.long.get(piece, hash, &self.tokens).is_some() {
                    return 1;
                }
                return self.with_cached(piece, hash, <[u32]>::len);
            }
        };
        if whole {
            return 1;
        }
        self.with_cached(piece, piece_hash(piece), <[u32]>::len)
    }

    /// Calls `f` with the tokens of a multi-token `piece`, from this thread's cache or
    /// merged (and remembered).
    fn with_cached<R>(&self, piece: &[u8], hash: u64, f: impl FnOnce(&[u32]) -> R) -> R {
        piece_cache::with_cached(
            self.slot,
            piece,
            hash,
            |piece, scratch, out| self.merge(piece, scratch, out),
            f,
        )
    }

    /// Which token two adjacent tokens make together (see [`Joins`]): a merge then costs
    /// one probe of a packed table instead of hashing and comparing byte strings. Every
    /// pair of tokens whose bytes join into a token is in it (233k for cl100k, 446k for
    /// o200k); built on the first merge. `None` if the ranks are too large to pack (no
    /// bundled encoding): then the joined bytes are looked up.
    fn joins(&self) -> Option<&Joins> {
        self.joins
            .get_or_init(|| {
                Joins::fits(self.max_rank()).then(|| {
                    let mut entries = Vec::with_capacity(self.tokens.len() * 5 / 2);
                    for (rank, token) in (0..).zip(&self.tokens) {
                        for k in 1..token.len() {
                            let Some(a) = self.rank(&token[..k]) else {
                                continue;
                            };
                            if let Some(b) = self.rank(&token[k..]) {
                                entries.push((a, b, rank));
                            }
                        }
                    }
                    Joins::new(&entries)
                })
            })
            .as_ref()
    }

    /// The [`LetterParts`] a merge may start from, built on the first piece that has
    /// letters of several bytes (English text never pays for it).
    fn letters(&self) -> &LetterParts {
        self.letters
            .get_or_init(|| LetterParts::new(&self.tokens, |letter| self.build(letter)))
    }

    /// The parts BPE makes of `bytes` alone (the plain way: `bytes` is one letter, four
    /// bytes at most) and the highest rank it merges by; `None` if it merges nothing.
    fn build(&self, bytes: &[u8]) -> Option<(Parts, u32)> {
        // cuts[i]: where part i starts.
        let mut cuts: Vec<usize> = (0..=bytes.len()).collect();
        let mut highest = None;
        while let Some((rank, i)) = (0..cuts.len() - 2)
            .filter_map(|i| self.rank(&bytes[cuts[i]..cuts[i + 2]]).map(|r| (r, i)))
            .min()
        {
            highest = highest.max(Some(rank));
            cuts.remove(i + 1);
        }
        let mut parts = Parts::default();
        for (k, w) in cuts.windows(2).enumerate().take(4) {
            parts.lens[k] = (w[1] - w[0]) as u8;
            parts.ranks[k] = self.rank(&bytes[w[0]..w[1]])?;
            parts.count += 1;
        }
        Some((parts, highest?))
    }

    /// Fills `start` and `part` with the parts a merge of `piece` starts from: its bytes,
    /// but the letters [`LetterParts`] allows in the parts BPE builds of them alone.
    /// `start[k]` is where part `k` begins (one more entry: the length), `part[k]` its rank.
    fn start_parts(&self, piece: &[u8], start: &mut Vec<u32>, part: &mut Vec<u32>) {
        start.clear();
        part.clear();
        if piece.is_ascii() {
            // Every byte a part (long runs of letters merge window after window of these).
            start.extend(0..=piece.len() as u32);
            part.extend(piece.iter().map(|&b| self.bytes[usize::from(b)]));
            return;
        }
        let letters = piece.iter().any(|&b| b >= 0xC2).then(|| self.letters());
        let mut i = 0;
        while i < piece.len() {
            let len = utf8_len(piece[i]);
            if let Some(parts) = letters.and_then(|l| l.parts(piece, i, len)) {
                for (width, rank) in parts.iter() {
                    start.push(i as u32);
                    part.push(rank);
                    i += width;
                }
            } else {
                start.push(i as u32);
                part.push(self.bytes[usize::from(piece[i])]);
                i += 1;
            }
        }
        start.push(piece.len() as u32);
    }

    /// The rank of the part `[a, b)` of `piece` made of tokens `left` then `right`
    /// (`u32::MAX` if it is not a token); two bytes come from the pair array.
    // Left to itself the compiler calls it from the merge loops: counting long runs of
    // letters measured 6-7 % slower that way (benches/letters_ab.py), ordinary text alike.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn join(
        &self,
        joins: Option<&Joins>,
        piece: &[u8],
        a: usize,
        b: usize,
        left: u32,
        right: u32,
    ) -> u32 {
        if b - a == 2 {
            return self.pairs[usize::from(piece[a]) << 8 | usize::from(piece[a + 1])];
        }
        match joins {
            Some(joins) => joins.get(left, right),
            None => self.rank(&piece[a..b]).unwrap_or(u32::MAX),
        }
    }

    /// Appends the tokens of `piece` after all merges to `out`.
    fn merge(&self, piece: &[u8], scratch: &mut Scratch, out: &mut Vec<u32>) {
        self.start_parts(piece, &mut scratch.start, &mut scratch.part);
        if scratch.part.len() <= SCAN_MAX && scan_keys::fits(self.max_rank()) {
            self.merge_scan(piece, scratch, out);
        } else {
            self.merge_heap(piece, scratch, out);
        }
    }

    /// The merges over few parts: they form a linked list, and `key[k]` is the key
    /// ([`scan_keys`]) of part `k` joined with the next: its rank and place, or
    /// [`scan_keys::NONE`] where parts do not join, or `k` is gone. The lowest key is then
    /// the lowest rank at the leftmost place, found by one pass over a small array in
    /// vector instructions; nothing moves.
    fn merge_scan(&self, piece: &[u8], scratch: &mut Scratch, out: &mut Vec<u32>) {
        use scan_keys::{key as pack, NONE};
        let joins = self.joins();
        let Scratch {
            start,
            part,
            next,
            prev,
            keys: key,
            ..
        } = scratch;
        let total = part.len();
        // The bytes of parts `from` up to (not including) `to`.
        let span = |from: usize, to: usize| (start[from] as usize, start[to] as usize);
        link(next, prev, total);
        key.clear();
        key.extend((0..total).map(|at| match at + 2 {
            end if end <= total => {
                let (from, to) = span(at, end);
                pack(
                    self.join(joins, piece, from, to, part[at], part[at + 1]),
                    at,
                )
            }
            _ => NONE,
        }));
        scan_keys::pad(key);
        loop {
            let best = scan_keys::lowest(key);
            if best == NONE {
                break;
            }
            let (rank, at) = scan_keys::unpack(best);
            let gone = next[at] as usize;
            let after = next[gone] as usize;
            part[at] = rank;
            next[at] = after as u32;
            key[gone] = NONE;
            key[at] = if after < total {
                prev[after] = at as u32;
                let (from, to) = span(at, next[after] as usize);
                pack(self.join(joins, piece, from, to, rank, part[after]), at)
            } else {
                NONE
            };
            if let Some(&before) = prev.get(at).filter(|&&b| b != u32::MAX) {
                let before = before as usize;
                let (from, to) = span(before, after);
                key[before] = pack(
                    self.join(joins, piece, from, to, part[before], rank),
                    before,
                );
            }
        }
        emit(part, next, out);
    }

    /// The same merges driven by a min-heap of `rank << 32 | k` over the linked list of
    /// parts; an entry is current while `pair[k]` still holds its rank (gone parts and pairs
    /// that are not tokens hold `u32::MAX`).
    fn merge_heap(&self, piece: &[u8], scratch: &mut Scratch, out: &mut Vec<u32>) {
        const NONE: u32 = u32::MAX;
        let joins = self.joins();
        let Scratch {
            start,
            part,
            next,
            prev,
            pair,
            heap,
            ..
        } = scratch;
        let m = part.len() as u32;
        // next[k] / prev[k]: neighbouring parts (`m` past the last, NONE before the first).
        link(next, prev, m as usize);
        let pair_of = |next: &[u32], part: &[u32], k: u32| -> u32 {
            let j = next[k as usize];
            if j >= m {
                return NONE;
            }
            let (a, b) = (
                start[k as usize] as usize,
                start[next[j as usize] as usize] as usize,
            );
            self.join(joins, piece, a, b, part[k as usize], part[j as usize])
        };
        pair.clear();
        pair.extend((0..m).map(|k| pair_of(next, part, k)));
        heap.clear();
        heap.extend(
            pair.iter()
                .enumerate()
                .filter(|&(_, &r)| r != NONE)
                .map(|(k, &r)| Reverse(u64::from(r) << 32 | k as u64)),
        );
        while let Some(Reverse(entry)) = heap.pop() {
            let (rank, k) = ((entry >> 32) as u32, entry as u32);
            if pair[k as usize] != rank {
                continue; // stale
            }
            let gone = next[k as usize];
            let after = next[gone as usize];
            next[k as usize] = after;
            if after < m {
                prev[after as usize] = k;
            }
            part[k as usize] = rank;
            pair[gone as usize] = NONE;
            for at in [k, prev[k as usize]] {
                if at != NONE {
                    let r = pair_of(next, part, at);
                    pair[at as usize] = r;
                    if r != NONE {
                        heap.push(Reverse(u64::from(r) << 32 | u64::from(at)));
                    }
                }
            }
        }
        emit(part, next, out);
    }
}

/// Links parts `0..total` in order: `next[k]` is `k + 1` (`total` past the last), `prev[k]`
/// is `k - 1` (`u32::MAX` before the first).
fn link(next: &mut Vec<u32>, prev: &mut Vec<u32>, total: usize) {
    next.clear();
    next.extend(1..=total as u32);
    prev.clear();
    prev.extend((0..total as u32).map(|k| k.wrapping_sub(1)));
}

/// Appends the ranks of the parts left after the merges, following `next` from the first.
fn emit(part: &[u32], next: &[u32], out: &mut Vec<u32>) {
    let mut k = 0;
    while k < part.len() {
        out.push(part[k]);
        k = next[k] as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::encodings::spec;
    use proptest::prelude::*;

    fn ranks() -> &'static Ranks {
        spec("cl100k_base").unwrap().ranks()
    }

    #[test]
    fn words_and_bytes() {
        let r = ranks();
        let mut out = Vec::new();
        r.encode_piece(b"hello", &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(r.token(out[0]), Some(&b"hello"[..]));
        assert_eq!(r.count_piece("漢字漢字漢字".as_bytes()), {
            let mut v = Vec::new();
            r.encode_piece("漢字漢字漢字".as_bytes(), &mut v);
            v.len()
        });
    }

    /// BPE the plain way: merge the lowest-ranked pair (leftmost on ties) until none joins.
    fn plain(r: &Ranks, bytes: &[u8]) -> Vec<u32> {
        let mut cuts: Vec<usize> = (0..=bytes.len()).collect();
        while let Some((_, i)) = (0..cuts.len().saturating_sub(2))
            .filter_map(|i| r.rank(&bytes[cuts[i]..cuts[i + 2]]).map(|k| (k, i)))
            .min()
        {
            cuts.remove(i + 1);
        }
        cuts.windows(2)
            .map(|w| r.rank(&bytes[w[0]..w[1]]).unwrap())
            .collect()
    }

    type Merge = fn(&Ranks, &[u8], &mut Scratch, &mut Vec<u32>);

    /// Both merges (the scan where it applies) agree with [`plain`] on `bytes`.
    fn merges_agree(encoding: &str, bytes: &[u8]) -> Result<(), TestCaseError> {
        let r = spec(encoding).unwrap().ranks();
        let want = plain(r, bytes);
        let run = |merge: Merge| {
            let (mut scratch, mut out) = (Scratch::default(), vec![7]);
            r.start_parts(bytes, &mut scratch.start, &mut scratch.part);
            merge(r, bytes, &mut scratch, &mut out);
            out.split_off(1)
        };
        prop_assert_eq!(run(Ranks::merge_heap), want.clone());
        let mut parts = (Vec::new(), Vec::new());
        r.start_parts(bytes, &mut parts.0, &mut parts.1);
        if parts.1.len() <= SCAN_MAX {
            prop_assert_eq!(run(Ranks::merge_scan), want);
        }
        Ok(())
    }

    const ENCODINGS: [&str; 3] = ["cl100k_base", "o200k_base", "r50k_base"];

    proptest! {
        /// Letters of two to four bytes next to each other, to ASCII and to marks: the
        /// merges start from the parts of letters where [`LetterParts`] allows it.
        #[test]
        fn merges_match_plain_bpe_on_letters(
            piece in "[ab x漢é的是在一中们个这用数饕餮привет กขอ🙂🦀ñü、。，\u{301}\u{200d}]{1,80}",
            encoding in 0..ENCODINGS.len(),
        ) {
            merges_agree(ENCODINGS[encoding], piece.as_bytes())?;
        }

        /// Any bytes, heavy on UTF-8 lead and continuation bytes (malformed runs included).
        #[test]
        fn merges_match_plain_bpe_on_bytes(
            bytes in proptest::collection::vec(
                prop_oneof![any::<u8>(), 0x80u8..0xC0, 0xC2u8..0xF5], 1..80),
            encoding in 0..ENCODINGS.len(),
        ) {
            merges_agree(ENCODINGS[encoding], &bytes)?;
        }
    }
}
