//! `CodeChunker`: a language and a size; `chunk` parses a text and returns its chunks.

use tree_sitter::Parser;

use super::languages::{grammar, Grammar};
use super::pack::{pack, Measure};
use super::scope::Scopes;
use super::walk::Walk;
use crate::error::{Error, Result};
use crate::length::Length;
use crate::text::CharCursor;

/// Chunks source code of one language along its syntax tree.
#[derive(Clone, Copy)]
pub struct CodeChunker {
    grammar: &'static Grammar,
    size: usize,
}

/// One chunk: `text[byte_start..byte_end]`, code points alongside, and where it lies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeChunk {
    /// Code-point offsets.
    pub start: usize,
    /// Code-point offsets.
    pub end: usize,
    /// UTF-8 offsets.
    pub byte_start: usize,
    /// UTF-8 offsets.
    pub byte_end: usize,
    /// The definitions all its code lies in, outermost first (`["class Parser", "def parse"]`).
    pub scope_path: Vec<String>,
    /// The signatures of those that start before the chunk (so its text does not show them).
    pub signatures: Vec<String>,
    /// Why it ends where it does: after a `definition`, a `statement`, a `line` or a run of
    /// `character`s (of a line too big for one chunk), or at the `end` of the text.
    pub cut: &'static str,
}

impl CodeChunk {
    /// The enclosing signatures, one a line, then the chunk's text.
    pub fn embedding_text(&self, text: &str) -> String {
        let own = &text[self.byte_start..self.byte_end];
        if self.signatures.is_empty() {
            return own.to_string();
        }
        format!("{}\n{own}", self.signatures.join("\n"))
    }
}

impl CodeChunker {
    /// A chunker of `language` (a name of [`super::language_names`]) for chunks of at most
    /// `size` (units of the length function).
    pub fn new(language: &str, size: usize) -> Result<Self> {
        let grammar = grammar(language).ok_or_else(|| Error::Language(language.to_string()))?;
        if size == 0 {
            return Err(Error::ChunkSize(0));
        }
        Ok(Self { grammar, size })
    }

    /// The language's main name.
    pub fn language(&self) -> &'static str {
        self.grammar.names[0]
    }

    /// The chunks of `text`, measured by `length` (code points when `None`).
    pub fn chunk(&self, text: &str, length: Option<&dyn Length>) -> Result<Vec<CodeChunk>> {
        let mut parser = Parser::new();
        parser
            .set_language(&(self.grammar.language)())
            .map_err(|e| Error::Parse(e.to_string()))?;
        let tree = parser
            .parse(text, None)
            .ok_or_else(|| Error::Parse("the parser stopped".to_string()))?;
        let measure = Measure {
            text,
            length,
            size: self.size,
        };
        let mut walk = Walk {
            text,
            grammar: self.grammar,
            measure,
            scopes: Scopes::new(),
            pieces: Vec::new(),
            fresh: false,
            head: false,
        };
        walk.run(tree.root_node())?;
        let packed = pack(&walk.pieces, &walk.scopes, &measure)?;
        let mut cursor = CharCursor::new(text, text.is_ascii());
        let scopes = &walk.scopes;
        Ok(packed
            .into_iter()
            .map(|p| {
                let chain = scopes.chain(p.scope);
                let shown = |s: &&usize| scopes.0[**s].start < p.start;
                CodeChunk {
                    start: cursor.char_offset(p.start),
                    end: cursor.char_offset(p.end),
                    byte_start: p.start,
                    byte_end: p.end,
                    scope_path: chain.iter().map(|&s| scopes.0[s].label.clone()).collect(),
                    signatures: chain
                        .iter()
                        .filter(shown)
                        .map(|&s| scopes.0[s].signature.clone())
                        .collect(),
                    cut: p.cut,
                }
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODE: &str = "import os\n\nclass Parser:\n    def parse(self, text):\n        a = 1\n        b = 2\n        return a + b\n\n    def other(self):\n        return 'é字'\n";

    #[track_caller]
    fn check(size: usize) -> Vec<CodeChunk> {
        let chunks = CodeChunker::new("python", size)
            .unwrap()
            .chunk(CODE, None)
            .unwrap();
        let mut at = 0;
        for c in &chunks {
            let text = &CODE[c.byte_start..c.byte_end];
            assert!(
                CODE[at..c.byte_start].chars().all(char::is_whitespace),
                "{size}: gap"
            );
            assert_eq!(CODE[..c.byte_start].chars().count(), c.start);
            assert_eq!(c.end - c.start, text.chars().count());
            assert!(text.chars().count() <= size, "{size}: {text:?}");
            at = c.byte_end;
        }
        assert!(CODE[at..].trim().is_empty());
        chunks
    }

    #[test]
    fn chunks_cover_the_code_within_the_size() {
        for size in [1, 2, 5, 13, 30, 60, 200] {
            check(size);
        }
    }

    #[test]
    fn methods_that_fit_are_whole_with_their_scope() {
        let chunks = check(60);
        let paths: Vec<_> = chunks.iter().map(|c| c.scope_path.join(" / ")).collect();
        assert_eq!(
            paths,
            [
                "",
                "class Parser",
                "class Parser / def parse",
                "class Parser / def other"
            ]
        );
        let other = &chunks[3];
        assert_eq!(
            other.embedding_text(CODE),
            format!("class Parser:\n{}", &CODE[other.byte_start..other.byte_end])
        );
    }

    #[test]
    fn every_chunk_says_why_it_ends() {
        let cuts: Vec<_> = check(60).iter().map(|c| c.cut).collect();
        // The class's head and its method's open one chunk; the method's body is cut
        // at its statements; the next method starts a chunk of its own.
        assert_eq!(cuts, ["definition", "statement", "definition", "end"]);
    }

    #[test]
    fn unknown_languages_and_zero_sizes_are_refused() {
        assert!(matches!(
            CodeChunker::new("cobol", 10),
            Err(Error::Language(_))
        ));
        assert!(CodeChunker::new("python", 0).is_err());
    }
}
