//! ferrochunk's core: text splitting for retrieval pipelines, reproducing
//! `langchain_text_splitters` exactly while tracking byte and code-point offsets.
//!
//! The core knows nothing of Python; `python/` (behind the `python` feature) is the
//! only place that does.

pub mod bpe;
pub mod chunk_id;
pub mod corpus;
pub mod encodings;
pub mod error;
#[cfg(feature = "huggingface")]
pub mod hf_tokens;
pub mod joins;
pub mod letter_parts;
pub mod long_tokens;
pub mod markdown_blocks;
pub mod markdown_chunk;
pub mod markdown_header;
pub mod markdown_overlap;
pub mod markdown_parent;
pub mod merge;
pub mod piece_cache;
pub mod pretokenize;
mod pretokenize_ascii;
pub mod scan;
pub mod short_tokens;
pub mod split;
#[cfg(test)]
mod split_oracle;
pub mod text;
pub mod tokens;

#[cfg(feature = "python")]
mod python;

pub use error::{Error, Result};
pub use scan::{KeepSeparator, Separator};
pub use split::{Chunk, Length, SplitConfig, SplitOutput, Splitter};
pub use tokens::{SpecialPolicy, TokenLength, Tokenizer};
