//! The Markdown chunk record, shared by the chunker, the overlap pass and parents (it lives
//! here so that none of them imports another for it).

use std::sync::Arc;

/// Why a chunk ends where it does, as the chunker decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MdCut {
    /// The end of the text.
    End,
    /// A heading follows (it opens the next chunk).
    Heading,
    /// A block ends there (paragraph, list, quote, HTML; the last piece of a cut block).
    Block,
    /// A code block or table kept whole ends there.
    Atomic,
    /// Inside a block, at a seam of [`super::prose`] (sentence, clause, line, ...).
    Prose(super::prose::Seam),
    /// Inside a paragraph, at the gap of this of the chunker's own separators.
    Separator(usize),
}

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
    /// Why it ends where it does.
    pub cut: MdCut,
}
