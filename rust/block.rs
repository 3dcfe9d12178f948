//! A block of text: the unit every format's scanner emits (Markdown in [`crate::markdown`],
//! the others in [`crate::structure`]) and the chunker packs, with the line helpers the
//! scanners share. Its own module, below both, so neither format depends on the other.

/// What a block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An ATX (`## x`) or setext (`x` over `---`) heading at the top level.
    Heading,
    /// Fenced or indented code, at any depth.
    Code,
    /// A GFM table: header row, delimiter row, body rows.
    Table,
    /// A part of a list item (the item up to a blank line or a fence).
    List,
    /// A part of a block quote.
    Quote,
    /// An HTML block.
    Html,
    /// A paragraph.
    Paragraph,
    /// A thematic break (`---`, `***`).
    Break,
    /// A line that belongs to what follows it and never ends a chunk: an `RST` directive's
    /// head, a hyperlink target, an `AsciiDoc` block title or attribute line (glued forward
    /// like a heading, without changing the heading path). Markdown has none.
    Label,
}

/// One block: byte span from its first non-blank character (the line start for indented
/// code) to the end of its last line without trailing whitespace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// What it is.
    pub kind: Kind,
    /// Start, in bytes.
    pub start: usize,
    /// End, in bytes (exclusive).
    pub end: usize,
    /// Heading level (1-6), else 0.
    pub level: usize,
    /// Heading title as `CommonMark` reads it (setext lines joined by spaces).
    pub title: String,
    /// A container (directive, list item, delimited block): how many of the blocks right
    /// after it lie inside it. Kept whole when it fits a chunk, else replaced by them.
    pub parts: usize,
    /// A table whose header rows the scanner knows: the end of its header (0: the
    /// Markdown reading, header row and delimiter row).
    pub head: usize,
}

/// `(columns, bytes)` of leading spaces and tabs (tabs to the next stop of 4).
pub fn indent(s: &str) -> (usize, usize) {
    let (mut cols, mut n) = (0, 0);
    for b in s.bytes() {
        match b {
            b' ' => cols += 1,
            b'\t' => cols += 4 - cols % 4,
            _ => break,
        }
        n += 1;
    }
    (cols, n)
}

/// Whether a line holds only spaces and tabs.
pub fn is_blank(s: &str) -> bool {
    s.bytes().all(|b| b == b' ' || b == b'\t')
}

/// Lines without `\n` (or `\r\n`) and their byte starts.
pub fn split_lines(text: &str) -> (Vec<&str>, Vec<usize>) {
    let mut lines = Vec::new();
    let mut starts = Vec::new();
    let mut pos = 0;
    let ends = memchr::memchr_iter(b'\n', text.as_bytes()).chain(std::iter::once(text.len()));
    for end in ends {
        let raw = &text[pos..end];
        starts.push(pos);
        lines.push(raw.strip_suffix('\r').unwrap_or(raw));
        pos = end + 1;
    }
    (lines, starts)
}
