//! One document to its chunk records: offsets, id, token count and (for Markdown) the
//! structure metadata, exactly as the per-document API computes them.

use std::sync::Arc;

use crate::chunk_id::{text_digest, Ids};
use crate::error::{Error, Result};
use crate::length::Length;
use crate::markdown::ids::{all_spans, count_tokens, Identity};
use crate::markdown::sections::Coverage;
use crate::markdown::MarkdownChunker;
use crate::split::Splitter;

/// A length the chunker may share across threads (the native token counters).
pub type SharedLength<'a> = Option<&'a (dyn Length + Sync)>;

/// The chunker rows go through.
pub enum RowChunker<'a> {
    /// The recursive separator splitter (`ferrochunk.Splitter`).
    Split(&'a Splitter),
    /// The Markdown chunker; with `parent_size`, each chunk gets its parent's id.
    Markdown {
        /// The chunker.
        chunker: &'a MarkdownChunker,
        /// Parent size, if parents are asked for.
        parent_size: Option<usize>,
    },
}

/// A chunker with everything each row needs: the length it sizes with (token counts are
/// filled when there is one) and the settings string that goes into every chunk id.
pub struct Chunking<'a> {
    /// The chunker.
    pub chunker: RowChunker<'a>,
    /// The length (`None`: code points, no token counts).
    pub length: SharedLength<'a>,
    /// The settings string of the chunk ids.
    pub settings: &'a str,
    /// Whether to compute chunk ids. Without them a row whose document id comes from the
    /// input is never hashed: SHA-256 of the text was most of the Arrow path's own cost.
    pub ids: bool,
}

/// What Markdown adds to a chunk.
pub struct MarkdownMeta {
    /// Heading titles over the chunk's first block.
    pub path: Arc<[String]>,
    /// Every heading path the chunk covers, and the one holding most of it.
    pub coverage: Coverage,
    /// Starts inside a block that was cut.
    pub continuation: bool,
    /// The repeated table header's byte span.
    pub header: Option<(usize, usize)>,
    /// The parent's id, in hierarchy mode.
    pub parent_id: Option<String>,
}

/// One chunk of a row.
pub struct RowChunk {
    /// Byte span in the row's text.
    pub bytes: (usize, usize),
    /// Code-point span in the row's text.
    pub chars: (usize, usize),
    /// Its size in tokens, when the chunker counts tokens.
    pub tokens: Option<usize>,
    /// Its stable id (empty when ids were not asked for).
    pub id: String,
    /// Markdown metadata (Markdown chunker only).
    pub markdown: Option<MarkdownMeta>,
}

/// A row's chunks, its document id, and how many chunks exceed the chunk size.
pub struct RowOutput {
    /// The document id (the id column's value, else the first 32 hex digits of SHA-256).
    pub document_id: String,
    /// The chunks in order.
    pub chunks: Vec<RowChunk>,
    /// Chunks longer than the chunk size.
    pub oversized: usize,
}

impl Chunking<'_> {
    /// Chunks one document; `document_id` defaults to a digest of the text.
    pub fn chunk_row(&self, text: &str, document_id: Option<&str>) -> Result<RowOutput> {
        // The digest names the document when the input does not, and goes into every id.
        let digest = (self.ids || document_id.is_none()).then(|| text_digest(text));
        let doc = match (document_id, &digest) {
            (Some(doc), _) => doc.to_owned(),
            (None, Some(digest)) => digest[..32].to_owned(),
            (None, None) => String::new(),
        };
        let digest = digest.as_deref().unwrap_or_default();
        let length = self.length.map(|l| l as &dyn Length);
        let count = |a: usize, b: usize| length.map(|l| l.length(&text[a..b])).transpose();
        let mut chunks = Vec::new();
        let oversized = match self.chunker {
            RowChunker::Split(splitter) => {
                let ids = self.ids.then(|| Ids::new(&doc, self.settings, digest));
                let out = splitter.split(text, length)?;
                chunks.reserve(out.chunks.len());
                for c in &out.chunks {
                    if c.joined.is_some() {
                        return Err(Error::NotSpans);
                    }
                    let (cs, ce) = (c.char_start, c.char_end);
                    chunks.push(RowChunk {
                        bytes: (c.byte_start, c.byte_end),
                        chars: (cs, ce),
                        tokens: count(c.byte_start, c.byte_end)?,
                        id: ids.as_ref().map(|ids| ids.id(cs, ce)).unwrap_or_default(),
                        markdown: None,
                    });
                }
                out.oversized.len()
            }
            RowChunker::Markdown {
                chunker,
                parent_size,
            } => {
                let grouped = chunker.chunk_grouped(text, length, parent_size)?;
                let who = Identity {
                    doc: &doc,
                    settings: self.settings,
                    digest,
                };
                let who = self.ids.then_some(&who);
                let (mut kids, ups) = all_spans(text, who, parent_size, grouped);
                if let Some(length) = length {
                    count_tokens(text, &mut kids, length)?;
                }
                chunks.reserve(kids.len());
                for s in kids {
                    chunks.push(RowChunk {
                        bytes: (s.start, s.end),
                        chars: (s.char_start, s.char_end),
                        tokens: s.tokens,
                        id: s.id,
                        markdown: Some(MarkdownMeta {
                            path: s.path,
                            coverage: s.coverage,
                            continuation: s.continuation,
                            header: s.header,
                            parent_id: s.parent.map(|k| ups[k].id.clone()),
                        }),
                    });
                }
                0
            }
        };
        Ok(RowOutput {
            document_id: doc,
            chunks,
            oversized,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::{Separator, SplitConfig};

    #[test]
    fn split_rows_carry_offsets_and_ids_of_the_document() {
        let config = SplitConfig::new(5, 0).unwrap();
        let splitter = Splitter::recursive(config, vec![Separator::literal(" ")]);
        let job = Chunking {
            chunker: RowChunker::Split(&splitter),
            length: None,
            settings: "s",
            ids: true,
        };
        let text = "héllo wörld again";
        let out = job.chunk_row(text, Some("doc")).unwrap();
        assert_eq!(out.document_id, "doc");
        for c in &out.chunks {
            let piece = &text[c.bytes.0..c.bytes.1];
            let chars: String = text
                .chars()
                .skip(c.chars.0)
                .take(c.chars.1 - c.chars.0)
                .collect();
            assert_eq!(piece, chars);
            assert_eq!(
                c.id,
                crate::chunk_id::chunk_id("doc", "s", &text_digest(text), c.chars.0, c.chars.1)
            );
        }
        let default = job.chunk_row(text, None).unwrap();
        assert_eq!(default.document_id, text_digest(text)[..32]);
        let bare = Chunking {
            chunker: RowChunker::Split(&splitter),
            ids: false,
            ..job
        };
        for doc in [Some("doc"), None] {
            let out = bare.chunk_row(text, doc).unwrap();
            let with = job.chunk_row(text, doc).unwrap();
            assert_eq!(out.document_id, with.document_id);
            let spans = |o: &RowOutput| {
                o.chunks
                    .iter()
                    .map(|c| (c.bytes, c.chars))
                    .collect::<Vec<_>>()
            };
            assert_eq!(spans(&out), spans(&with));
            assert!(out.chunks.iter().all(|c| c.id.is_empty()));
        }
    }
}
