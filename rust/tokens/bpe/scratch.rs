//! The merges' working buffers, owned by neither the merge nor the cache that keeps them
//! per thread (both use them; neither imports the other for it).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Working buffers of the merges, kept per thread: a long CJK piece would otherwise
/// allocate four vectors and a heap.
#[derive(Default)]
pub struct Scratch {
    pub(super) start: Vec<u32>,
    pub(super) part: Vec<u32>,
    pub(super) next: Vec<u32>,
    pub(super) prev: Vec<u32>,
    pub(super) pair: Vec<u32>,
    /// The array-scan merge's keys (see `scan_keys`).
    pub(super) keys: Vec<f32>,
    pub(super) heap: BinaryHeap<Reverse<u64>>,
}
