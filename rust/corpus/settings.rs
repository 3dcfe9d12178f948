//! What every task of a corpus job shares: the chunker, the output format and fields, and
//! when a file is streamed. Its own module so that [`super::job`] and [`super::stream`],
//! which both read it, do not depend on each other.

use super::chunker::{CorpusChunker, Engine};
use super::source::{Fields, Format, Output};

/// What every task of a job shares.
#[derive(Debug)]
pub struct Settings {
    /// The chunker.
    pub chunker: CorpusChunker,
    /// How rows are written.
    pub format: Format,
    /// The JSON Lines fields.
    pub fields: Fields,
    /// Text files larger than this are streamed (recursive chunker only).
    pub stream_above: u64,
}

impl Settings {
    fn markdown(&self) -> bool {
        matches!(self.chunker.engine, Engine::Markdown(_))
    }

    /// An empty output for this job.
    pub fn output(&self) -> Output {
        Output::new(self.format, self.markdown())
    }
}
