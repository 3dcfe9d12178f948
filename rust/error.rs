//! The one error type of the core; the Python binding maps it to exceptions once.

use thiserror::Error;

/// Everything that can go wrong in the core, with messages that say what to change.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// `chunk_size` must be positive.
    #[error("chunk_size must be > 0, got {0}")]
    ChunkSize(i64),
    /// `chunk_overlap` must not be negative.
    #[error("chunk_overlap must be >= 0, got {0}")]
    NegativeOverlap(i64),
    /// The overlap cannot exceed the chunk size.
    #[error("Got a larger chunk overlap ({overlap}) than chunk size ({size}), should be smaller.")]
    OverlapTooLarge {
        /// The requested overlap.
        overlap: usize,
        /// The requested chunk size.
        size: usize,
    },
    /// A separator pattern the regex engine rejects.
    #[error("invalid separator regex {pattern:?}: {reason}")]
    InvalidRegex {
        /// The pattern as given.
        pattern: String,
        /// Why the engine rejected it.
        reason: String,
    },
    /// A separator pattern that can match the empty string would split between every character
    /// in an engine-specific way; use the empty separator `""` for that instead.
    #[error("separator regex {0:?} can match the empty string; use \"\" to split into characters")]
    EmptyMatch(String),
    /// Where `LangChain` itself fails with Python's `IndexError` (reproduced by drop-ins).
    #[error("string index out of range")]
    IndexOutOfRange,
    /// A user-supplied length function failed; the binding keeps the original exception.
    #[error("length function failed: {0}")]
    Length(String),
    /// An encoding name ferrochunk does not bundle.
    #[error("unknown encoding {name:?}; available: {available}")]
    UnknownEncoding {
        /// The name asked for.
        name: String,
        /// The bundled encodings, comma-separated.
        available: String,
    },
    /// A model name tiktoken's table does not map (tiktoken raises `KeyError` here).
    #[error(
        "Could not automatically map {0} to a tokeniser. Please use `tiktoken.get_encoding` \
         to explicitly get the tokeniser you expect."
    )]
    UnknownModel(String),
    /// The text contains a special token that the caller did not allow (tiktoken raises here).
    #[error("Encountered text corresponding to disallowed special token {0:?}.")]
    DisallowedSpecial(String),
    /// A token id outside the vocabulary given to `decode`.
    #[error("Invalid token for decoding: {0}")]
    InvalidToken(u32),
    /// A Hugging Face tokenizer that failed to load or to encode.
    #[error("Hugging Face tokenizer: {0}")]
    HuggingFace(String),
    /// A stream that cannot be split as it is (bytes that are not UTF-8).
    #[error("{0}")]
    Stream(String),
    /// A thread count (argument or environment variable) that cannot be used.
    #[error("{0}")]
    Threads(String),
}

/// Result alias for the core.
pub type Result<T> = std::result::Result<T, Error>;
