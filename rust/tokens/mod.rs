//! Tokens: tiktoken-identical BPE, offline, and Hugging Face tokenizers, as chunk sizes.
//!
//! - [`encodings`]: the seven tiktoken encodings (patterns, special tokens, model names) and
//!   their ranks, bundled in the binary.
//! - [`pretokenize`]: hand-written pre-tokenizers for the r50k, cl100k and o200k regexes.
//! - [`bpe`]: the merge of one piece and the tables and per-thread cache behind it.
//! - [`bytes`]: tiktoken's `_encode_bytes` and `_encode_single_piece` (any bytes).
//! - [`tokenizer`]: encode, count, windows of tokens, and the token [`crate::Length`].
//! - [`unstable`]: tiktoken's `encode_with_unstable`.
//! - [`huggingface`]: a `tokenizer.json` as a length (the `huggingface` feature).

pub mod bpe;
pub mod bytes;
pub mod encodings;
#[cfg(feature = "huggingface")]
pub mod huggingface;
pub mod pretokenize;
pub mod tokenizer;
pub mod unstable;

pub use tokenizer::{SpecialPolicy, TokenLength, Tokenizer};
