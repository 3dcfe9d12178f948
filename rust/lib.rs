//! ferrochunk's core: text splitting for retrieval pipelines, reproducing
//! `langchain_text_splitters` exactly while tracking byte and code-point offsets.
//!
//! One folder per subsystem, each with a `mod.rs` that says what it owns:
//! - [`split`]: recursive separator splitting (scan, merge, recursion);
//! - [`tokens`]: tiktoken-identical BPE and Hugging Face tokenizers as chunk sizes;
//! - [`markdown`]: Markdown structure, chunking, overlap, parents, the header splitter;
//! - [`structure`]: reStructuredText, AsciiDoc and plain-text block scanners for the same
//!   chunker;
//! - [`sentences`]: sentence spans (English and CJK rules), the seams of semantic chunking;
//! - [`corpus`]: whole corpora to JSON Lines or Parquet columns, in parallel (the CLI);
//! - [`parallel`]: thread counts and fork-safe pools for every parallel call;
//! - [`stream`]: the recursive splitter over text too large for memory, fed in pieces.
//! - `code` (feature `code`): source code chunked along its tree-sitter syntax tree.
//! - `arrow` (feature `arrow`): Arrow record batches in, one row per chunk out.
//!
//! Shared primitives sit at the top: [`error`], [`text`] (Python's `str` semantics),
//! [`block`] (the block every format's scanner emits and the chunker packs),
//! [`units`] (text as UTF-8 or CPython's own 1/2/4-byte storage, which the splitter reads
//! in place), [`length`] (how sizes are measured) and [`chunk_id`]. The core knows nothing of
//! Python; `python/` (behind the `python` feature) is the only place that does.

#[cfg(feature = "arrow")]
pub(crate) mod arrow;
pub(crate) mod block;
pub(crate) mod chunk_id;
#[cfg(feature = "code")]
pub(crate) mod code;
pub(crate) mod corpus;
pub(crate) mod error;
pub(crate) mod length;
pub(crate) mod markdown;
pub(crate) mod parallel;
pub(crate) mod sentences;
pub(crate) mod split;
pub(crate) mod stream;
pub(crate) mod structure;
pub(crate) mod text;
pub(crate) mod tokens;
pub(crate) mod units;

#[cfg(feature = "python")]
mod python;

#[cfg(feature = "arrow")]
pub use arrow::{chunk_batches, output_schema, Chunking, Kinds, Layout, RowChunker, Stats, Texts};
pub use chunk_id::{chunk_id, text_digest};
#[cfg(feature = "code")]
pub use code::{language_names, CodeChunk, CodeChunker};
pub use corpus::{CorpusChunker, Engine, Fields, Format, Input, Job, Output, Payload, Settings};
pub use error::{Error, Result};
pub use length::Length;
pub use markdown::header::{HeaderBlock, HeaderRule, HeaderSplitter};
pub use markdown::{MarkdownChunker, MdChunk};
pub use sentences::{sentence_ends, sentence_ends_of, sentences, Boundaries, Hits, Scan, Sentence};
pub use split::{
    Chunk, Cut, KeepSeparator, Separator, Span, SpanOutput, SplitConfig, SplitOutput, Splitter,
    DEFAULT_SEPARATORS,
};
pub use structure::Markup;
pub use text::CharCursor;
pub use tokens::bpe::clear_caches;
pub use tokens::encodings::{encoding_for_model, names as encoding_names, pattern, Dialect};
#[cfg(feature = "huggingface")]
pub use tokens::huggingface::HfLength;
pub use tokens::pretokenize::Pieces;
pub use tokens::tokenizer::{
    lossy_windows, token_offsets, token_windows, token_windows_lossy, LossyWindow,
};
pub use tokens::{SpecialPolicy, TokenLength, Tokenizer};
pub use units::{Fixed, Offsets, Storage, Unit, Units, Utf8};
