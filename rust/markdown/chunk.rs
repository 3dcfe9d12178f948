//! The Markdown chunk record, shared by the chunker, the overlap pass and parents (it lives
//! here so that none of them imports another for it).

use std::sync::Arc;

/// A chunk before identity: byte span, heading path and flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MdChunk {
    /// Start, in bytes.
    pub start: usize,
    /// End, in bytes (exclusive).
    pub end: usize,
    /// Titles of the headings the chunk's first block sits under (its own included).
    pub path: Arc<[String]>,
    /// The chunk starts inside a block that was cut (a later piece of it).
    pub continuation: bool,
    /// For a later piece of a cut table: the span of its header and delimiter rows.
    pub header: Option<(usize, usize)>,
    /// Holds nothing but headings (merged into the next chunk where it fits).
    pub(super) heading_only: bool,
    /// Its size once measured: packing and merging ask for it again and again.
    pub(super) size: Option<usize>,
}
