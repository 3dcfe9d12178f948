//! Source code chunked along its syntax tree (feature `code`; docs/code.md).
//!
//! tree-sitter parses the text; the walk (`walk.rs`) turns the tree into a flat run of
//! pieces, each a whole node that fits the size (or a line, or characters, of one that
//! does not and has no children to cut at), and the packer (`pack.rs`) joins neighbouring
//! pieces greedily up to the size. A node is only opened when it does not fit, so a
//! definition or statement that fits is never cut. The grammars and what counts as a
//! definition or a comment in each are one row of `languages.rs`.

mod chunker;
mod languages;
mod pack;
mod scope;
mod walk;

pub use chunker::{CodeChunk, CodeChunker};
pub use languages::names as language_names;
