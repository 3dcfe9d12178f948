//! Byte-pair encoding of one pre-tokenized piece, merge for merge as tiktoken does it.
//!
//! tiktoken's rule: start from single bytes; repeatedly merge the adjacent pair whose
//! concatenation has the lowest rank (the leftmost on ties) until no pair is a token. Most
//! pieces are whole tokens (one hash lookup); the rest are short, where a linear scan for the
//! minimum beats a heap. Long pieces (runs of CJK letters, long words, repeated characters)
//! use a heap with lazy deletion, which picks the same `(rank, position)` minimum in
//! O(n log n) instead of O(n²).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use rustc_hash::{FxHashMap, FxHasher};

use crate::short_tokens::{self, ShortTokens};

/// Pieces longer than this (in bytes) are merged with a heap instead of linear scans.
const HEAP_THRESHOLD: usize = 32;

/// The mergeable ranks of one encoding, borrowed from the bundled data.
#[derive(Debug)]
pub struct Ranks {
    map: FxHashMap<&'static [u8], u32>,
    /// The tokens of up to eight bytes again, bytes inline: one probe, no `memcmp`.
    short: ShortTokens,
    tokens: Vec<&'static [u8]>,
    /// Rank of every two-byte token, indexed by the two bytes (`u32::MAX` if none): the
    /// first round of every merge asks for pairs of bytes, and an array beats hashing.
    pairs: Vec<u32>,
    /// Rank of every single byte (every byte is a token in these encodings).
    bytes: [u32; 256],
    /// See [`Ranks::joins`].
    joins: OnceLock<FxHashMap<u64, u32>>,
    /// Which cache slot this table owns in each thread's piece cache.
    slot: usize,
}

/// Distinct pieces a thread remembers per encoding before starting afresh.
const CACHE_LIMIT: usize = 1 << 16;

/// Token ids a thread's cache holds per encoding before starting afresh.
const CACHE_IDS_LIMIT: usize = 1 << 20;

/// Piece bytes a thread's cache holds per encoding before starting afresh.
const CACHE_BYTES_LIMIT: usize = 1 << 22;

/// Tokens of multi-token pieces, for one encoding on one thread: markdown and code repeat
/// the same identifiers and words, and LangChain's recursion counts the same text at every
/// level, so a cached piece skips its whole merge when counting and when encoding.
#[derive(Default)]
struct PieceCache {
    /// [`piece_hash`] of a piece to where its bytes and tokens are: the piece is hashed
    /// once for the lookup and the insert, and no key is allocated.
    map: HashMap<u64, Cached, BuildHasherDefault<Prehashed>>,
    /// The bytes of every cached piece, back to back (one allocation for all).
    bytes: Vec<u8>,
    /// The tokens of every cached piece, back to back.
    ids: Vec<u32>,
    /// Buffers the merges reuse.
    scratch: Scratch,
    /// The [`clear_caches`] generation the contents belong to.
    epoch: usize,
}

/// Where one cached piece's bytes and tokens are in [`PieceCache`].
#[derive(Clone, Copy)]
struct Cached {
    bytes: u32,
    len: u32,
    ids: u32,
    count: u32,
}

/// Working buffers of the merges, kept per thread: a long CJK piece would otherwise
/// allocate five vectors and a heap.
#[derive(Default)]
struct Scratch {
    parts: Vec<(usize, u32, u32)>,
    next: Vec<u32>,
    prev: Vec<u32>,
    part: Vec<u32>,
    pair: Vec<u32>,
    heap: BinaryHeap<Reverse<u64>>,
}

/// A hasher for keys that already are hashes ([`piece_hash`]).
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed; fold anything else in anyway.
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The hash of a piece in [`PieceCache::map`].
#[inline]
fn piece_hash(piece: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(piece);
    h.finish()
}

/// Bumped by [`clear_caches`]; each thread empties its caches when it sees a new value.
static EPOCH: AtomicUsize = AtomicUsize::new(0);

/// Empties every thread's piece caches (lazily, at each thread's next lookup): for
/// benchmarks that must measure a cold first pass, and to give memory back.
pub fn clear_caches() {
    EPOCH.fetch_add(1, Ordering::Relaxed);
}

thread_local! {
    /// One cache per encoding (indexed by `Ranks::slot`).
    static PIECES: RefCell<Vec<PieceCache>> = const { RefCell::new(Vec::new()) };
}

impl Ranks {
    /// Unpacks tables of `(first rank, length-prefixed tokens)` (see `tools/pack_ranks.py`).
    pub fn from_packed(parts: &[(u32, &'static [u8])]) -> Self {
        static SLOTS: AtomicUsize = AtomicUsize::new(0);
        let mut ranks = Self {
            map: FxHashMap::default(),
            short: ShortTokens::new(std::iter::empty()),
            tokens: Vec::new(),
            pairs: vec![u32::MAX; 1 << 16],
            bytes: [u32::MAX; 256],
            joins: OnceLock::new(),
            slot: SLOTS.fetch_add(1, Ordering::Relaxed),
        };
        for &(first, mut data) in parts {
            let mut rank = first;
            while let Some((&len, rest)) = data.split_first() {
                let Some((token, rest)) = rest.split_at_checked(len as usize) else {
                    break;
                };
                ranks.insert(rank, token);
                rank += 1;
                data = rest;
            }
        }
        ranks.short = ShortTokens::new(ranks.tokens.iter().copied().zip(0..));
        ranks
    }

    fn insert(&mut self, rank: u32, token: &'static [u8]) {
        let slot = rank as usize;
        if self.tokens.len() <= slot {
            self.tokens.resize(slot + 1, &[]);
        }
        self.tokens[slot] = token;
        self.map.insert(token, rank);
        if let [a] = *token {
            self.bytes[usize::from(a)] = rank;
        }
        if let [a, b] = *token {
            self.pairs[usize::from(a) << 8 | usize::from(b)] = rank;
        }
    }

    /// Which slot this table owns in per-thread caches (one per encoding).
    pub fn slot(&self) -> usize {
        self.slot
    }

    /// Number of mergeable tokens.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether there are no tokens (never, for a bundled encoding).
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The highest rank.
    pub fn max_rank(&self) -> u32 {
        self.tokens.len().saturating_sub(1) as u32
    }

    /// The rank of `bytes` if it is a token.
    #[inline]
    pub fn rank(&self, bytes: &[u8]) -> Option<u32> {
        if (1..=short_tokens::MAX_LEN).contains(&bytes.len()) {
            self.short.get(bytes)
        } else {
            self.map.get(bytes).copied()
        }
    }

    /// The bytes of the token with rank `rank`, if it is one.
    pub fn token(&self, rank: u32) -> Option<&'static [u8]> {
        self.tokens
            .get(rank as usize)
            .copied()
            .filter(|t| !t.is_empty())
    }

    /// Every token's bytes by rank (empty where a rank is a gap).
    pub fn tokens(&self) -> &[&'static [u8]] {
        &self.tokens
    }

    /// Appends the tokens of `piece` to `out`.
    pub fn encode_piece(&self, piece: &[u8], out: &mut Vec<u32>) {
        if let Some(rank) = self.rank(piece) {
            out.push(rank);
            return;
        }
        self.with_cached(piece, |ids| out.extend_from_slice(ids));
    }

    /// The number of tokens of `piece`.
    #[inline]
    pub fn count_piece(&self, piece: &[u8]) -> usize {
        let whole = match piece.len() {
            0 | 1 => return piece.len(),
            // Both bytes are tokens: one token if the pair is.
            2 => self.pairs[usize::from(piece[0]) << 8 | usize::from(piece[1])] != u32::MAX,
            _ => self.rank(piece).is_some(),
        };
        if whole {
            return 1;
        }
        self.with_cached(piece, <[u32]>::len)
    }

    /// Calls `f` with the tokens of a multi-token `piece`, from this thread's cache or
    /// merged (and remembered).
    fn with_cached<R>(&self, piece: &[u8], f: impl FnOnce(&[u32]) -> R) -> R {
        let hash = piece_hash(piece);
        PIECES.with(|cell| {
            let Ok(mut caches) = cell.try_borrow_mut() else {
                // Re-entered (never, today): merge without the cache.
                let mut ids = Vec::new();
                self.merge(piece, &mut Scratch::default(), &mut ids);
                return f(&ids);
            };
            if caches.len() <= self.slot {
                caches.resize_with(self.slot + 1, PieceCache::default);
            }
            let cache = &mut caches[self.slot];
            let epoch = EPOCH.load(Ordering::Relaxed);
            if cache.epoch != epoch {
                *cache = PieceCache {
                    epoch,
                    ..PieceCache::default()
                };
            }
            if let Some(&c) = cache.map.get(&hash) {
                if cache.bytes[c.bytes as usize..(c.bytes + c.len) as usize] == *piece {
                    return f(&cache.ids[c.ids as usize..(c.ids + c.count) as usize]);
                }
                // Another piece with the same hash holds the slot: merge uncached.
                let mut ids = Vec::new();
                self.merge(piece, &mut cache.scratch, &mut ids);
                return f(&ids);
            }
            if cache.map.len() >= CACHE_LIMIT
                || cache.ids.len() >= CACHE_IDS_LIMIT
                || cache.bytes.len() >= CACHE_BYTES_LIMIT
            {
                cache.map.clear();
                cache.ids.clear();
                cache.bytes.clear();
            }
            let at = cache.ids.len();
            self.merge(piece, &mut cache.scratch, &mut cache.ids);
            let entry = Cached {
                bytes: cache.bytes.len() as u32,
                len: piece.len() as u32,
                ids: at as u32,
                count: (cache.ids.len() - at) as u32,
            };
            cache.bytes.extend_from_slice(piece);
            cache.map.insert(hash, entry);
            f(&cache.ids[at..])
        })
    }

    /// Which token two adjacent tokens make together, keyed by their ranks: a merge then
    /// costs one multiply-hash of a `u64` instead of hashing and comparing byte strings
    /// (those lookups were half the time of counting Chinese, whose pieces are long runs).
    /// Every pair of tokens whose bytes join into a token is in it (233k for cl100k, 446k
    /// for o200k); built on the first merge, in tens of milliseconds.
    fn joins(&self) -> &FxHashMap<u64, u32> {
        self.joins.get_or_init(|| {
            let mut joins = FxHashMap::default();
            joins.reserve(self.tokens.len() * 5 / 2);
            for (rank, token) in self.tokens.iter().enumerate() {
                for k in 1..token.len() {
                    let Some(a) = self.rank(&token[..k]) else {
                        continue;
                    };
                    if let Some(b) = self.rank(&token[k..]) {
                        joins.insert(join_key(a, b), rank as u32);
                    }
                }
            }
            joins
        })
    }

    /// The rank of the part `[a, b)` of `piece` made of tokens `left` then `right`
    /// (`u32::MAX` if it is not a token); two bytes come from the pair array.
    #[inline]
    fn join(
        &self,
        joins: &FxHashMap<u64, u32>,
        piece: &[u8],
        a: usize,
        b: usize,
        left: u32,
        right: u32,
    ) -> u32 {
        if b - a == 2 {
            self.pairs[usize::from(piece[a]) << 8 | usize::from(piece[a + 1])]
        } else {
            joins
                .get(&join_key(left, right))
                .copied()
                .unwrap_or(u32::MAX)
        }
    }

    /// Appends the tokens of `piece` after all merges to `out`.
    fn merge(&self, piece: &[u8], scratch: &mut Scratch, out: &mut Vec<u32>) {
        if piece.len() > HEAP_THRESHOLD {
            return self.merge_heap(piece, scratch, out);
        }
        let joins = self.joins();
        // parts[i] = (start of part i, its rank, rank of part i joined with part i + 1).
        let parts = &mut scratch.parts;
        parts.clear();
        parts.extend((0..=piece.len()).map(|i| {
            (
                i,
                piece
                    .get(i)
                    .map_or(u32::MAX, |&b| self.bytes[usize::from(b)]),
                u32::MAX,
            )
        }));
        let pair = |parts: &[(usize, u32, u32)], i: usize| -> u32 {
            match parts.get(i + 2) {
                Some(&(end, _, _)) => {
                    self.join(joins, piece, parts[i].0, end, parts[i].1, parts[i + 1].1)
                }
                None => u32::MAX,
            }
        };
        for i in 0..parts.len().saturating_sub(2) {
            parts[i].2 = pair(parts, i);
        }
        loop {
            let (mut best, mut at) = (u32::MAX, 0);
            for (i, &(_, _, rank)) in parts[..parts.len() - 1].iter().enumerate() {
                if rank < best {
                    best = rank;
                    at = i;
                }
            }
            if best == u32::MAX {
                break;
            }
            parts.remove(at + 1);
            parts[at].1 = best;
            parts[at].2 = pair(parts, at);
            if at > 0 {
                parts[at - 1].2 = pair(parts, at - 1);
            }
        }
        parts.pop();
        out.extend(parts.iter().map(|&(_, rank, _)| rank));
    }

    /// The same merges driven by a min-heap of `rank << 32 | start` over a linked list of
    /// parts; an entry is current while `pair[start]` still holds its rank (dead parts and
    /// pairs that are not tokens hold `u32::MAX`).
    fn merge_heap(&self, piece: &[u8], scratch: &mut Scratch, out: &mut Vec<u32>) {
        const NONE: u32 = u32::MAX;
        let joins = self.joins();
        let end = piece.len() as u32;
        let Scratch {
            next,
            prev,
            part,
            pair,
            heap,
            ..
        } = scratch;
        // next[i] / prev[i]: neighbouring part starts (`end` past the last, NONE before the first).
        next.clear();
        next.extend(1..=end);
        prev.clear();
        prev.extend((0..end).map(|i| i.wrapping_sub(1)));
        part.clear();
        part.extend(piece.iter().map(|&b| self.bytes[usize::from(b)]));
        let pair_of = |next: &[u32], part: &[u32], i: u32| -> u32 {
            let j = next[i as usize];
            if j >= end {
                return NONE;
            }
            let k = next[j as usize] as usize;
            self.join(
                joins,
                piece,
                i as usize,
                k,
                part[i as usize],
                part[j as usize],
            )
        };
        pair.clear();
        pair.extend((0..end).map(|i| pair_of(next, part, i)));
        heap.clear();
        heap.extend(
            pair.iter()
                .enumerate()
                .filter(|&(_, &r)| r != NONE)
                .map(|(i, &r)| Reverse(u64::from(r) << 32 | i as u64)),
        );
        while let Some(Reverse(entry)) = heap.pop() {
            let (rank, i) = ((entry >> 32) as u32, entry as u32);
            if pair[i as usize] != rank {
                continue; // stale
            }
            let gone = next[i as usize];
            let after = next[gone as usize];
            debug_assert_eq!(self.rank(&piece[i as usize..after as usize]), Some(rank));
            next[i as usize] = after;
            if after < end {
                prev[after as usize] = i;
            }
            part[i as usize] = rank;
            pair[gone as usize] = NONE;
            for at in [i, prev[i as usize]] {
                if at != NONE {
                    let r = pair_of(next, part, at);
                    pair[at as usize] = r;
                    if r != NONE {
                        heap.push(Reverse(u64::from(r) << 32 | u64::from(at)));
                    }
                }
            }
        }
        let mut i = 0;
        while i < end {
            out.push(part[i as usize]);
            i = next[i as usize];
        }
    }
}

/// The key of a pair of ranks in [`Ranks::joins`].
#[inline]
fn join_key(left: u32, right: u32) -> u64 {
    u64::from(left) << 32 | u64::from(right)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encodings::spec;
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

    proptest! {
        #[test]
        fn heap_and_scan_merge_alike(piece in "[ab 漢é]{1,60}") {
            let r = ranks();
            let bytes = piece.as_bytes();
            let merged = |heap: bool| {
                let (mut scratch, mut out) = (Scratch::default(), vec![7]);
                if heap {
                    r.merge_heap(bytes, &mut scratch, &mut out);
                } else {
                    r.merge(bytes, &mut scratch, &mut out);
                }
                out.split_off(1)
            };
            prop_assert_eq!(merged(true), merged(false));
            prop_assert_eq!(merged(true), {
                // The scan, forced regardless of length.
                let mut parts: Vec<usize> = (0..=bytes.len()).collect();
                loop {
                    let best = (0..parts.len().saturating_sub(2))
                        .filter_map(|i| r.rank(&bytes[parts[i]..parts[i + 2]]).map(|k| (k, i)))
                        .min();
                    let Some((_, i)) = best else { break };
                    parts.remove(i + 1);
                }
                parts.windows(2).map(|w| r.rank(&bytes[w[0]..w[1]]).unwrap()).collect::<Vec<_>>()
            });
        }
    }
}
