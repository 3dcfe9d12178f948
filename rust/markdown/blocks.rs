//! Markdown block scanner: a line-based reading of the `CommonMark` block structure, enough
//! to chunk without cutting things.
//!
//! Top-level ATX and setext headings, fenced code (backtick and tilde fences; a longer
//! fence nests shorter ones; an unclosed fence runs to the end, as `CommonMark` says), indented code, GFM
//! tables (markdown-it's reading: delimiter row with as many cells as the header), list
//! items and block quotes (split into parts at blank lines and around the fences inside
//! them, so such a fence is atomic too), the seven kinds of HTML blocks, thematic breaks
//! and paragraphs. Headings inside containers are content, not sections.
//! Mirrored line for line by `python/ferrochunk/reference/markdown/blocks.py`; the line
//! predicates it reads lines with are in [`super::lines`].

use super::lines::{
    atx, fence_close, fence_open, html_kind, html_kinds, interrupts, link_definition, list_marker,
    quote_start, setext_level, table_start, thematic_break, trim_st,
};
// The block and the line helpers are the generic layer's, which every format's scanner
// shares; re-exported for the Markdown modules.
pub use crate::block::{indent, is_blank, split_lines, Block, Kind};
use crate::text::is_py_space;

/// One pass over the lines of a text, emitting blocks in order.
struct Scanner<'a> {
    lines: Vec<&'a str>,
    starts: Vec<usize>,
    blocks: Vec<Block>,
}

impl<'a> Scanner<'a> {
    fn add(&mut self, kind: Kind, first: usize, last: usize, level: Option<usize>, title: String) {
        let keep_indent = kind == Kind::Code && level.is_none() && title == "\0";
        let lead = if keep_indent {
            0
        } else {
            indent(self.lines[first]).1
        };
        let start = self.starts[first] + lead;
        let mut last = last;
        while last > first && is_blank(self.lines[last]) {
            last -= 1;
        }
        let line = self.lines[last];
        let end = self.starts[last] + line.trim_end_matches(is_py_space).len();
        if end > start {
            self.blocks.push(Block {
                kind,
                start,
                end,
                level: level.unwrap_or(0),
                title: if keep_indent { String::new() } else { title },
                parts: 0,
                head: 0,
            });
        }
    }

    fn plain(&mut self, kind: Kind, first: usize, last: usize) {
        self.add(kind, first, last, None, String::new());
    }

    fn scan(mut self) -> Vec<Block> {
        let mut i = 0;
        while i < self.lines.len() {
            i = if is_blank(self.lines[i]) {
                i + 1
            } else {
                self.block(i)
            };
        }
        self.blocks
    }

    /// Reads the block starting at line `i`; returns the line after it.
    fn block(&mut self, i: usize) -> usize {
        let s = self.lines[i];
        if indent(s).0 > 3 {
            return self.indented_code(i);
        }
        if table_start(&self.lines, i) {
            return self.table(i);
        }
        if let Some(fence) = fence_open(s) {
            let mut j = i + 1;
            while j < self.lines.len() && !fence_close(self.lines[j], fence) {
                j += 1;
            }
            self.plain(Kind::Code, i, j.min(self.lines.len() - 1));
            return j + 1;
        }
        if quote_start(s) {
            return self.container(i, Kind::Quote, 0);
        }
        if thematic_break(s) {
            self.plain(Kind::Break, i, i);
            return i + 1;
        }
        if let Some((width, _)) = list_marker(s) {
            return self.container(i, Kind::List, width);
        }
        if let Some(kind) = html_kind(s, false) {
            return self.html(i, kind);
        }
        if let Some((level, title)) = atx(s) {
            self.add(Kind::Heading, i, i, Some(level), title);
            return i + 1;
        }
        self.paragraph(i)
    }

    fn indented_code(&mut self, i: usize) -> usize {
        let (mut j, mut last) = (i, i);
        while j < self.lines.len() && (is_blank(self.lines[j]) || indent(self.lines[j]).0 > 3) {
            if !is_blank(self.lines[j]) {
                last = j;
            }
            j += 1;
        }
        self.add(Kind::Code, i, last, None, "\0".to_owned());
        last + 1
    }

    fn table(&mut self, i: usize) -> usize {
        let mut j = i + 2;
        while j < self.lines.len() {
            let s = self.lines[j];
            if is_blank(s) || indent(s).0 > 3 || interrupts(&self.lines, j) {
                break;
            }
            j += 1;
        }
        self.plain(Kind::Table, i, j - 1);
        j
    }

    fn html(&mut self, i: usize, kind: usize) -> usize {
        let mut j = i;
        match &html_kinds()[kind].end {
            None => {
                while j + 1 < self.lines.len() && !is_blank(self.lines[j + 1]) {
                    j += 1;
                }
            }
            Some(end) => {
                while j + 1 < self.lines.len() && !end.is_match(self.lines[j]) {
                    j += 1;
                }
            }
        }
        self.plain(Kind::Html, i, j);
        j + 1
    }

    fn paragraph(&mut self, i: usize) -> usize {
        let mut j = i + 1;
        while j < self.lines.len() && !is_blank(self.lines[j]) {
            if indent(self.lines[j]).0 <= 3 {
                let level = setext_level(self.lines[j]);
                if level > 0 {
                    let mut first = i;
                    while first < j && link_definition(self.lines[first]) {
                        first += 1;
                    }
                    if first < j {
                        return self.setext(i, first, j, level);
                    }
                    if thematic_break(self.lines[j]) {
                        break; // definitions only: no heading, and `---` is a break
                    }
                } else if interrupts(&self.lines, j) {
                    break;
                }
            }
            j += 1;
        }
        self.plain(Kind::Paragraph, i, j - 1);
        j
    }

    /// A setext heading on lines `first..=j`; the link reference definitions before it
    /// (lines `i..first`) are no part of its title (`CommonMark`): a paragraph.
    fn setext(&mut self, i: usize, first: usize, j: usize, level: usize) -> usize {
        if first > i {
            self.plain(Kind::Paragraph, i, first - 1);
        }
        let parts: Vec<&str> = self.lines[first..j].iter().map(|l| trim_st(l)).collect();
        let title = trim_st(&parts.join(" ")).to_owned();
        self.add(Kind::Heading, first, j, Some(level), title);
        j + 1
    }

    /// A list item (content at `width` columns) or a block quote: its lines without the
    /// container's prefix, then its parts, runs of lines split at blank lines and around
    /// fences.
    fn container(&mut self, i: usize, kind: Kind, width: usize) -> usize {
        let inner = if kind == Kind::List {
            item(&self.lines, i, width, 0)
        } else {
            unnest(self.quote(i), 0)
        };
        self.parts(i, &inner, kind);
        i + inner.len()
    }

    /// The lines of the block quote at line `i`, without their `>` markers.
    fn quote(&self, i: usize) -> Vec<&'a str> {
        let mut inner = vec![quote_inner(self.lines[i])];
        let mut fence = fence_open(inner[0]);
        let mut j = i + 1;
        while j < self.lines.len() {
            let s = self.lines[j];
            if is_blank(s) || !(quote_start(s) || (fence.is_none() && !interrupts(&self.lines, j)))
            {
                break;
            }
            let content = quote_inner(s);
            fence = track(fence, content);
            inner.push(content);
            j += 1;
        }
        inner
    }

    /// Emits the container's parts: fenced code inside it is a part of its own.
    fn parts(&mut self, i: usize, inner: &[&str], kind: Kind) {
        let mut first = i;
        let mut fence = None;
        for (k, content) in inner.iter().enumerate() {
            let line = i + k;
            match fence {
                None => {
                    if let Some(opened) = fence_open(content) {
                        if line > first {
                            self.plain(kind, first, line - 1);
                        }
                        (fence, first) = (Some(opened), line);
                    } else if is_blank(self.lines[line]) {
                        if line > first {
                            self.plain(kind, first, line - 1);
                        }
                        first = line + 1;
                    }
                }
                Some(f) => {
                    if fence_close(content, f) {
                        self.plain(Kind::Code, first, line);
                        (fence, first) = (None, line + 1);
                    }
                }
            }
        }
        if first < i + inner.len() {
            let last_kind = if fence.is_some() { Kind::Code } else { kind };
            self.plain(last_kind, first, i + inner.len() - 1);
        }
    }
}

fn track(fence: Option<(u8, usize)>, content: &str) -> Option<(u8, usize)> {
    match fence {
        Some(f) if fence_close(content, f) => None,
        Some(f) => Some(f),
        None => fence_open(content),
    }
}

/// A quote line without its `>` marker (and one space after it); a lazy line as is.
fn quote_inner(s: &str) -> &str {
    if !quote_start(s) {
        return s;
    }
    let rest = &s[indent(s).1 + 1..];
    rest.strip_prefix(' ').unwrap_or(rest)
}

/// A list item's line without its marker (first line) or its `width` columns of
/// indentation (a lazy line, less indented, as is).
fn item_inner(s: &str, width: usize, first: bool) -> &str {
    let cols = indent(s).0;
    if first {
        return if cols <= 3 {
            s.trim_start_matches(|c: char| c.is_ascii_digit() || " \t-+*.)".contains(c))
        } else {
            s
        };
    }
    if cols < width {
        return s;
    }
    let (mut k, mut col) = (0, 0);
    let bytes = s.as_bytes();
    while k < bytes.len() && col < width && matches!(bytes[k], b' ' | b'\t') {
        col += if bytes[k] == b'\t' { 4 - col % 4 } else { 1 };
        k += 1;
    }
    &s[k..]
}

/// Whether after this line of a container no paragraph is open (it is blank, an ATX
/// heading, indented code, an HTML block start): only a paragraph takes a lazy line.
fn ends_paragraph(content: &str, in_paragraph: bool) -> bool {
    if is_blank(content) || atx(content).is_some() {
        return true;
    }
    (indent(content).0 > 3 && !in_paragraph) || html_kind(content, in_paragraph).is_some()
}

/// Lists nested deeper than this keep their indentation: it bounds the recursion
/// (markdown-it's commonmark preset stops nesting at 20 levels).
const MAX_NESTING: usize = 16;

/// The lines of the list item at `lines[i]` (content at `width` columns), each without
/// the item's indentation, and those of the items nested in it too.
fn item<'a>(lines: &[&'a str], i: usize, width: usize, depth: usize) -> Vec<&'a str> {
    let mut inner = vec![item_inner(lines[i], width, true)];
    let mut fence = fence_open(inner[0]);
    let mut closed = ends_paragraph(inner[0], false); // no paragraph open for a lazy line
    for j in i + 1..lines.len() {
        let s = lines[j];
        if is_blank(s) {
            closed = true;
            inner.push("");
        } else if indent(s).0 < width
            && (closed || fence.is_some() || interrupts(lines, j) || list_marker(s).is_some())
        {
            break;
        } else {
            let content = item_inner(s, width, false);
            closed = fence.is_some() || ends_paragraph(content, !closed);
            fence = track(fence, content);
            inner.push(content);
        }
    }
    while inner.len() > 1 && inner.last().is_some_and(|s| is_blank(s)) {
        inner.pop();
    }
    unnest(inner, depth + 1)
}

/// A container's lines with the list items in it read from their own content column, as
/// `CommonMark` does, so that a fence in a nested item is seen as one.
fn unnest(inner: Vec<&str>, depth: usize) -> Vec<&str> {
    if depth > MAX_NESTING {
        return inner;
    }
    let mut out = Vec::with_capacity(inner.len());
    let mut fence = None;
    let mut may_start = true; // an item that cannot interrupt a paragraph may start here
    let mut k = 0;
    while k < inner.len() {
        let s = inner[k];
        let marker = if fence.is_none() {
            list_marker(s)
        } else {
            None
        };
        if let Some((width, _)) = marker.filter(|m| m.1 || may_start) {
            let nested = item(&inner, k, width, depth);
            k += nested.len();
            out.extend(nested);
            may_start = true; // the next item of the same list
            continue;
        }
        fence = track(fence, s);
        may_start = is_blank(s);
        out.push(s);
        k += 1;
    }
    out
}

/// The blocks of a Markdown text, in order.
pub fn scan(text: &str) -> Vec<Block> {
    let (lines, starts) = split_lines(text);
    Scanner {
        lines,
        starts,
        blocks: Vec::new(),
    }
    .scan()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, &str)> {
        scan(text)
            .into_iter()
            .map(|b| (b.kind, &text[b.start..b.end]))
            .collect()
    }

    #[test]
    fn headings_code_tables() {
        let text = "Title\n=====\n\n```rust\n# not a heading\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Sub ##\n";
        let got = kinds(text);
        assert_eq!(got[0], (Kind::Heading, "Title\n====="));
        assert_eq!(got[1], (Kind::Code, "```rust\n# not a heading\n```"));
        assert_eq!(got[2].0, Kind::Table);
        assert_eq!(scan(text)[3].title, "Sub");
    }

    #[test]
    fn fence_in_list_item_is_its_own_part() {
        let text = "1. Step\n\n   ```\n   x\n\n   y\n   ```\n2. Next\n";
        let got = kinds(text);
        assert_eq!(
            got.iter().map(|g| g.0).collect::<Vec<_>>(),
            [Kind::List, Kind::Code, Kind::List]
        );
        assert_eq!(got[1].1, "```\n   x\n\n   y\n   ```");
    }

    #[test]
    fn fence_in_nested_list_item_is_its_own_part() {
        // Four-space nesting: the fence is at the nested item's content column (6).
        let text = "- a\n    - b\n      ```\n      x\n      ```\n    - c\n";
        let code: Vec<_> = kinds(text)
            .into_iter()
            .filter(|k| k.0 == Kind::Code)
            .collect();
        assert_eq!(code, [(Kind::Code, "```\n      x\n      ```")]);
    }

    #[test]
    fn link_definitions_are_no_setext_text() {
        let got = kinds("[d]: /url\n---\n\n[e]: /u 't'\nTitle\n===\n");
        assert_eq!(
            got.iter().map(|g| g.0).collect::<Vec<_>>(),
            [Kind::Paragraph, Kind::Break, Kind::Paragraph, Kind::Heading]
        );
        assert_eq!(scan("[e]: /u\nTitle\n===\n")[1].title, "Title");
    }

    #[test]
    fn item_without_paragraph_takes_no_lazy_line() {
        for item in ["-\n", "1. <div>\n", "- # Setup\n"] {
            let text = format!("{item}Title\n---\n");
            assert_eq!(kinds(&text).last(), Some(&(Kind::Heading, "Title\n---")));
        }
    }

    #[test]
    fn unclosed_fence_and_crlf() {
        let got = kinds("# A\r\n~~~\r\n# B\r\n");
        assert_eq!(got, [(Kind::Heading, "# A"), (Kind::Code, "~~~\r\n# B")]);
    }
}
