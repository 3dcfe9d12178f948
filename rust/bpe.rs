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
use std::sync::atomic::{AtomicUsize, Ordering};

use rustc_hash::FxHashMap;

/// Pieces longer than this (in bytes) are merged with a heap instead of linear scans.
const HEAP_THRESHOLD: usize = 128;

/// The mergeable ranks of one encoding, borrowed from the bundled data.
#[derive(Debug)]
pub struct Ranks {
    map: FxHashMap<&'static [u8], u32>,
    tokens: Vec<&'static [u8]>,
    /// Rank of every two-byte token, indexed by the two bytes (`u32::MAX` if none): the
    /// first round of every merge asks for pairs of bytes, and an array beats hashing.
    pairs: Vec<u32>,
    /// Which cache slot this table owns in each thread's piece cache.
    slot: usize,
}

/// Distinct pieces a thread remembers per encoding before starting afresh.
const CACHE_LIMIT: usize = 1 << 16;

thread_local! {
    /// Token counts of multi-token pieces, per encoding: markdown and code repeat the same
    /// identifiers and words, and a count from the cache skips the whole merge.
    static COUNTS: RefCell<Vec<FxHashMap<Box<[u8]>, u32>>> = const { RefCell::new(Vec::new()) };
}

impl Ranks {
    /// Unpacks tables of `(first rank, length-prefixed tokens)` (see `tools/pack_ranks.py`).
    pub fn from_packed(parts: &[(u32, &'static [u8])]) -> Self {
        static SLOTS: AtomicUsize = AtomicUsize::new(0);
        let mut ranks = Self {
            map: FxHashMap::default(),
            tokens: Vec::new(),
            pairs: vec![u32::MAX; 1 << 16],
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
        ranks
    }

    fn insert(&mut self, rank: u32, token: &'static [u8]) {
        let slot = rank as usize;
        if self.tokens.len() <= slot {
            self.tokens.resize(slot + 1, &[]);
        }
        self.tokens[slot] = token;
        self.map.insert(token, rank);
        if let [a, b] = *token {
            self.pairs[usize::from(a) << 8 | usize::from(b)] = rank;
        }
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
        self.map.get(bytes).copied()
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
        let bounds = self.merge(piece);
        out.extend(bounds.windows(2).map(|w| {
            self.rank(&piece[w[0]..w[1]]).unwrap_or(u32::MAX) // every byte is a token
        }));
    }

    /// The number of tokens of `piece`.
    #[inline]
    pub fn count_piece(&self, piece: &[u8]) -> usize {
        if piece.len() == 1 || self.map.contains_key(piece) {
            return 1;
        }
        COUNTS.with_borrow_mut(|caches| {
            if caches.len() <= self.slot {
                caches.resize_with(self.slot + 1, FxHashMap::default);
            }
            let cache = &mut caches[self.slot];
            if let Some(&n) = cache.get(piece) {
                return n as usize;
            }
            let n = self.merge(piece).len() - 1;
            if cache.len() >= CACHE_LIMIT {
                cache.clear();
            }
            cache.insert(piece.into(), n as u32);
            n
        })
    }

    /// The rank of `piece[a..b]`, through the pair table for two bytes.
    #[inline]
    fn rank_of(&self, piece: &[u8], a: usize, b: usize) -> u32 {
        if b - a == 2 {
            self.pairs[usize::from(piece[a]) << 8 | usize::from(piece[a + 1])]
        } else {
            self.rank(&piece[a..b]).unwrap_or(u32::MAX)
        }
    }

    /// Token boundaries of `piece` after all merges (byte offsets, first 0, last the length).
    fn merge(&self, piece: &[u8]) -> Vec<usize> {
        if piece.len() > HEAP_THRESHOLD {
            return self.merge_heap(piece);
        }
        // parts[i] = (start of part i, rank of part i joined with part i + 1).
        let mut parts: Vec<(usize, u32)> = (0..=piece.len()).map(|i| (i, u32::MAX)).collect();
        let pair = |parts: &[(usize, u32)], i: usize| -> u32 {
            match parts.get(i + 2) {
                Some(&(end, _)) => self.rank_of(piece, parts[i].0, end),
                None => u32::MAX,
            }
        };
        for i in 0..parts.len().saturating_sub(2) {
            parts[i].1 = pair(&parts, i);
        }
        loop {
            let (mut best, mut at) = (u32::MAX, 0);
            for (i, &(_, rank)) in parts[..parts.len() - 1].iter().enumerate() {
                if rank < best {
                    best = rank;
                    at = i;
                }
            }
            if best == u32::MAX {
                break;
            }
            parts.remove(at + 1);
            parts[at].1 = pair(&parts, at);
            if at > 0 {
                parts[at - 1].1 = pair(&parts, at - 1);
            }
        }
        parts.into_iter().map(|(start, _)| start).collect()
    }

    /// The same merges driven by a min-heap of `(rank, start)` over a linked list of parts.
    fn merge_heap(&self, piece: &[u8]) -> Vec<usize> {
        let n = piece.len();
        // next[i] / prev[i]: neighbouring part starts; alive parts start at i with next[i] > i.
        let mut next: Vec<usize> = (1..=n).collect();
        let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
        let mut alive = vec![true; n];
        let mut heap = BinaryHeap::new();
        let rank_at = |next: &[usize], i: usize| -> Option<u32> {
            let j = next[i];
            let rank = if j < n {
                self.rank_of(piece, i, next[j])
            } else {
                u32::MAX
            };
            (rank != u32::MAX).then_some(rank)
        };
        for i in 0..n.saturating_sub(1) {
            if let Some(r) = rank_at(&next, i) {
                heap.push(Reverse((r, i, next[next[i]])));
            }
        }
        while let Some(Reverse((rank, i, end))) = heap.pop() {
            // Stale unless part i is alive, still followed by one part, ending at `end`.
            let j = next[i];
            if !alive[i] || j >= n || next[j] != end {
                continue;
            }
            debug_assert_eq!(self.rank(&piece[i..end]), Some(rank));
            alive[j] = false;
            next[i] = end;
            if end < n {
                prev[end] = i;
            }
            if let Some(r) = rank_at(&next, i) {
                heap.push(Reverse((r, i, next[next[i]])));
            }
            let p = prev[i];
            if p < n {
                if let Some(r) = rank_at(&next, p) {
                    heap.push(Reverse((r, p, next[next[p]])));
                }
            }
        }
        let mut bounds = Vec::new();
        let mut i = 0;
        while i < n {
            bounds.push(i);
            i = next[i];
        }
        bounds.push(n);
        bounds
    }
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
            prop_assert_eq!(r.merge_heap(bytes), {
                // The scan, forced regardless of length.
                let mut parts: Vec<usize> = (0..=bytes.len()).collect();
                loop {
                    let best = (0..parts.len().saturating_sub(2))
                        .filter_map(|i| r.rank(&bytes[parts[i]..parts[i + 2]]).map(|k| (k, i)))
                        .min();
                    let Some((_, i)) = best else { break };
                    parts.remove(i + 1);
                }
                parts
            });
        }
    }
}
