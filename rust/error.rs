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
    /// A user-supplied length function failed; the binding keeps the original exception.
    #[error("length function failed: {0}")]
    Length(String),
}

/// Result alias for the core.
pub type Result<T> = std::result::Result<T, Error>;
