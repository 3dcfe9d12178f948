//! Recursive separator splitting, LangChain's algorithm on positions of the input (any
//! [`crate::units::Units`]: UTF-8 or CPython's own storage).
//!
//! - [`scan`]: where a separator (literal or regex) occurs, and the pieces it cuts.
//! - [`literal`]: a literal separator's SIMD search in one storage's bytes.
//! - [`merge`]: LangChain's `_merge_splits`, one piece at a time: groups, overlap, warnings.
//! - [`cuts`]: why each chunk ends where it does (which separator's gap, or the end).
//! - [`recursive`]: `RecursiveCharacterTextSplitter` and `CharacterTextSplitter`, with
//!   code-point offsets tracked on the way.
//! - `oracle` (tests only): LangChain's string algorithm transcribed, to compare against.

pub mod cuts;
mod literal;
pub mod merge;
#[cfg(test)]
mod oracle;
pub mod recursive;
pub mod scan;

pub use cuts::Cut;
pub use recursive::{
    Chunk, Span, SpanOutput, SplitConfig, SplitOutput, Splitter, DEFAULT_SEPARATORS,
};
pub use scan::{KeepSeparator, Separator};
