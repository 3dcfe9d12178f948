//! Markdown structure: chunks that follow headings and never cut code blocks or tables.
//!
//! - [`blocks`]: the block structure (headings, fences, tables, lists, quotes, HTML).
//! - [`lines`]: what a single line can open or close, as `CommonMark` reads it.
//! - [`chunk`]: the chunk record the chunker, overlap and parents share.
//! - [`chunker`]: blocks made into units (headings glued on, oversize blocks cut).
//! - [`pack`]: units packed into sized chunks, paragraphs filling the room left.
//! - [`overlap`]: optional tails of the previous chunk, from a seam.
//! - [`parent`]: larger parent chunks made of runs of children.
//! - [`prose`]: cuts inside a block that does not fit: sentences first, even sizes.
//! - [`sections`]: the heading path of every part of the text, and what a chunk covers.
//! - [`ids`]: code-point offsets and stable ids of chunks and parents.
//! - [`header`]: LangChain's `MarkdownHeaderTextSplitter` line scan, reproduced exactly.

pub mod blocks;
pub mod chunk;
pub mod chunker;
pub mod header;
#[cfg(any(feature = "python", feature = "arrow"))] // their only users
pub mod ids;
pub mod lines;
pub mod overlap;
mod pack;
pub mod parent;
pub mod prose;
pub mod sections;

pub use chunk::MdChunk;
pub use chunker::MarkdownChunker;
