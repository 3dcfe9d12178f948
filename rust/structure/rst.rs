//! reStructuredText block scanner: a line-based reading of docutils' body elements, enough
//! to chunk without cutting things.
//!
//! Section titles (underlined, or over- and underlined; levels in the order their styles
//! are first seen, as docutils does) and transitions at the top level; literal blocks after
//! a paragraph ending with `::`; directives (code and math directives are code, table
//! directives tables, a list table a container of its rows, the others containers of their
//! head and body; a directive without a body that sets up what follows (`index`, `rubric`,
//! `currentmodule`, ...) or an internal target (`.. _name:`) is a label glued to what
//! follows, while link definitions, substitutions and comments are content); grid and
//! simple tables; doctest blocks; bullet, enumerated and field list items, definition list
//! items (one or more term lines glued to the indented definition) and footnotes as seams;
//! block quotes; line blocks; paragraphs. Bodies are read again with their indentation cut
//! off, so a literal block inside a note is atomic too.
//! Mirrored by `python/ferrochunk/reference/structure/rst.py`.

use super::lines::{adornment, grid_border, grid_table, list_marker, table, Out, Region};
use crate::block::{Block, Kind};
use crate::text::is_py_space;

/// Directives whose body is code (kept whole like a literal block).
const CODE_DIRECTIVES: &[&str] = &[
    "code",
    "code-block",
    "sourcecode",
    "literalinclude",
    "highlight",
    "math",
    "doctest",
    "testcode",
    "testoutput",
    "testsetup",
    "testcleanup",
    "raw",
    "parsed-literal",
    "productionlist",
    "graphviz",
    "graph",
    "digraph",
    "plantuml",
    "uml",
    "mermaid",
    "ipython",
    "jupyter-execute",
    "code-cell",
    "prompt",
];

/// Directives without a body that set up what follows (glued to it); other bodyless
/// directives (`image`, `autofunction`, `include`, ...) are content.
const LABEL_DIRECTIVES: &[&str] = &[
    "index",
    "rubric",
    "module",
    "currentmodule",
    "py:module",
    "py:currentmodule",
    "default-role",
    "default-domain",
    "sectionauthor",
    "moduleauthor",
    "tabularcolumns",
];

/// Directives whose body is a table.
const TABLE_DIRECTIVES: &[&str] = &["table", "csv-table", "list-table"];

/// Directives whose head is body text (an admonition's first paragraph may start on the
/// directive line), so a head ending with `::` introduces a literal block.
const TEXT_DIRECTIVES: &[&str] = &[
    "note",
    "warning",
    "tip",
    "hint",
    "important",
    "caution",
    "danger",
    "error",
    "attention",
    "admonition",
    "seealso",
    "versionadded",
    "versionchanged",
    "deprecated",
    "todo",
];

/// The blocks of a reStructuredText text, in order.
pub fn scan(text: &str) -> Vec<Block> {
    let mut scanner = Scanner::default();
    scanner.region(&Region::of(text), true);
    scanner.out.blocks
}

#[derive(Default)]
struct Scanner {
    out: Out,
    /// Title styles (adornment character, overlined) in the order first seen.
    styles: Vec<(u8, bool)>,
}

/// The last non-blank line of the run from `i` of lines that are blank or indented (`i - 1`
/// when line `i` is neither).
fn indented_end(r: &Region, i: usize) -> usize {
    let mut last = i.wrapping_sub(1);
    let mut j = i;
    while j < r.len() && (r.blank(j) || r.cols(j) > 0) {
        if !r.blank(j) {
            last = j;
        }
        j += 1;
    }
    last
}

/// The literal block (first and last line) that an admonition's head ending with `::` (as
/// in `.. note:: ... Python::`) opens: the lines after it indented past the head's text, up
/// to `last`. The directive's own `::` (`.. note::`) opens none.
fn literal_after_head(
    r: &Region,
    first: usize,
    head: usize,
    last: usize,
) -> Option<(usize, usize)> {
    let t = r.lines[head].trim_end_matches(is_py_space);
    if !t.ends_with("::") || (head == first && t.matches("::").count() < 2) {
        return None;
    }
    let base = r.cols(head);
    let code = (head + 1..=last).find(|&j| !r.blank(j))?;
    let mut end = None;
    for j in code..=last {
        if r.blank(j) {
            continue;
        }
        if r.cols(j) <= base {
            break;
        }
        end = Some(j);
    }
    end.map(|e| (code, e))
}

/// The least indentation of the non-blank lines `first..=last`.
fn margin(r: &Region, first: usize, last: usize) -> usize {
    (first..=last)
        .filter(|&j| !r.blank(j))
        .map(|j| r.cols(j))
        .min()
        .unwrap_or(0)
}

/// The directive name of an explicit markup line `.. name:: args` (lowercase).
fn directive(s: &str) -> Option<String> {
    let rest = s.strip_prefix(".. ")?.trim_start_matches(' ');
    let name_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || b"-_:+.".contains(b))
        .count();
    let mut name = &rest[..name_len];
    let mut after = &rest[name_len..];
    // The name's own colons end before the `::` (`py:function::`).
    while name.ends_with(':') {
        name = &name[..name.len() - 1];
        after = &rest[name.len()..];
    }
    let after = after.strip_prefix("::")?;
    let ok = !name.is_empty() && (after.is_empty() || after.starts_with([' ', '\t']));
    ok.then(|| name.to_ascii_lowercase())
}

/// Bytes of a field marker `:name:` and the spaces after it.
fn field_marker(s: &str) -> Option<usize> {
    let rest = s.strip_prefix(':')?;
    if rest.starts_with([' ', '\t', ':']) {
        return None;
    }
    let close = rest.find(':')?;
    let after = &rest[close + 1..];
    if close == 0 || rest[..close].ends_with([' ', '\t']) || rest[..close].contains('`') {
        return None;
    }
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let pad = after.len() - after.trim_start_matches([' ', '\t']).len();
    Some(1 + close + 1 + pad)
}

/// Whether `s` is a simple-table border: two or more runs of `=` separated by spaces.
fn simple_border(s: &str) -> bool {
    let t = s.trim_end_matches([' ', '\t']);
    t.starts_with('=')
        && t.bytes().all(|b| b == b'=' || b == b' ')
        && t.split(' ').filter(|w| !w.is_empty()).count() >= 2
}

impl Scanner {
    fn region(&mut self, r: &Region, top: bool) {
        let mut i = 0;
        while i < r.len() {
            i = if r.blank(i) {
                i + 1
            } else {
                self.block(r, i, top)
            };
        }
    }

    /// Reads the block starting at line `i`; returns the line after it.
    fn block(&mut self, r: &Region, i: usize, top: bool) -> usize {
        let s = r.lines[i];
        if r.cols(i) > 0 {
            return self.container(r, Kind::Quote, i, indented_end(r, i), None);
        }
        if let Some(next) = self.title(r, i, top) {
            return next;
        }
        if grid_border(s) {
            let (last, head) = grid_table(r, i);
            table(&mut self.out, r, i, last, head);
            return last + 1;
        }
        if simple_border(s) {
            if let Some((last, head)) = simple_table(r, i) {
                table(&mut self.out, r, i, last, head);
                return last + 1;
            }
        }
        if s == ".." || s.starts_with(".. ") {
            return self.explicit(r, i);
        }
        if s.starts_with("__ ") {
            // An anonymous hyperlink target: a link definition, content of its own.
            let last = indented_end(r, i + 1).max(i);
            self.out.plain(r, Kind::Paragraph, i, last);
            return last + 1;
        }
        if s.starts_with(">>>") {
            return self.until_blank(r, i, Kind::Code);
        }
        if s == "|" || s.starts_with("| ") {
            return self.until_blank(r, i, Kind::Paragraph);
        }
        if let Some((_, skip)) = list_marker(s) {
            return self.item(r, i, skip);
        }
        if let Some(skip) = field_marker(s) {
            return self.item(r, i, skip);
        }
        self.paragraph(r, i)
    }

    /// Lines from `i` up to a blank line, as one block.
    fn until_blank(&mut self, r: &Region, i: usize, kind: Kind) -> usize {
        let mut j = i;
        while !r.blank(j + 1) {
            j += 1;
        }
        self.out.plain(r, kind, i, j);
        j + 1
    }

    /// A section title or a transition at line `i` (top level only for titles).
    #[allow(clippy::many_single_char_names)] // lines r, i, s; adornment (c, n)
    fn title(&mut self, r: &Region, i: usize, top: bool) -> Option<usize> {
        let s = r.lines[i];
        if let Some((c, n)) = adornment(s) {
            let over = top
                && !r.blank(i + 1)
                && adornment(r.lines[i + 1]).is_none()
                && i + 2 < r.len()
                && adornment(r.lines[i + 2]) == Some((c, n))
                && r.lines[i + 1].trim_matches(is_py_space).chars().count() <= n;
            if over {
                self.heading(r, (i, i + 2), (c, true), r.lines[i + 1]);
                return Some(i + 3);
            }
            if n >= 4 && r.blank(i + 1) {
                self.out.plain(r, Kind::Break, i, i);
                return Some(i + 1);
            }
            return None;
        }
        let (c, n) = adornment(r.lines.get(i + 1)?)?;
        let width = s.trim_end_matches(is_py_space).chars().count();
        if !top || r.cols(i + 1) > 0 || (n < width && n < 4) {
            return None;
        }
        self.heading(r, (i, i + 1), (c, false), s);
        Some(i + 2)
    }

    fn heading(&mut self, r: &Region, lines: (usize, usize), style: (u8, bool), title: &str) {
        if !self.styles.contains(&style) {
            self.styles.push(style);
        }
        let level = 1 + self.styles.iter().position(|&s| s == style).unwrap_or(0);
        self.out.add(
            r,
            Kind::Heading,
            lines,
            level,
            title.trim_matches(is_py_space).to_owned(),
        );
    }

    /// Explicit markup: a directive, target, substitution, footnote or comment.
    fn explicit(&mut self, r: &Region, i: usize) -> usize {
        let last = indented_end(r, i + 1).max(i);
        let s = r.lines[i];
        let Some(name) = directive(s) else {
            // A footnote is an item; an internal target (`.. _name:`) belongs to what
            // follows; link definitions, substitutions and comments are content.
            let internal = s.starts_with(".. _")
                && last == i
                && s.trim_end_matches(is_py_space).ends_with(':');
            let kind = if s.starts_with(".. [") {
                Kind::List
            } else if internal {
                Kind::Label
            } else {
                Kind::Paragraph
            };
            self.out.plain(r, kind, i, last);
            return last + 1;
        };
        if CODE_DIRECTIVES.contains(&name.as_str()) {
            self.out.plain(r, Kind::Code, i, last);
        } else if TABLE_DIRECTIVES.contains(&name.as_str()) && name != "list-table" {
            self.out.plain(r, Kind::Table, i, last);
        } else {
            // The head runs to the first blank line; the body follows it.
            let mut head = i;
            while head < last && !r.blank(head + 1) {
                head += 1;
            }
            if head == last {
                // No body: a label (a line and its options) glued to what follows when it
                // sets up what follows, else content.
                let options = (i + 1..=last)
                    .all(|j| r.lines[j].trim_start_matches(is_py_space).starts_with(':'));
                let kind = if options && LABEL_DIRECTIVES.contains(&name.as_str()) {
                    Kind::Label
                } else {
                    Kind::Quote
                };
                self.out.plain(r, kind, i, last);
            } else {
                // A list table is a list of rows: whole when it fits, else cut between
                // rows, with the literal blocks in its cells kept whole.
                let kind = if name == "list-table" {
                    Kind::Table
                } else {
                    Kind::Quote
                };
                self.container(r, kind, i, last, Some(head));
            }
        }
        last + 1
    }

    /// A container over lines `first..=last`: its head (lines `first..=head`) as a label,
    /// then its body read again without its indentation.
    fn container(
        &mut self,
        r: &Region,
        kind: Kind,
        first: usize,
        last: usize,
        head: Option<usize>,
    ) -> usize {
        let Some(k) = self.out.plain(r, kind, first, last) else {
            return last + 1;
        };
        let mut from = match head {
            Some(h) => {
                self.out.plain(r, Kind::Label, first, h);
                h + 1
            }
            None => first,
        };
        let text = directive(r.lines[first]).is_some_and(|n| TEXT_DIRECTIVES.contains(&n.as_str()));
        let literal = head
            .filter(|_| text)
            .and_then(|h| literal_after_head(r, first, h, last));
        if let Some((code, end)) = literal {
            self.out.plain(r, Kind::Code, code, end);
            from = end + 1;
        }
        if from <= last {
            let body = r.body(from, last, margin(r, from, last), 0);
            self.region(&body, false);
        }
        self.out.close(k);
        last + 1
    }

    /// A list item, field or footnote: the text after its marker (`skip` bytes) and the
    /// indented lines after it, read again as a body.
    fn item(&mut self, r: &Region, i: usize, skip: usize) -> usize {
        let last = indented_end(r, i + 1).max(i);
        let Some(k) = self.out.plain(r, Kind::List, i, last) else {
            return last + 1;
        };
        let cols = if last > i { margin(r, i + 1, last) } else { 0 };
        self.region(&r.body(i, last, cols, skip), false);
        self.out.close(k);
        last + 1
    }

    fn paragraph(&mut self, r: &Region, i: usize) -> usize {
        let mut j = i;
        while !r.blank(j + 1) && r.cols(j + 1) == 0 {
            j += 1;
        }
        if !r.blank(j + 1) {
            // A definition list item: its terms (a glossary has several), then its indented
            // definition.
            let last = indented_end(r, j + 1);
            let Some(k) = self.out.plain(r, Kind::List, i, last) else {
                return last + 1;
            };
            self.out.plain(r, Kind::Label, i, j);
            let body = r.body(j + 1, last, margin(r, j + 1, last), 0);
            self.region(&body, false);
            self.out.close(k);
            return last + 1;
        }
        self.out.plain(r, Kind::Paragraph, i, j);
        if r.lines[j].trim_end_matches(is_py_space).ends_with("::") {
            let mut k = j + 1;
            while k < r.len() && r.blank(k) {
                k += 1;
            }
            if k > j + 1 && k < r.len() && r.cols(k) > 0 {
                let last = indented_end(r, k);
                self.out.plain(r, Kind::Code, k, last);
                return last + 1;
            }
        }
        j + 1
    }
}

/// `(last line, header's last line)` of a simple table whose top border is line `i`: it
/// ends at a border followed by a blank line (or the end); the first border before that
/// closes the header. `None` if no border closes it.
fn simple_table(r: &Region, i: usize) -> Option<(usize, Option<usize>)> {
    let mut head = None;
    for j in i + 1..r.len() {
        if simple_border(r.lines[j]) {
            if r.blank(j + 1) {
                return Some((j, head));
            }
            head = head.or(Some(j));
        }
    }
    None
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
    fn titles_levels_in_order_seen() {
        let text = "=====\nTop\n=====\n\nIntro.\n\nSub\n---\n\nMore.\n\nSub 2\n-----\n";
        let blocks = scan(text);
        let heads: Vec<_> = blocks
            .iter()
            .filter(|b| b.kind == Kind::Heading)
            .map(|b| (b.level, b.title.as_str()))
            .collect();
        assert_eq!(heads, [(1, "Top"), (2, "Sub"), (2, "Sub 2")]);
    }

    #[test]
    fn literal_block_and_directive_bodies() {
        let text = "Example::\n\n    code here\n\n    more\n\nAfter.\n\n.. note::\n\n   Body one.\n\n   Body two::\n\n      lit\n";
        let got = kinds(text);
        assert_eq!(got[0], (Kind::Paragraph, "Example::"));
        assert_eq!(got[1], (Kind::Code, "code here\n\n    more"));
        assert_eq!(got[2], (Kind::Paragraph, "After."));
        assert_eq!(got[3].0, Kind::Quote);
        assert_eq!(got[4], (Kind::Label, ".. note::"));
        assert_eq!(got[5], (Kind::Paragraph, "Body one."));
        assert_eq!(got[6], (Kind::Paragraph, "Body two::"));
        assert_eq!(got[7], (Kind::Code, "lit"));
        assert_eq!(scan(text)[3].parts, 4);
    }

    #[test]
    fn a_directive_head_ending_with_two_colons_opens_a_literal_block() {
        let text = ".. note:: As in\n   Python::\n\n        class A:\n            x = 1\n\n\n        class B:\n            y = 2\n\n   After.\n";
        let got = kinds(text);
        assert_eq!(got[0].0, Kind::Quote);
        assert_eq!(got[1], (Kind::Label, ".. note:: As in\n   Python::"));
        assert_eq!(
            got[2],
            (
                Kind::Code,
                "class A:\n            x = 1\n\n\n        class B:\n            y = 2"
            )
        );
        assert_eq!(got[3], (Kind::Paragraph, "After."));
        let plain = kinds(".. note::\n   Text\n\n   Body.\n");
        assert_eq!(plain[2], (Kind::Paragraph, "Body."));
        let other = kinds(".. rst:directive:: .. glossary::\n\n   Body.\n");
        assert_eq!(other[2], (Kind::Paragraph, "Body."));
    }

    #[test]
    fn tables_lists_and_labels() {
        let text = ".. _target:\n\n+---+---+\n| a | b |\n+===+===+\n| 1 | 2 |\n+---+---+\n\n=== ===\nA   B\n=== ===\n1   2\n=== ===\n\n- one\n- two\n\nterm\n   definition\n\n.. code-block:: python\n\n   x = 1\n";
        let got = kinds(text);
        let k: Vec<Kind> = got.iter().map(|g| g.0).collect();
        assert_eq!(
            k,
            [
                Kind::Label,
                Kind::Table,
                Kind::Table,
                Kind::Paragraph,
                Kind::Paragraph,
                Kind::List,
                Kind::Label,
                Kind::Paragraph,
                Kind::Code
            ]
        );
        let blocks = scan(text);
        assert_eq!(
            &text[blocks[1].start..blocks[1].head],
            "+---+---+\n| a | b |\n+===+===+"
        );
        assert_eq!(
            &text[blocks[2].start..blocks[2].head],
            "=== ===\nA   B\n=== ==="
        );
        assert_eq!(got[3].1, "- one");
    }
}
