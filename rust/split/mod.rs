//! Recursive separator splitting, LangChain's algorithm on byte spans of the input.
//!
//! - [`scan`]: where a separator (literal or regex) occurs, as byte ranges.
//! - [`merge`]: LangChain's `_merge_splits` on piece lengths: groups, overlap, warnings.
//! - [`recursive`]: `RecursiveCharacterTextSplitter` and `CharacterTextSplitter`, with
//!   code-point offsets tracked on the way.
//! - `oracle` (tests only): LangChain's string algorithm transcribed, to compare against.

pub mod merge;
#[cfg(test)]
mod oracle;
pub mod recursive;
pub mod scan;

pub use recursive::{Chunk, SplitConfig, SplitOutput, Splitter, DEFAULT_SEPARATORS};
pub use scan::{KeepSeparator, Separator};
