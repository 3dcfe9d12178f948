//! Structure beyond Markdown: block scanners for reStructuredText, AsciiDoc and plain text
//! whose blocks ([`crate::block`]) the Markdown chunker packs (`markdown::chunker` picks
//! the scanner by [`Markup`]), so every format
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

/// The markup a text is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Markup {
    /// `CommonMark` with GFM tables (`markdown::blocks`).
    #[default]
    Markdown,
    /// reStructuredText.
    Rst,
    /// AsciiDoc.
    AsciiDoc,
    /// Plain text: paragraphs, list items, underlined titles.
    Plain,
    /// Each file's markup by its suffix ([`Markup::for_path`], the CLI's `--chunker text`);
    /// Markdown where no path is known.
    Auto,
}

impl Markup {
    /// The format of a name: `markdown`, `rst`, `asciidoc`, `plain`.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "markdown" => Ok(Self::Markdown),
            "rst" => Ok(Self::Rst),
            "asciidoc" => Ok(Self::AsciiDoc),
            "plain" => Ok(Self::Plain),
            "auto" => Ok(Self::Auto),
            _ => Err(Error::Markup(name.to_owned())),
        }
    }

    /// The markup a file's suffix says: `.md`/`.markdown`, `.rst`/`.rest`,
    /// `.adoc`/`.asciidoc`/`.asc`, and plain text for any other (`.txt` included).
    pub fn for_path(path: &str) -> Self {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let suffix = name
            .rsplit_once('.')
            .map_or("", |(_, s)| s)
            .to_ascii_lowercase();
        match suffix.as_str() {
            "md" | "markdown" => Self::Markdown,
            "rst" | "rest" => Self::Rst,
            "adoc" | "asciidoc" | "asc" => Self::AsciiDoc,
            _ => Self::Plain,
        }
    }

    /// The settings string of chunks read as this markup, from the Markdown chunker's
    /// (`markdown-v2|...` becomes `rst-v1|...`, as `TextChunker` spells it).
    pub fn settings(self, markdown: &str) -> String {
        let name = match self {
            Self::Markdown | Self::Auto => return markdown.to_owned(),
            Self::Rst => "rst",
            Self::AsciiDoc => "asciidoc",
            Self::Plain => "plain",
        };
        markdown.replacen("markdown-v2|", &format!("{name}-v1|"), 1)
    }
}
