//! AsciiDoc block scanner: a line-based reading of Asciidoctor's block structure, enough
//! to chunk without cutting things.
//!
//! Section titles at the top level (`= Title` to `====== Title`, `#` likewise, and the
//! older two-line titles underlined with `=` `-` `~` `^` `+`, at least three of them and
//! within two characters of the title's length, under a line with a word in it); delimited blocks found by their closing line (listing `----`, literal
//! `....`, passthrough `++++`, comment `////` and backtick fences are code; `|===` `,===`
//! `:===` `!===` tables, with the first row as header when a blank line follows it;
//! example `====`, sidebar `****`, quote `____` and open `--` blocks are containers whose
//! bodies are read again); block titles (`.Title`), attribute lines (`[source,python]`,
//! `[[id]]`), attribute entries (`:name: value`) and comment lines as labels glued to what
//! follows, and so are list continuations (`+`) and all but the last of several
//! description terms sharing one body; list items and description-list items as seams;
//! indented literal paragraphs as code; breaks (`'''`, `<<<`); paragraphs. A preprocessor
//! conditional (`ifdef::x[]`, `ifndef::x[]`, `ifeval::[...]`) over a section title is a
//! label, so that the title is read as one; elsewhere conditionals are read as text (Git's
//! docs guard half-sentences with them).
//! Mirrored by `python/ferrochunk/reference/structure/asciidoc.py`.

use super::lines::{adornment, table, Out, Region};
use crate::block::{Block, Kind};
use crate::text::is_py_space;

/// The blocks of an AsciiDoc text, in order.
pub fn scan(text: &str) -> Vec<Block> {
    let mut out = Out::default();
    region(&mut out, &Region::of(text), true);
    out.blocks
}

/// What a delimiter line opens.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Delimited {
    Code,
    Table,
    Container,
}

/// Whether a line opens a preprocessor conditional: `ifdef::x[]`, `ifndef::x[]` or
/// `ifeval::[...]` (the one-line form `ifdef::x[text]` is content).
fn conditional(s: &str) -> bool {
    let t = s.trim_end_matches(is_py_space);
    let guard = t
        .strip_prefix("ifdef::")
        .or_else(|| t.strip_prefix("ifndef::"))
        .is_some_and(|rest| rest.ends_with("[]") && !rest.chars().any(is_py_space));
    guard || (t.starts_with("ifeval::[") && t.ends_with(']'))
}

/// Whether line `i` of `r` starts a section title.
fn title_at(r: &Region, i: usize) -> bool {
    r.lines.get(i).is_some_and(|s| {
        one_line_title(s).is_some()
            || r.lines
                .get(i + 1)
                .is_some_and(|u| two_line_level(s, u).is_some())
    })
}

/// The kind of delimited block a line opens (trailing spaces ignored).
fn delimiter(line: &str) -> Option<Delimited> {
    let t = line.trim_end_matches([' ', '\t']);
    if t == "--" {
        return Some(Delimited::Container);
    }
    if t.starts_with("```") {
        return Some(Delimited::Code);
    }
    let b = t.as_bytes();
    if b.len() >= 4 && b"|,:!".contains(&b[0]) && b[1..].iter().all(|&c| c == b'=') {
        return Some(Delimited::Table);
    }
    let (c, n) = adornment(t)?;
    if n < 4 {
        return None;
    }
    match c {
        b'-' | b'.' | b'+' | b'/' => Some(Delimited::Code),
        b'=' | b'*' | b'_' => Some(Delimited::Container),
        _ => None,
    }
}

/// Level and title of a one-line section title (`== Title`, `## Title`).
fn one_line_title(s: &str) -> Option<(usize, String)> {
    let c = *s.as_bytes().first()?;
    if c != b'=' && c != b'#' {
        return None;
    }
    let level = s.bytes().take_while(|&b| b == c).count();
    let rest = &s[level..];
    if level > 6 || !rest.starts_with([' ', '\t']) || rest.trim_matches(is_py_space).is_empty() {
        return None;
    }
    let title = rest
        .trim_matches(is_py_space)
        .trim_end_matches(char::from(c))
        .trim_end_matches(is_py_space);
    Some((level, title.to_owned()))
}

/// Level of a two-line title whose underline is `u`, under the text line `s`.
fn two_line_level(s: &str, u: &str) -> Option<usize> {
    let (c, n) = adornment(u)?;
    let level = b"=-~^+".iter().position(|&x| x == c)? + 1;
    let width = s.trim_end_matches(is_py_space).chars().count();
    let starts_block = s.starts_with(['.', '[', '/', ':', '*', '-', '<', ' ', '\t', '|']);
    // `--` opens an open block; a title has a word in it (`+` over `--` is no title).
    let wordy = s
        .chars()
        .any(|c| !c.is_ascii_punctuation() && !is_py_space(c));
    let ok = n >= 3 && wordy && width.abs_diff(n) <= 2 && !starts_block && delimiter(s).is_none();
    ok.then_some(level)
}

/// Whether `s` is a label: block title, block attribute line or anchor, attribute entry.
fn label(s: &str) -> bool {
    let t = s.trim_end_matches(is_py_space);
    let title = t.len() > 1 && t.starts_with('.') && !t[1..].starts_with(['.', ' ', '\t']);
    let attrs = t.starts_with('[') && t.ends_with(']');
    title || attrs || attribute_entry(t)
}

/// `:name: value` (or `:name!:`): a document attribute entry.
fn attribute_entry(s: &str) -> bool {
    let Some(rest) = s.strip_prefix(':') else {
        return false;
    };
    let name = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || b"_-!".contains(b))
        .count();
    let after = &rest[name..];
    name > 0 && after.starts_with(':') && (after.len() == 1 || after[1..].starts_with([' ', '\t']))
}

/// Whether `s` starts a list item (`*`, `-`, `.`, `1.`, `a.`, `<1>`) or a description-list
/// item (`term::`, `term;;`).
fn item_start(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(&c) = b.first() else {
        return false;
    };
    let marker = match c {
        b'*' | b'.' => b.iter().take_while(|&&x| x == c).count().min(6),
        b'-' => 1,
        b'<' => s.find('>').map_or(0, |k| k + 1),
        _ => {
            let k = b.iter().take_while(|x| x.is_ascii_alphanumeric()).count();
            let num = k > 0 && (k == 1 || b[..k].iter().all(u8::is_ascii_digit));
            if num && b.get(k) == Some(&b'.') {
                k + 1
            } else {
                0
            }
        }
    };
    let bullet = marker > 0
        && s[marker..].starts_with([' ', '\t'])
        && !s[marker..].trim_matches(is_py_space).is_empty()
        && (c != b'<'
            || s[1..marker - 1]
                .bytes()
                .all(|x| x.is_ascii_digit() || x == b'.'));
    bullet || description_term(s)
}

/// `term::`, `term:::`, `term::::` or `term;;`, then the end of the line or a space.
fn description_term(s: &str) -> bool {
    // Asked of most lines: those without a `:` or `;` (most) are answered by one memchr.
    if memchr::memchr2(b':', b';', s.as_bytes()).is_none() {
        return false;
    }
    for mark in ["::::", ":::", "::", ";;"] {
        if let Some(k) = memchr::memmem::find(s.as_bytes(), mark.as_bytes()) {
            let after = &s[k + mark.len()..];
            let term = &s[..k];
            if !term.trim_matches(is_py_space).is_empty()
                && !term.ends_with([':', ';'])
                && (after.is_empty() || after.starts_with([' ', '\t']))
            {
                return true;
            }
        }
    }
    false
}

fn region(out: &mut Out, r: &Region, top: bool) {
    let mut i = 0;
    while i < r.len() {
        i = if r.blank(i) {
            i + 1
        } else {
            block(out, r, i, top)
        };
    }
}

/// Reads the block starting at line `i`; returns the line after it.
fn block(out: &mut Out, r: &Region, i: usize, top: bool) -> usize {
    let s = r.lines[i];
    if let Some(kind) = delimiter(s) {
        return delimited(out, r, i, kind);
    }
    if s.starts_with("//") {
        let mut j = i;
        while j + 1 < r.len()
            && r.lines[j + 1].starts_with("//")
            && delimiter(r.lines[j + 1]).is_none()
        {
            j += 1;
        }
        out.plain(r, Kind::Label, i, j);
        return j + 1;
    }
    if top && conditional(s) && title_at(r, i + 1) {
        out.plain(r, Kind::Label, i, i);
        return i + 1;
    }
    if top {
        if let Some((level, title)) = one_line_title(s) {
            out.add(r, Kind::Heading, (i, i), level, title);
            return i + 1;
        }
        if let Some(level) = r.lines.get(i + 1).and_then(|u| two_line_level(s, u)) {
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
    if label(s) {
        out.plain(r, Kind::Label, i, i);
        return i + 1;
    }
    let t = s.trim_end_matches(is_py_space);
    if t == "'''" || t == "<<<" {
        out.plain(r, Kind::Break, i, i);
        return i + 1;
    }
    if r.cols(i) > 0 {
        return until(out, r, i, Kind::Code, |_| false);
    }
    if t == "+" {
        // A list continuation: the block after it belongs to the item before it.
        out.plain(r, Kind::Label, i, i);
        return i + 1;
    }
    if description_term(s) && r.lines.get(i + 1).is_some_and(|l| description_term(l)) {
        // One of several terms sharing the body below them.
        out.plain(r, Kind::Label, i, i);
        return i + 1;
    }
    if item_start(s) {
        return until(out, r, i, Kind::List, |l| {
            item_start(l) || l.trim_end_matches(is_py_space) == "+"
        });
    }
    until(out, r, i, Kind::Paragraph, |_| false)
}

/// Lines from `i` up to a blank line, a delimiter line, or a line `stop` accepts (not
/// line `i` itself), as one block of `kind`; returns the line after it.
fn until(out: &mut Out, r: &Region, i: usize, kind: Kind, stop: impl Fn(&str) -> bool) -> usize {
    let mut j = i;
    while !r.blank(j + 1) && delimiter(r.lines[j + 1]).is_none() && !stop(r.lines[j + 1]) {
        j += 1;
    }
    out.plain(r, kind, i, j);
    j + 1
}

/// A delimited block opened on line `i`: up to the same delimiter again (or the end).
fn delimited(out: &mut Out, r: &Region, i: usize, kind: Delimited) -> usize {
    let open = r.lines[i].trim_end_matches([' ', '\t']);
    let fence = open.starts_with("```");
    let closes = |l: &str| {
        let l = l.trim_end_matches([' ', '\t']);
        if fence {
            l == "```"
        } else {
            l == open
        }
    };
    let close = (i + 1..r.len())
        .find(|&j| closes(r.lines[j]))
        .unwrap_or(r.len() - 1);
    match kind {
        Delimited::Code => {
            out.plain(r, Kind::Code, i, close);
        }
        Delimited::Table => {
            let head = (i + 2 < close && !r.blank(i + 1) && r.blank(i + 2)).then_some(i + 1);
            table(out, r, i, close, head);
        }
        Delimited::Container => {
            if let Some(k) = out.plain(r, Kind::Quote, i, close) {
                out.plain(r, Kind::Label, i, i);
                if close > i + 1 {
                    region(out, &r.body(i + 1, close - 1, 0, 0), false);
                }
                out.close(k);
            }
        }
    }
    close + 1
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
    fn titles_blocks_and_labels() {
        let text = "= Doc\n\n== Part\n\n[source,python]\n----\nx = 1\n\ny = 2\n----\n\n.Table\n|===\n|a |b\n\n|1 |2\n|===\n\nNAME\n----\ngit-commit\n";
        let got = kinds(text);
        let k: Vec<Kind> = got.iter().map(|g| g.0).collect();
        assert_eq!(
            k,
            [
                Kind::Heading,
                Kind::Heading,
                Kind::Label,
                Kind::Code,
                Kind::Label,
                Kind::Table,
                Kind::Heading,
                Kind::Paragraph
            ]
        );
        let blocks = scan(text);
        assert_eq!(
            (blocks[0].level, blocks[1].level, blocks[6].level),
            (1, 2, 2)
        );
        assert_eq!(&text[blocks[5].start..blocks[5].head], "|===\n|a |b");
    }

    #[test]
    fn containers_items_and_continuations() {
        let text =
            "[NOTE]\n====\nOne.\n\nTwo.\n====\n\n* a\n* b\n+\nmore\n\n-a::\n--all::\n\tStage all.\n";
        let got = kinds(text);
        assert_eq!(got[0], (Kind::Label, "[NOTE]"));
        assert_eq!(got[1].0, Kind::Quote);
        assert_eq!(got[2], (Kind::Label, "===="));
        assert_eq!(got[3], (Kind::Paragraph, "One."));
        assert_eq!(got[4], (Kind::Paragraph, "Two.\n===="));
        assert_eq!(got[5], (Kind::List, "* a"));
        assert_eq!(got[6], (Kind::List, "* b"));
        assert_eq!(got[7], (Kind::Label, "+"));
        assert_eq!(got[8], (Kind::Paragraph, "more"));
        assert_eq!(got[9], (Kind::Label, "-a::"));
        assert_eq!(got[10], (Kind::List, "--all::\n\tStage all."));
    }

    #[test]
    fn conditionals_over_titles_are_labels() {
        let text =
            "Text\nifdef::a[]\nmore.\n\nifndef::b[]\nTitle Here\n~~~~~~~~~~\n\nifdef::c[]\nBody.\n";
        let got = kinds(text);
        assert_eq!(got[0], (Kind::Paragraph, "Text\nifdef::a[]\nmore."));
        assert_eq!(got[1], (Kind::Label, "ifndef::b[]"));
        assert_eq!(got[2].0, Kind::Heading);
        assert_eq!(got[3], (Kind::Paragraph, "ifdef::c[]\nBody."));
        assert!(conditional("ifeval::[{x} > 1]"));
        assert!(!conditional("ifdef::a b[]") && !conditional("ifdef::a[x]"));
    }
}
