//! The chunker a corpus job runs: recursive, Markdown or token windows, each writing rows
//! with offsets, stable ids and (when sizes are tokens) token counts.
//!
//! Ids follow `crate::chunk_id`: SHA-256 over the document id, a settings string (given
//! by the Python side, the same one `MarkdownChunker` puts in its ids), the document's
//! digest and the chunk's code-point span, so the CLI's Markdown ids equal
//! `MarkdownChunker.split(text, document_id=...)`'s.

use std::sync::Arc;

use super::record::{Doc, Row, Sink, Structure};

use crate::chunk_id::{text_digest, Ids};
use crate::error::Result;
use crate::length::Length;
use crate::markdown::MarkdownChunker;
use crate::split::Splitter;
use crate::stream::rules::Rule;
use crate::structure::Markup;
use crate::text::CharCursor;
use crate::tokens::tokenizer::{token_offsets, token_windows};
use crate::tokens::{TokenLength, Tokenizer};
use crate::Separator;

/// Which algorithm cuts the documents.
#[derive(Debug, Clone)]
pub enum Engine {
    /// LangChain's recursive splitter; `separators` (pattern, is regex) for streaming.
    Recursive {
        /// The configured splitter.
        splitter: Splitter,
        /// Its separators as given, to stream files too large to read whole.
        separators: Vec<(String, bool)>,
    },
    /// The Markdown chunker.
    Markdown(MarkdownChunker),
    /// Windows of `size` tokens stepping by `size - overlap`.
    Tokens {
        /// The encoding.
        tokenizer: Tokenizer,
        /// Tokens per window.
        size: usize,
        /// Tokens shared by consecutive windows.
        overlap: usize,
    },
}

/// An engine, how it measures, and the settings string its chunk ids carry.
#[derive(Debug, Clone)]
pub struct CorpusChunker {
    /// The algorithm.
    pub engine: Engine,
    /// Token sizes (`None`: code points).
    pub length: Option<TokenLength>,
    /// Part of every chunk id: what produced the chunks.
    pub settings: String,
}

impl CorpusChunker {
    /// Writes the chunks of one document to `sink`; returns how many.
    pub fn chunk(&self, text: &str, doc: &Doc<'_>, sink: &mut dyn Sink) -> Result<usize> {
        let ids = Ids::new(doc.id, &self.settings, &text_digest(text));
        let length = self.length.as_ref().map(|l| l as &dyn Length);
        match &self.engine {
            Engine::Recursive { splitter, .. } => {
                let out = splitter.split(text, length)?;
                for (index, c) in out.chunks.iter().enumerate() {
                    let piece = c.text(text);
                    let id = ids.hex(c.char_start, c.char_end);
                    let token_count = self.count(piece)?;
                    sink.push(
                        doc,
                        &Row {
                            index,
                            start: c.char_start,
                            end: c.char_end,
                            byte_start: c.byte_start,
                            byte_end: c.byte_end,
                            text: piece,
                            chunk_id: id.as_str(),
                            token_count,
                            structure: None,
                        },
                    );
                }
                Ok(out.chunks.len())
            }
            Engine::Markdown(chunker) => self.markdown(chunker, text, ids, doc, sink),
            Engine::Tokens {
                tokenizer,
                size,
                overlap,
            } => Self::windows(tokenizer, *size, *overlap, text, &ids, doc, sink),
        }
    }

    /// Token count of a chunk, when sizes are tokens.
    pub fn count(&self, text: &str) -> Result<Option<usize>> {
        self.length.as_ref().map(|l| l.length(text)).transpose()
    }

    /// The recursive splitter's parts for streaming, if this is the recursive engine.
    pub fn streaming(&self) -> Option<(&Splitter, Vec<Separator>, Vec<Rule>)> {
        let Engine::Recursive {
            splitter,
            separators,
        } = &self.engine
        else {
            return None;
        };
        let seps = separators
            .iter()
            .map(|(p, re)| {
                if *re {
                    Separator::regex(p)
                } else {
                    Ok(Separator::literal(p))
                }
            })
            .collect::<Result<Vec<_>>>()
            .ok()?;
        let rules = separators.iter().map(|(p, re)| Rule::of(p, *re)).collect();
        Some((splitter, seps, rules))
    }

    fn markdown(
        &self,
        chunker: &MarkdownChunker,
        text: &str,
        mut ids: Ids,
        doc: &Doc<'_>,
        sink: &mut dyn Sink,
    ) -> Result<usize> {
        let length = self.length.as_ref().map(|l| l as &dyn Length);
        let chunks = match chunker.markup() {
            // `--chunker text`: each file read as its suffix says, ids as TextChunker's.
            Markup::Auto => {
                let markup = Markup::for_path(doc.source);
                let settings = markup.settings(&self.settings);
                ids = Ids::new(doc.id, &settings, &text_digest(text));
                chunker.chunk_as(text, length, markup)?
            }
            _ => chunker.chunk(text, length)?,
        };
        let ascii = text.is_ascii();
        let (mut starts, mut ends) = (CharCursor::new(text, ascii), CharCursor::new(text, ascii));
        for (index, c) in chunks.iter().enumerate() {
            let (start, end) = (starts.char_offset(c.start), ends.char_offset(c.end));
            let id = ids.hex(start, end);
            let piece = &text[c.start..c.end];
            let path: &Arc<[String]> = &c.path;
            sink.push(
                doc,
                &Row {
                    index,
                    start,
                    end,
                    byte_start: c.start,
                    byte_end: c.end,
                    text: piece,
                    chunk_id: id.as_str(),
                    token_count: self.count(piece)?,
                    structure: Some(Structure {
                        path,
                        continuation: c.continuation,
                        table_header: c.header.map(|(a, b)| &text[a..b]),
                    }),
                },
            );
        }
        Ok(chunks.len())
    }

    #[allow(clippy::too_many_arguments)] // the window sizes travel with the document
    fn windows(
        tokenizer: &Tokenizer,
        size: usize,
        overlap: usize,
        text: &str,
        ids: &Ids,
        doc: &Doc<'_>,
        sink: &mut dyn Sink,
    ) -> Result<usize> {
        let tokens = tokenizer.encode_ordinary(text);
        let offsets = token_offsets(tokenizer, &tokens)?;
        let mut cursor = CharCursor::new(text, text.is_ascii());
        let windows = token_windows(&offsets, size, overlap, text);
        for (index, &(a, b, n)) in windows.iter().enumerate() {
            let start = cursor.char_offset(a);
            let end = cursor.char_offset(b);
            let id = ids.hex(start, end);
            sink.push(
                doc,
                &Row {
                    index,
                    start,
                    end,
                    byte_start: a,
                    byte_end: b,
                    text: &text[a..b],
                    chunk_id: id.as_str(),
                    token_count: Some(n),
                    structure: None,
                },
            );
        }
        Ok(windows.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_equal_chunk_id() {
        let digest = text_digest("some text");
        let ids = Ids::new("doc/é.md", "recursive-v1|size=10", &digest);
        for (a, b) in [(0, 0), (3, 17), (1_000_000, 2_000_123)] {
            let want = crate::chunk_id::chunk_id("doc/é.md", "recursive-v1|size=10", &digest, a, b);
            assert_eq!(ids.id(a, b), want);
        }
    }
}
