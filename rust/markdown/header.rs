//! `LangChain`'s `MarkdownHeaderTextSplitter` line scan, reproduced exactly.
//!
//! Each line is stripped (Python whitespace) and loses its non-printable characters, then
//! read as a fence, a header for one of the rules (longest marker first), a blank line or
//! content. Blocks of content carry the header metadata in force; blocks with equal
//! metadata are then joined with `"  \n"` unless every block is wanted on its own.
//! Non-printable means Python's `str.isprintable` is false: ASCII controls are known here;
//! for other characters the caller says which of those in the text are non-printable,
//! because the answer depends on the Unicode version of the Python that runs us.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::error::{Error, Result};
use crate::text::strip_range;

/// One `(marker, name)` entry of `headers_to_split_on`, resolved by the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderRule {
    /// The marker a header line starts with, e.g. `"##"` (or `"**"` for a custom pattern).
    pub sep: String,
    /// Id of the metadata key (equal names share an id); `None` splits without metadata.
    pub name: Option<usize>,
    /// Nesting level: `#` count, or the level given in `custom_header_patterns`.
    pub level: i64,
    /// Whether `sep` is also a custom `**Title**`-style pattern.
    pub custom: bool,
}

/// Header metadata in insertion order with dict semantics: `(name id, header text)`.
pub type Metadata = Vec<(usize, String)>;

/// One output document: its content and the header metadata it sits under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderBlock {
    /// The stripped lines of the block joined by `"\n"` (and `"  \n"` when aggregated).
    pub content: String,
    /// The headers in force, as `(name id, text)`.
    pub metadata: Metadata,
}

/// A configured header splitter.
#[derive(Debug, Clone)]
pub struct HeaderSplitter {
    rules: Vec<HeaderRule>,
    return_each_line: bool,
    strip_headers: bool,
}

fn meta_set(meta: &mut Metadata, key: usize, value: &str) {
    match meta.iter_mut().find(|(k, _)| *k == key) {
        Some(entry) => value.clone_into(&mut entry.1),
        None => meta.push((key, value.to_owned())),
    }
}

fn meta_eq(a: &Metadata, b: &Metadata) -> bool {
    a.len() == b.len()
        && a.iter()
            .all(|(k, v)| b.iter().any(|(k2, v2)| k2 == k && v2 == v))
}

/// Python's `str.strip()` of a line, then its printable characters only.
fn clean_line<'a>(line: &'a str, nonprintable: &HashSet<char>) -> Cow<'a, str> {
    let (a, b) = strip_range(line, 0, line.len());
    let s = &line[a..b];
    let printable = |c: char| {
        if c.is_ascii() {
            !c.is_ascii_control()
        } else {
            !nonprintable.contains(&c)
        }
    };
    if s.chars().all(printable) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.chars().filter(|&c| printable(c)).collect())
    }
}

/// Python's `s.strip()` as a slice.
fn py_strip(s: &str) -> &str {
    let (a, b) = strip_range(s, 0, s.len());
    &s[a..b]
}

/// The title of a `**Title**` custom header: one `sep` each side, something between that
/// is not only `sep` characters.
fn custom_title<'a>(line: &'a str, sep: &str) -> Option<&'a str> {
    let n = sep.len();
    if n == 0 || line.len() < 2 * n + 1 || !line.starts_with(sep) || !line.ends_with(sep) {
        return None;
    }
    let inner_end = line.len() - n;
    if !line.is_char_boundary(inner_end) || inner_end <= n {
        return None;
    }
    if line[n..].starts_with(sep) || line[..inner_end].ends_with(sep) {
        return None;
    }
    let title = py_strip(&line[n..inner_end]);
    let only_sep = title.chars().filter(|&c| c != ' ').all(|c| sep.contains(c));
    (!title.is_empty() && !only_sep).then_some(title)
}

/// The header text when `line` is a header for `rule`. A line that is both a custom header
/// and a standard one (`"** a**"` for `"**"`) takes the custom reading, as `LangChain` does:
/// its title is what lies between the two markers.
fn match_header<'a>(line: &'a str, rule: &HeaderRule) -> Option<&'a str> {
    let sep = rule.sep.as_str();
    if rule.custom {
        if let Some(title) = custom_title(line, sep) {
            return Some(title);
        }
    }
    if line.starts_with(sep) && (line.len() == sep.len() || line.as_bytes()[sep.len()] == b' ') {
        return Some(py_strip(&line[sep.len()..]));
    }
    None
}

impl HeaderSplitter {
    /// A splitter over `rules`, already sorted longest marker first (`LangChain`'s order).
    pub fn new(rules: Vec<HeaderRule>, return_each_line: bool, strip_headers: bool) -> Self {
        Self {
            rules,
            return_each_line,
            strip_headers,
        }
    }

    /// Splits `text`; `nonprintable` holds the non-ASCII characters of `text` that Python
    /// does not consider printable.
    pub fn split(&self, text: &str, nonprintable: &HashSet<char>) -> Result<Vec<HeaderBlock>> {
        let blocks = self.scan(text, nonprintable);
        if self.return_each_line {
            Ok(blocks)
        } else {
            aggregate(blocks, self.strip_headers)
        }
    }

    fn scan(&self, text: &str, nonprintable: &HashSet<char>) -> Vec<HeaderBlock> {
        let mut blocks = Vec::new();
        let mut content: Vec<Cow<'_, str>> = Vec::new();
        let mut meta: Metadata = Vec::new();
        let mut stack: Vec<(i64, usize)> = Vec::new();
        let mut fence = "";
        let flush = |content: &mut Vec<Cow<'_, str>>, meta: &Metadata, blocks: &mut Vec<_>| {
            if !content.is_empty() {
                blocks.push(HeaderBlock {
                    content: content.join("\n"),
                    metadata: meta.clone(),
                });
                content.clear();
            }
        };
        for raw in text.split('\n') {
            let line = clean_line(raw, nonprintable);
            if fence.is_empty() {
                if line.starts_with("```") && line.matches("```").count() == 1 {
                    fence = "```";
                } else if line.starts_with("~~~") {
                    fence = "~~~";
                }
            } else if line.starts_with(fence) {
                fence = ""; // the closing line is then read as an ordinary line
            }
            if !fence.is_empty() {
                content.push(line);
                continue;
            }
            let header = self
                .rules
                .iter()
                .find_map(|rule| match_header(&line, rule).map(|title| (rule, title)));
            match header {
                Some((rule, title)) => {
                    let before = meta.clone();
                    if let Some(name) = rule.name {
                        while stack.last().is_some_and(|&(level, _)| level >= rule.level) {
                            if let Some((_, popped)) = stack.pop() {
                                meta.retain(|(k, _)| *k != popped);
                            }
                        }
                        stack.push((rule.level, name));
                        let title = title.to_owned();
                        meta_set(&mut meta, name, &title);
                    }
                    flush(&mut content, &before, &mut blocks);
                    if !self.strip_headers {
                        content.push(line);
                    }
                }
                None if line.is_empty() => flush(&mut content, &meta, &mut blocks),
                None => content.push(line),
            }
        }
        flush(&mut content, &meta, &mut blocks);
        blocks
    }
}

/// `LangChain`'s `aggregate_lines_to_chunks`: joins blocks with equal metadata, and (headers
/// kept) a header-only block into the deeper block after it. Where `LangChain` indexes the
/// first character of an empty last line (and Python raises `IndexError`), so do we.
pub fn aggregate(blocks: Vec<HeaderBlock>, strip_headers: bool) -> Result<Vec<HeaderBlock>> {
    let mut out: Vec<HeaderBlock> = Vec::with_capacity(blocks.len());
    for block in blocks {
        if let Some(last) = out.last_mut() {
            if meta_eq(&last.metadata, &block.metadata) {
                last.content.push_str("  \n");
                last.content.push_str(&block.content);
                continue;
            }
            let last_line = last.content.rsplit('\n').next().unwrap_or("");
            let deeper = last.metadata.len() < block.metadata.len();
            if deeper && last_line.is_empty() {
                return Err(Error::IndexOutOfRange);
            }
            if deeper && last_line.starts_with('#') && !strip_headers {
                last.content.push_str("  \n");
                last.content.push_str(&block.content);
                last.metadata = block.metadata;
                continue;
            }
        }
        out.push(block);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(sep: &str, name: usize) -> HeaderRule {
        HeaderRule {
            sep: sep.to_owned(),
            name: Some(name),
            level: i64::try_from(sep.matches('#').count()).unwrap_or(0),
            custom: false,
        }
    }

    #[test]
    fn empty_last_line_before_deeper_block_fails_like_python() {
        // LangChain reads the first character of the previous block's last line.
        let s = HeaderSplitter::new(vec![rule("#", 1), rule("", 0)], false, false);
        assert_eq!(
            s.split("\n# ", &HashSet::new()),
            Err(Error::IndexOutOfRange)
        );
    }

    #[test]
    fn headers_nest_and_pop() {
        let s = HeaderSplitter::new(vec![rule("##", 1), rule("#", 0)], false, true);
        let out = s.split("# A\nx\n## B\ny\n# C\nz", &HashSet::new()).unwrap();
        let got: Vec<_> = out
            .iter()
            .map(|b| (b.content.as_str(), b.metadata.len()))
            .collect();
        assert_eq!(got, [("x", 1), ("y", 2), ("z", 1)]);
        assert_eq!(out[2].metadata, vec![(0, "C".to_owned())]);
    }

    #[test]
    fn fences_hide_headers_and_lines_are_cleaned() {
        let s = HeaderSplitter::new(vec![rule("#", 0)], true, true);
        let out = s
            .split("  # A \t\n```\n# no\n```\nend\u{7}x", &HashSet::new())
            .unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].content, "```\n# no\n```\nendx");
    }

    #[test]
    fn custom_reading_wins_over_standard() {
        // "** a**" is a standard header ("**" then a space) and a custom one: the title is
        // what lies between the markers, as in LangChain.
        let bold = HeaderRule {
            sep: "**".to_owned(),
            name: Some(0),
            level: 1,
            custom: true,
        };
        assert_eq!(match_header("** a**", &bold), Some("a"));
        assert_eq!(match_header("** a", &bold), Some("a"));
        let plain = HeaderRule {
            custom: false,
            ..bold
        };
        assert_eq!(match_header("** a**", &plain), Some("a**"));
    }

    #[test]
    fn custom_headers() {
        assert_eq!(custom_title("**Title**", "**"), Some("Title"));
        assert_eq!(custom_title("***Title**", "**"), Some("*Title"));
        assert_eq!(custom_title("****Title**", "**"), None);
        assert_eq!(custom_title("** **", "**"), None);
        assert_eq!(custom_title("*****", "**"), None);
    }
}
