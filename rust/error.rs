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
    /// A markup format the structure scanners do not read.
    #[error("format must be 'markdown', 'rst', 'asciidoc' or 'plain', got {0:?}")]
    Markup(String),
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
    /// An Arrow input without the column asked for.
    #[error("no column {name:?} in the input; its columns are {available}")]
    MissingColumn {
        /// The column asked for.
        name: String,
        /// The columns the input has, quoted and comma-separated.
        available: String,
    },
    /// An Arrow column of a type that cannot be read as text (Python's `TypeError`).
    #[error(
        "column {name:?} must be string, large_string or string_view, got {found}; cast it \
         first (e.g. pyarrow.compute.cast(column, pyarrow.string()))"
    )]
    ColumnType {
        /// The column.
        name: String,
        /// Its Arrow type.
        found: String,
    },
    /// A kept column whose name the output already uses.
    #[error("keep_columns: {0:?} is a name the output already uses; rename that column first")]
    ColumnClash(String),
    /// Arrow refused to build a column (a bug if it happens: the schema is ours).
    #[error("Arrow: {0}")]
    Arrow(String),
    /// Chunks that are not spans of the text (LangChain's drop-separator mode re-joins text).
    #[error("chunks must be spans of the text: use keep_separator='start' or 'end'")]
    NotSpans,
    /// A language `CodeChunker` has no grammar for.
    #[error("unknown language {0:?}; see ferrochunk.CodeChunker.languages")]
    Language(String),
    /// tree-sitter refused the grammar or stopped parsing.
    #[error("tree-sitter: {0}")]
    Parse(String),
    /// An error while chunking one row of a batch (the row is numbered from 0 across the input).
    #[error("row {row}: {source}")]
    InRow {
        /// The row.
        row: u64,
        /// What went wrong.
        source: Box<Error>,
    },
}

/// Result alias for the core.
pub type Result<T> = std::result::Result<T, Error>;
