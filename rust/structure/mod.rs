//! Structure beyond Markdown: block scanners for reStructuredText, AsciiDoc and plain text
//! whose blocks the Markdown chunker packs ([`crate::markdown::chunker`]), so every format
//! gets the same guarantees: titles and heading paths, atomic code and tables, labels and
//! directive heads glued to what follows, sentence-first cuts, min-size merging, ids,
//! overlap and parents.
//!
//! - [`lines`]: regions of lines (nested bodies dedented), the block emitter, shared tests
//!   for adornments, grid tables and list markers;
//! - [`rst`], [`asciidoc`], [`plain`]: one scanner per format.

pub mod asciidoc;
pub mod lines;
pub mod plain;
pub mod rst;

use crate::error::{Error, Result};
use crate::markdown::blocks::{self, Block};

/// The markup a text is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// `CommonMark` with GFM tables ([`crate::markdown::blocks`]).
    #[default]
    Markdown,
    /// reStructuredText.
    Rst,
    /// AsciiDoc.
    AsciiDoc,
    /// Plain text: paragraphs, list items, underlined titles.
    Plain,
}

impl Format {
    /// The format of a name: `markdown`, `rst`, `asciidoc`, `plain`.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "markdown" => Ok(Self::Markdown),
            "rst" => Ok(Self::Rst),
            "asciidoc" => Ok(Self::AsciiDoc),
            "plain" => Ok(Self::Plain),
            _ => Err(Error::Format(name.to_owned())),
        }
    }

    /// The blocks of `text` read in this format, in order.
    pub fn scan(self, text: &str) -> Vec<Block> {
        match self {
            Self::Markdown => blocks::scan(text),
            Self::Rst => rst::scan(text),
            Self::AsciiDoc => asciidoc::scan(text),
            Self::Plain => plain::scan(text),
        }
    }
}
