//! Plain-text block scanner: what structure plain text shows without markup.
//!
//! Paragraphs are runs of non-blank lines; a line that starts a list item (`-`, `*`, `+`,
//! `•`, `1.`, `(a)`, ...) starts a block of its own, so list items are seams; a line
//! underlined with one repeated punctuation character (at least three, and at least as
//! long as the line less two) is a title, levels in the order underline characters are
//! first seen; grid tables (`+---+` borders) are tables.
//! Indentation means nothing here (whole texts are indented, verse is, quotes are).
//! Mirrored by `python/ferrochunk/reference/structure/plain.py`.

use super::lines::{adornment, grid_border, grid_table, list_marker, table, Out, Region};
use crate::block::{Block, Kind};
use crate::text::is_py_space;

/// The blocks of a plain text, in order.
pub fn scan(text: &str) -> Vec<Block> {
    let r = Region::of(text);
    let mut out = Out::default();
    let mut styles: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < r.len() {
        i = if r.blank(i) {
            i + 1
        } else {
            block(&mut out, &r, i, &mut styles)
        };
    }
    out.blocks
}

/// The text of line `s` without its indentation.
fn bare(s: &str) -> &str {
    s.trim_start_matches([' ', '\t'])
}

/// Reads the block starting at line `i`; returns the line after it.
fn block(out: &mut Out, r: &Region, i: usize, styles: &mut Vec<u8>) -> usize {
    let s = bare(r.lines[i]);
    if grid_border(s) {
        let (last, head) = grid_table(r, i);
        table(out, r, i, last, head);
        return last + 1;
    }
    if let Some((c, n)) = r.lines.get(i + 1).and_then(|u| adornment(bare(u))) {
        let width = s.trim_end_matches(is_py_space).chars().count();
        if n >= 3 && n + 2 >= width && adornment(s).is_none() && list_marker(s).is_none() {
            if !styles.contains(&c) {
                styles.push(c);
            }
            let level = 1 + styles.iter().position(|&x| x == c).unwrap_or(0);
            out.add(
                r,
                Kind::Heading,
                (i, i + 1),
                level,
                s.trim_matches(is_py_space).to_owned(),
            );
            return i + 2;
        }
    }
    let kind = if list_marker(s).is_some() {
        Kind::List
    } else {
        Kind::Paragraph
    };
    let mut j = i;
    while !r.blank(j + 1) && list_marker(bare(r.lines[j + 1])).is_none() {
        j += 1;
    }
    out.plain(r, kind, i, j);
    j + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_items_titles() {
        let text =
            "Title\n=====\n\nSome text\nwrapped.\n- one\n- two\n  more\n\nPart\n----\n\x0c\n";
        let got: Vec<(Kind, &str, usize)> = scan(text)
            .into_iter()
            .map(|b| (b.kind, &text[b.start..b.end], b.level))
            .collect();
        assert_eq!(
            got,
            [
                (Kind::Heading, "Title\n=====", 1),
                (Kind::Paragraph, "Some text\nwrapped.", 0),
                (Kind::List, "- one", 0),
                (Kind::List, "- two\n  more", 0),
                (Kind::Heading, "Part\n----", 2),
            ]
        );
    }
}
