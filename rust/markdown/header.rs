//! `LangChain`'s `MarkdownHeaderTextSplitter` line scan, reproduced exactly.
//!
//! Each line is stripped (Python whitespace) and loses its non-printable characters, then
//! read as a fence, a header for one of the rules (longest marker first), a blank line or
//! content. Blocks of content carry the header metadata in force; blocks with equal
//! metadata are then joined with `"  \n"` unless every block is wanted on its own.
//! Non-printable means Python's `str.isprintable` is false: ASCII controls are known here;
//! for other characters the caller answers (a [`NonPrintable`] test), because the answer
//! depends on the Unicode version of the Python that runs us.

use std::borrow::Cow;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::text::strip_range;

/// Whether a non-ASCII character is one Python's `str.isprintable` rejects.
pub type NonPrintable<'a> = &'a (dyn Fn(char) -> bool + Sync);

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
    /// The headers in force, as `(name id, text)`; shared by the blocks under them.
    pub metadata: Arc<Metadata>,
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

/// Dict equality (order does not matter), with the shared-metadata shortcut.
fn meta_eq(a: &Arc<Metadata>, b: &Arc<Metadata>) -> bool {
    Arc::ptr_eq(a, b)
        || (a.len() == b.len()
            && a.iter()
                .all(|(k, v)| b.iter().any(|(k2, v2)| k2 == k && v2 == v)))
}

/// The output, folded block by block as `LangChain`'s `aggregate_lines_to_chunks` folds
/// the finished list (a left fold, so doing it as blocks arrive gives the same result
/// without building each block's text twice).
struct Folded {
    out: Vec<HeaderBlock>,
    aggregate: bool,
    strip_headers: bool,
}

impl Folded {
    /// Adds the block of `lines` (joined by `"\n"`) under `metadata`.
    fn add(&mut self, lines: &[Cow<'_, str>], metadata: &Arc<Metadata>) -> Result<()> {
        if self.aggregate {
            if let Some(last) = self.out.last_mut() {
                let merge = if meta_eq(&last.metadata, metadata) {
                    true
                } else {
                    let last_line = last.content.rsplit('\n').next().unwrap_or("");
                    let deeper = last.metadata.len() < metadata.len();
                    if deeper && last_line.is_empty() {
                        // LangChain reads the first character of that empty line.
                        return Err(Error::IndexOutOfRange);
                    }
                    let merge = deeper && last_line.starts_with('#') && !self.strip_headers;
                    if merge {
                        last.metadata = Arc::clone(metadata);
                    }
                    merge
                };
                if merge {
                    last.content.push_str("  \n");
                    push_joined(&mut last.content, lines);
                    return Ok(());
                }
            }
        }
        let mut content = String::new();
        push_joined(&mut content, lines);
        self.out.push(HeaderBlock {
            content,
            metadata: Arc::clone(metadata),
        });
        Ok(())
    }
}

fn push_joined(out: &mut String, lines: &[Cow<'_, str>]) {
    for (k, line) in lines.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        out.push_str(line);
    }
}

/// Python's `str.strip()` of a line, then its printable characters only.
/// Whether `bytes` holds an ASCII control character (below 0x20, or DEL). Folded in runs of
/// 64 without an early exit inside a run, which the compiler turns into SIMD compares.
fn has_ascii_control(bytes: &[u8]) -> bool {
    bytes.chunks(64).any(|run| {
        let found = run
            .iter()
            .fold(0u8, |n, &b| n | u8::from(b < 0x20) | u8::from(b == 0x7f));
        found != 0
    })
}

/// `nonprintable` is `None` when the text has no non-printable non-ASCII character.
fn clean_line<'a>(line: &'a str, nonprintable: Option<NonPrintable<'_>>) -> Cow<'a, str> {
    let (a, b) = strip_range(line, 0, line.len());
    let s = &line[a..b];
    if !has_ascii_control(s.as_bytes()) && (nonprintable.is_none() || s.is_ascii()) {
        return Cow::Borrowed(s); // the common line: nothing to drop
    }
    let printable = |c: char| {
        if c.is_ascii() {
            !c.is_ascii_control()
        } else {
            !nonprintable.is_some_and(|f| f(c))
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
    if sep
        .as_bytes()
        .first()
        .is_some_and(|b| line.as_bytes().first() != Some(b))
    {
        return None; // the common case: the line does not even start like the marker
    }
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

/// `text.split('\n')`, by `memchr`.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', text.as_bytes())
        .map(Some)
        .chain([None])
        .map(move |nl| {
            let end = nl.unwrap_or(text.len());
            let line = &text[start..end];
            start = end + 1;
            line
        })
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

    /// Splits `text`; `nonprintable` says which non-ASCII characters Python does not
    /// consider printable (`None`: the text has none).
    pub fn split(
        &self,
        text: &str,
        nonprintable: Option<NonPrintable<'_>>,
    ) -> Result<Vec<HeaderBlock>> {
        let mut out = Folded {
            out: Vec::new(),
            aggregate: !self.return_each_line,
            strip_headers: self.strip_headers,
        };
        let mut content: Vec<Cow<'_, str>> = Vec::new();
        let mut meta: Arc<Metadata> = Arc::new(Vec::new());
        let mut stack: Vec<(i64, usize)> = Vec::new();
        let mut fence = "";
        for raw in lines(text) {
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
                    let before = Arc::clone(&meta);
                    if let Some(name) = rule.name {
                        let title = title.to_owned();
                        let meta = Arc::make_mut(&mut meta);
                        while stack.last().is_some_and(|&(level, _)| level >= rule.level) {
                            if let Some((_, popped)) = stack.pop() {
                                meta.retain(|(k, _)| *k != popped);
                            }
                        }
                        stack.push((rule.level, name));
                        meta_set(meta, name, &title);
                    }
                    if !content.is_empty() {
                        out.add(&content, &before)?;
                        content.clear();
                    }
                    if !self.strip_headers {
                        content.push(line);
                    }
                }
                None if line.is_empty() => {
                    if !content.is_empty() {
                        out.add(&content, &meta)?;
                        content.clear();
                    }
                }
                None => content.push(line),
            }
        }
        if !content.is_empty() {
            out.add(&content, &meta)?;
        }
        Ok(out.out)
    }
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
            s.split("\n# ", Some(&|_| false)),
            Err(Error::IndexOutOfRange)
        );
    }

    #[test]
    fn headers_nest_and_pop() {
        let s = HeaderSplitter::new(vec![rule("##", 1), rule("#", 0)], false, true);
        let out = s
            .split("# A\nx\n## B\ny\n# C\nz", Some(&|_| false))
            .unwrap();
        let got: Vec<_> = out
            .iter()
            .map(|b| (b.content.as_str(), b.metadata.len()))
            .collect();
        assert_eq!(got, [("x", 1), ("y", 2), ("z", 1)]);
        assert_eq!(*out[2].metadata, vec![(0, "C".to_owned())]);
    }

    #[test]
    fn fences_hide_headers_and_lines_are_cleaned() {
        let s = HeaderSplitter::new(vec![rule("#", 0)], true, true);
        let out = s
            .split("  # A \t\n```\n# no\n```\nend\u{7}x", Some(&|_| false))
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
