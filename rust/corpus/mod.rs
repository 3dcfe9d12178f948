//! Chunking whole corpora: the CLI's job, with no Python object per document or chunk.
//!
//! - [`source`] holds the inputs (text files, `.gz`, JSON Lines, standard input, rows handed over)
//!   and the work each becomes: read, check UTF-8, parse, chunk, serialise.
//! - [`chunker`] runs the recursive, Markdown or token-window chunker, writing rows with
//!   offsets, stable ids and token counts.
//! - [`record`] writes the rows, as JSON Lines or as Arrow-layout columns (for Parquet).
//! - [`job`] takes inputs in, outputs back in input order, the work on a fork-safe pool with a
//!   bounded read-ahead.
//! - [`settings`] is what every task of a job shares (chunker, format, fields).
//! - [`stream`] handles a text file too large to read whole, chunked block by block.
//! - [`write`] lets the pool threads write JSON Lines into the output file, in input order.

pub mod chunker;
pub mod job;
pub mod record;
pub mod settings;
pub mod source;
pub mod stream;
pub mod write;

pub use chunker::{CorpusChunker, Engine};
pub use job::Job;
#[cfg_attr(not(feature = "python"), allow(unused_imports))] // used by the binding
pub use record::{Columns, Ints, Strings};
pub use settings::Settings;
pub use source::{Fields, Format, Input, Output, Payload};
