//! Line predicates of the Markdown block scanner ([`super::blocks`]): what a single line
//! (or a line and the one after it) can start or end, read as `CommonMark` reads it.
//! Mirrored by `python/ferrochunk/reference/markdown/lines.py`.

use std::sync::OnceLock;

use regex::Regex;

use crate::block::{indent, is_blank};

const BLOCK_NAMES: &str = "address|article|aside|base|basefont|blockquote|body|caption|\
center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|\
frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|main|menu|\
menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|\
tfoot|th|thead|title|tr|track|ul";

/// The seven `CommonMark` HTML block kinds: start, end (`None`: a blank line), whether the
/// kind may interrupt a paragraph.
pub(super) struct HtmlKind {
    start: Regex,
    /// Where a block of this kind ends (`None`: at a blank line).
    pub(super) end: Option<Regex>,
    interrupts: bool,
}

pub(super) fn html_kinds() -> &'static [HtmlKind] {
    static KINDS: OnceLock<Vec<HtmlKind>> = OnceLock::new();
    KINDS.get_or_init(|| {
        let ws = "[ \\t\\x0b\\x0c]";
        let attr = format!(
            "(?:{ws}+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:{ws}*={ws}*\
             (?:[^\"'=<>`\\x00-\\x20]+|'[^']*'|\"[^\"]*\"))?)"
        );
        let tag7 = format!(
            "^(?:<[A-Za-z][A-Za-z0-9-]*{attr}*{ws}*/?>|</[A-Za-z][A-Za-z0-9-]*{ws}*>){ws}*$"
        );
        let names = format!("(?i)^</?(?:{BLOCK_NAMES})(?:[ \\t>]|/>|$)");
        let specs: [(&str, Option<&str>, bool); 7] = [
            (
                "(?i)^<(?:script|pre|style|textarea)(?:[ \\t>]|$)",
                Some("(?i)</(?:script|pre|style|textarea)>"),
                true,
            ),
            ("^<!--", Some("-->"), true),
            ("^<\\?", Some("\\?>"), true),
            ("^<![A-Za-z]", Some(">"), true),
            ("^<!\\[CDATA\\[", Some("\\]\\]>"), true),
            (&names, None, true),
            (&tag7, None, false),
        ];
        specs
            .iter()
            .filter_map(|&(start, end, interrupts)| {
                // The patterns are constants: a failure here is a bug caught by the tests.
                Some(HtmlKind {
                    start: Regex::new(start).ok()?,
                    end: match end {
                        Some(e) => Some(Regex::new(e).ok()?),
                        None => None,
                    },
                    interrupts,
                })
            })
            .collect()
    })
}

pub(super) fn trim_st(s: &str) -> &str {
    s.trim_matches(|c| c == ' ' || c == '\t')
}

pub(super) fn run_of(s: &str, c: u8) -> usize {
    s.bytes().take_while(|&b| b == c).count()
}

/// `(char, length)` of an opening code fence.
pub(super) fn fence_open(s: &str) -> Option<(u8, usize)> {
    let (cols, n) = indent(s);
    let rest = &s[n..];
    let ch = *rest.as_bytes().first()?;
    if cols > 3 || (ch != b'`' && ch != b'~') {
        return None;
    }
    let run = run_of(rest, ch);
    if run < 3 || (ch == b'`' && rest[run..].contains('`')) {
        return None;
    }
    Some((ch, run))
}

pub(super) fn fence_close(s: &str, fence: (u8, usize)) -> bool {
    let (cols, n) = indent(s);
    let rest = &s[n..];
    let run = run_of(rest, fence.0);
    cols <= 3 && run >= fence.1 && is_blank(&rest[run..])
}

/// `(level, title)` of an ATX heading.
pub(super) fn atx(s: &str) -> Option<(usize, String)> {
    let (cols, n) = indent(s);
    let rest = &s[n..];
    let level = run_of(rest, b'#');
    if cols > 3 || !(1..=6).contains(&level) {
        return None;
    }
    if rest.len() > level && !matches!(rest.as_bytes()[level], b' ' | b'\t') {
        return None;
    }
    let mut body = rest[level..].trim_end_matches([' ', '\t']);
    let hashes = body.len() - body.trim_end_matches('#').len();
    if hashes > 0
        && (hashes == body.len()
            || matches!(body.as_bytes()[body.len() - hashes - 1], b' ' | b'\t'))
    {
        body = &body[..body.len() - hashes];
    }
    Some((level, trim_st(body).to_owned()))
}

pub(super) fn thematic_break(s: &str) -> bool {
    let (cols, n) = indent(s);
    let mut marks = s[n..].bytes().filter(|&b| b != b' ' && b != b'\t');
    let Some(first) = marks.next() else {
        return false;
    };
    let mut count = 1;
    for b in marks {
        if b != first {
            return false;
        }
        count += 1;
    }
    cols <= 3 && count >= 3 && matches!(first, b'-' | b'*' | b'_')
}

pub(super) fn setext_level(s: &str) -> usize {
    let (cols, n) = indent(s);
    let rest = s[n..].trim_end_matches([' ', '\t']);
    let Some(&first) = rest.as_bytes().first() else {
        return 0;
    };
    if cols > 3 || !matches!(first, b'=' | b'-') || run_of(rest, first) != rest.len() {
        return 0;
    }
    if first == b'=' {
        1
    } else {
        2
    }
}

/// Whether the line is a whole link reference definition (`[label]: url "title"`): label
/// (not blank, brackets escaped), destination (`<...>`, or no spaces nor controls), then
/// maybe a title after a space; any indent, as a paragraph line.
pub(super) fn link_definition(s: &str) -> bool {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(concat!(
            r"^[ \t]*\[[ \t]*(?:[^\\\[\] \t]|\\.)(?:[^\\\[\]]|\\.)*\]:[ \t]*",
            r"(?:<(?:[^<>\\]|\\.)*>|[^< \t\x00-\x1f\x7f][^ \t\x00-\x1f\x7f]*)",
            r#"(?:[ \t]+(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?[ \t]*$"#,
        ))
        .ok() // a constant pattern: a failure is a bug the tests catch
    });
    re.as_ref().is_some_and(|re| re.is_match(s))
}

pub(super) fn quote_start(s: &str) -> bool {
    let (cols, n) = indent(s);
    cols <= 3 && s[n..].starts_with('>')
}

/// `(content indent in columns, may interrupt a paragraph)` of a list item marker.
pub(super) fn list_marker(s: &str) -> Option<(usize, bool)> {
    let (cols, n) = indent(s);
    let rest = &s[n..];
    let bytes = rest.as_bytes();
    if cols > 3 || bytes.is_empty() {
        return None;
    }
    let (width, ordered_one) = if matches!(bytes[0], b'-' | b'+' | b'*') {
        (1, true)
    } else {
        let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        if !(1..=9).contains(&digits) || !matches!(bytes.get(digits), Some(b'.' | b')')) {
            return None;
        }
        (digits + 1, rest[..digits].parse::<u64>().ok() == Some(1))
    };
    let after = &rest[width..];
    if !after.is_empty() && !matches!(after.as_bytes()[0], b' ' | b'\t') {
        return None;
    }
    let blank = is_blank(after);
    let spaces = indent(after).0;
    let pad = if blank || spaces > 4 { 1 } else { spaces };
    Some((cols + width + pad, ordered_one && !blank))
}

/// The HTML block kind (0-6) starting on this line.
pub(super) fn html_kind(s: &str, in_paragraph: bool) -> Option<usize> {
    let (cols, n) = indent(s);
    if cols > 3 {
        return None;
    }
    let rest = &s[n..];
    if !rest.starts_with('<') {
        return None; // every kind starts with `<`: skip the regexes
    }
    let k = html_kinds().iter().position(|h| h.start.is_match(rest))?;
    (html_kinds()[k].interrupts || !in_paragraph).then_some(k)
}

pub(super) fn delimiter_cell(cell: &str) -> bool {
    let c = cell.strip_prefix(':').unwrap_or(cell);
    let c = c.strip_suffix(':').unwrap_or(c);
    !c.is_empty() && c.bytes().all(|b| b == b'-')
}

/// Whether a GFM table (markdown-it's reading) starts at line `i`.
pub(super) fn table_start(lines: &[&str], i: usize) -> bool {
    if i + 1 >= lines.len() || indent(lines[i]).0 > 3 || indent(lines[i + 1]).0 > 3 {
        return false;
    }
    let delim = trim_st(lines[i + 1]).as_bytes();
    let ok = |b: u8| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t');
    if delim.len() < 2 || !matches!(delim[0], b'|' | b'-' | b':') || !ok(delim[1]) {
        return false;
    }
    if (delim[0] == b'-' && matches!(delim[1], b' ' | b'\t')) || !delim.iter().all(|&b| ok(b)) {
        return false;
    }
    let delim = trim_st(lines[i + 1]);
    let cells: Vec<&str> = delim.split('|').collect();
    let mut aligns = 0;
    for (k, cell) in cells.iter().enumerate() {
        let cell = trim_st(cell);
        if cell.is_empty() {
            if k == 0 || k == cells.len() - 1 {
                continue;
            }
            return false;
        }
        if !delimiter_cell(cell) {
            return false;
        }
        aligns += 1;
    }
    let header = trim_st(lines[i]);
    if !header.contains('|') {
        return false;
    }
    // Cells split at unescaped pipes; an empty first and last cell do not count.
    let bytes = header.as_bytes();
    let unescaped = |p: usize| bytes[p] == b'|' && (p == 0 || bytes[p - 1] != b'\\');
    let pipes = (0..bytes.len()).filter(|&p| unescaped(p)).count();
    let columns = pipes + 1 - usize::from(unescaped(0)) - usize::from(unescaped(bytes.len() - 1));
    columns > 0 && columns == aligns
}

/// Whether line `j` starts a block that ends a paragraph (or a lazy continuation).
pub(super) fn interrupts(lines: &[&str], j: usize) -> bool {
    let s = lines[j];
    if indent(s).0 > 3 {
        return false;
    }
    atx(s).is_some()
        || fence_open(s).is_some()
        || thematic_break(s)
        || quote_start(s)
        || list_marker(s).is_some_and(|m| m.1)
        || html_kind(s, true).is_some()
        || table_start(lines, j)
}
