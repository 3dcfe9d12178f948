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
    /// Outputs keep each input's part and chunk ids ([`super::source::Part`]).
    pub parts: bool,
}

impl Settings {
    fn markdown(&self) -> bool {
        matches!(self.chunker.engine, Engine::Markdown(_))
    }

    /// An empty output for this job.
    pub fn output(&self) -> Output {
        let out = Output::new(self.format, self.markdown());
        if self.parts {
            out.tracked()
        } else {
            out
        }
    }
}

#[cfg(test)]
impl Settings {
    /// A recursive chunker of 100 code points, JSON Lines out, nothing streamed.
    ///
    /// # Panics
    /// Never: the sizes are valid.
    pub fn for_tests() -> Self {
        use super::chunker::CorpusChunker;
        use crate::split::{SplitConfig, Splitter};
        let splitter = Splitter::recursive(SplitConfig::new(100, 0).unwrap(), Vec::new());
        Self {
            chunker: CorpusChunker {
                engine: Engine::Recursive {
                    splitter,
                    separators: Vec::new(),
                },
                length: None,
                settings: "test".to_owned(),
            },
            format: Format::Jsonl,
            fields: Fields {
                text: "text".to_owned(),
                id: None,
            },
            stream_above: u64::MAX,
            parts: false,
        }
    }
}
