//! Which heading path each part of the text sits under, so a chunk that spans sections can
//! say every path it covers and which one holds most of it.
//!
//! A section runs from a heading's first byte to the next heading (the text before the
//! first heading is the section of the empty path); its path is the titles of the headings
//! in force there, the nesting the chunker uses. A chunk covers the sections its span
//! overlaps; the main one holds the most code points of the chunk (the earlier on a tie).
//! Mirrored by `python/ferrochunk/reference/markdown/sections.py`.

use std::sync::Arc;

use super::blocks::{Block, Kind};

/// The sections of one text, in order.
#[derive(Debug, Clone)]
pub struct Sections {
    /// Byte offset where each section starts (the first at 0).
    starts: Vec<usize>,
    /// Heading path of each section (the first is the empty path).
    paths: Vec<Arc<[String]>>,
}

/// The heading paths a span covers, in order, and which holds most of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// Every path the span overlaps, in document order (consecutive sections with equal
    /// paths, e.g. a repeated heading, are listed once each).
    pub paths: Vec<Arc<[String]>>,
    /// Index into `paths` of the one holding the most code points (the first on a tie).
    pub main: usize,
}

impl Coverage {
    /// The path that best describes the span.
    pub fn main_path(&self) -> &Arc<[String]> {
        &self.paths[self.main]
    }
}

impl Sections {
    /// The sections of a text from its blocks: every heading opens one.
    pub fn new(blocks: &[Block]) -> Self {
        let mut starts = vec![0];
        let mut paths: Vec<Arc<[String]>> = vec![Arc::from([])];
        let mut stack: Vec<(usize, &str)> = Vec::new();
        for block in blocks.iter().filter(|b| b.kind == Kind::Heading) {
            while stack.last().is_some_and(|&(level, _)| level >= block.level) {
                stack.pop();
            }
            stack.push((block.level, &block.title));
            starts.push(block.start);
            paths.push(stack.iter().map(|(_, t)| (*t).to_owned()).collect());
        }
        Self { starts, paths }
    }

    /// Paths of the headings in document order (section `k + 1` is opened by heading `k`).
    pub fn heading_paths(&self) -> &[Arc<[String]>] {
        &self.paths[1..]
    }

    /// The sections `text[start..end]` overlaps and the one holding most of it.
    pub fn coverage(&self, text: &str, start: usize, end: usize) -> Coverage {
        let first = self
            .starts
            .partition_point(|&s| s <= start)
            .saturating_sub(1);
        let last = self.starts.partition_point(|&s| s < end).max(first + 1);
        if last - first == 1 {
            return Coverage {
                paths: vec![Arc::clone(&self.paths[first])],
                main: 0,
            };
        }
        let mut paths = Vec::with_capacity(last - first);
        let (mut main, mut most) = (0, 0);
        for k in first..last {
            let a = self.starts[k].max(start);
            let b = self.starts.get(k + 1).map_or(end, |&s| s.min(end));
            if b <= a {
                continue; // a heading exactly at the chunk's start leaves nothing before it
            }
            let size = bytecount::num_chars(&text.as_bytes()[a..b]);
            if size > most {
                (main, most) = (paths.len(), size);
            }
            paths.push(Arc::clone(&self.paths[k]));
        }
        Coverage { paths, main }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::blocks::scan;

    fn titles(c: &Coverage) -> Vec<Vec<&str>> {
        c.paths
            .iter()
            .map(|p| p.iter().map(String::as_str).collect())
            .collect()
    }

    #[test]
    fn a_chunk_across_a_heading_covers_both_paths_and_prefers_the_larger() {
        let text = "# Guide\n\nintro\n\n## Data\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        let sections = Sections::new(&scan(text));
        let data = text.find("## Data").unwrap();
        let cov = sections.coverage(text, text.find("intro").unwrap(), text.len());
        assert_eq!(titles(&cov), [vec!["Guide"], vec!["Guide", "Data"]]);
        assert_eq!(cov.main, 1);
        let cov = sections.coverage(text, 0, data + 3);
        assert_eq!(cov.main, 0, "mostly the Guide section");
        let cov = sections.coverage(text, data, text.len());
        assert_eq!(titles(&cov), [vec!["Guide", "Data"]]);
    }

    #[test]
    fn text_before_the_first_heading_has_the_empty_path() {
        let text = "preamble text here\n\n## Setup\n\nrun";
        let sections = Sections::new(&scan(text));
        let cov = sections.coverage(text, 0, text.len());
        assert_eq!(titles(&cov), [vec![], vec!["Setup"]]);
        assert_eq!(
            cov.main, 0,
            "the preamble is longer; a tie would go to it too"
        );
    }

    #[test]
    fn code_points_not_bytes_decide() {
        // 6 CJK characters (18 bytes) before the heading, 8 ASCII ones after.
        let text = "漢字漢字漢字\n# H\nabcd";
        let sections = Sections::new(&scan(text));
        let cov = sections.coverage(text, 0, text.len());
        assert_eq!(cov.main, 1);
    }
}
