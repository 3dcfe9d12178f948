//! Markdown bindings: the chunker (and the `Chunk` objects it builds) and the header splitter.

mod build;
pub mod chunker;
pub mod header;
