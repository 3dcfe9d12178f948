//! Per-thread memory of merged pieces: markdown and code repeat the same identifiers and
//! words, and LangChain's recursion counts the same text at every level, so a piece seen
//! before skips its whole merge when counting and when encoding.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};

use rustc_hash::FxHasher;

use super::scratch::Scratch;

/// Distinct pieces a thread remembers per encoding before starting afresh.
const CACHE_LIMIT: usize = 1 << 16;

/// Token ids a thread's cache holds per encoding before starting afresh.
const CACHE_IDS_LIMIT: usize = 1 << 20;

/// Piece bytes a thread's cache holds per encoding before starting afresh.
const CACHE_BYTES_LIMIT: usize = 1 << 22;

/// Tokens of multi-token pieces, for one encoding on one thread.
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

/// The hash a piece is known by, here and in the table of long tokens.
#[inline]
pub fn piece_hash(piece: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(piece);
    h.finish()
}

/// Bumped by [`clear_caches`]; each thread empties its caches when it sees a new value.
/// With the per-thread caches themselves, the only mutable state threads share.
static EPOCH: AtomicUsize = AtomicUsize::new(0);

/// Marks every thread's piece caches stale and returns at once: for benchmarks that must
/// measure a cold first pass, and to give memory back. The caches are per thread (one per
/// encoding); this bumps a global counter that each thread compares with its own the next
/// time it looks a piece up, and only then does that thread drop its cache and free it. A
/// thread that never counts or encodes again keeps its cache until it exits.
pub fn clear_caches() {
    EPOCH.fetch_add(1, Ordering::Relaxed);
}

/// The [`clear_caches`] generation now.
fn epoch() -> usize {
    EPOCH.load(Ordering::Relaxed)
}

thread_local! {
    /// One cache per encoding (indexed by the encoding's slot).
    static PIECES: RefCell<Vec<PieceCache>> = const { RefCell::new(Vec::new()) };
}

/// Calls `f` with the tokens of `piece` (whose [`piece_hash`] is `hash`) from this thread's
/// cache for encoding `slot`, or as `merge` makes them (and remembers them).
pub fn with_cached<R>(
    slot: usize,
    piece: &[u8],
    hash: u64,
    merge: impl Fn(&[u8], &mut Scratch, &mut Vec<u32>),
    f: impl FnOnce(&[u32]) -> R,
) -> R {
    PIECES.with(|cell| {
        let Ok(mut caches) = cell.try_borrow_mut() else {
            // Re-entered (never, today): merge without the cache.
            let mut ids = Vec::new();
            merge(piece, &mut Scratch::default(), &mut ids);
            return f(&ids);
        };
        if caches.len() <= slot {
            caches.resize_with(slot + 1, PieceCache::default);
        }
        let cache = &mut caches[slot];
        let epoch = epoch();
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
            merge(piece, &mut cache.scratch, &mut ids);
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
        merge(piece, &mut cache.scratch, &mut cache.ids);
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
