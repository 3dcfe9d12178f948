//! Separator scanning: where a separator occurs in a piece of text, as byte ranges.
//!
//! Literal separators use `memchr::memmem` (SIMD substring search); patterns use the
//! `regex` crate, whose leftmost-first semantics give the same match spans as Python's
//! backtracking `re` for the syntax both share. The Python layer translates Python
//! patterns into that shared subset and keeps the rest on Python's own engine.

use memchr::memmem;
use regex::Regex;

use crate::error::{Error, Result};

/// Where a kept separator goes: LangChain's `keep_separator` (`False`, `"start"`, `"end"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeepSeparator {
    /// Separators are dropped from the pieces (and re-inserted when merging).
    Drop,
    /// Each separator starts the piece that follows it (`True` / `"start"`).
    Start,
    /// Each separator ends the piece before it (`"end"`).
    End,
}

impl KeepSeparator {
    /// Whether separators stay inside the pieces.
    pub fn keeps(self) -> bool {
        self != Self::Drop
    }
}

#[derive(Debug, Clone)]
enum Matcher {
    /// The empty separator: every character is a piece.
    Chars,
    Literal(Box<memmem::Finder<'static>>),
    Regex(Regex),
}

/// One separator, ready to scan; cheap to clone and `Send + Sync`.
#[derive(Debug, Clone)]
pub struct Separator {
    matcher: Matcher,
    /// The text LangChain joins pieces with when separators are dropped: the literal, or
    /// the pattern string itself for a regex (a LangChain quirk we reproduce).
    join_text: String,
}

impl Separator {
    /// A literal separator; `""` splits into characters.
    pub fn literal(text: &str) -> Self {
        let matcher = if text.is_empty() {
            Matcher::Chars
        } else {
            Matcher::Literal(Box::new(memmem::Finder::new(text.as_bytes()).into_owned()))
        };
        Self {
            matcher,
            join_text: text.to_owned(),
        }
    }

    /// A regular-expression separator in the `regex` crate's syntax; `""` splits into
    /// characters. Patterns that can match the empty string are refused, because engines
    /// disagree on where empty matches fall.
    pub fn regex(pattern: &str) -> Result<Self> {
        if pattern.is_empty() {
            return Ok(Self::literal(""));
        }
        let invalid = |reason: String| Error::InvalidRegex {
            pattern: pattern.to_owned(),
            reason,
        };
        let hir = regex_syntax::Parser::new()
            .parse(pattern)
            .map_err(|e| invalid(e.to_string()))?;
        if hir.properties().minimum_len().unwrap_or(0) == 0 {
            return Err(Error::EmptyMatch(pattern.to_owned()));
        }
        let regex = Regex::new(pattern).map_err(|e| invalid(e.to_string()))?;
        Ok(Self {
            matcher: Matcher::Regex(regex),
            join_text: pattern.to_owned(),
        })
    }

    /// Replaces the text used to join pieces when separators are dropped (the binding
    /// passes the user's original Python pattern when it translated it).
    #[must_use]
    pub fn with_join_text(mut self, text: &str) -> Self {
        text.clone_into(&mut self.join_text);
        self
    }

    /// The text used to join pieces when separators are dropped.
    pub fn join_text(&self) -> &str {
        &self.join_text
    }

    /// Whether this is the empty separator (split into characters).
    pub fn is_chars(&self) -> bool {
        matches!(self.matcher, Matcher::Chars)
    }

    /// Whether the separator occurs in `hay` (Python's `re.search`); the empty separator
    /// always "occurs".
    pub fn is_found(&self, hay: &str) -> bool {
        match &self.matcher {
            Matcher::Chars => true,
            Matcher::Literal(f) => f.find(hay.as_bytes()).is_some(),
            Matcher::Regex(r) => r.is_match(hay),
        }
    }

    /// Calls `f` with the byte range of every match in `hay`, left to right, non-overlapping.
    fn for_each_match(&self, hay: &str, mut f: impl FnMut(usize, usize)) {
        match &self.matcher {
            Matcher::Chars => {
                for (i, c) in hay.char_indices() {
                    f(i, i + c.len_utf8());
                }
            }
            Matcher::Literal(finder) => {
                let n = finder.needle().len();
                for i in finder.find_iter(hay.as_bytes()) {
                    f(i, i + n);
                }
            }
            Matcher::Regex(r) => {
                for m in r.find_iter(hay) {
                    f(m.start(), m.end());
                }
            }
        }
    }

    /// Splits `text[start..end]` into pieces (absolute byte ranges, empty ones dropped)
    /// exactly as LangChain's `_split_text_with_regex` does, and appends them to `out`.
    pub fn split(
        &self,
        text: &str,
        start: usize,
        end: usize,
        keep: KeepSeparator,
        out: &mut Vec<(usize, usize)>,
    ) {
        self.for_each_piece(text, start, end, keep, |a, b| out.push((a, b)));
    }

    /// Calls `f` with every piece of `text[start..end]` (absolute byte ranges, in order,
    /// empty ones dropped), as [`Separator::split`] lists them, without collecting them.
    pub fn for_each_piece(
        &self,
        text: &str,
        start: usize,
        end: usize,
        keep: KeepSeparator,
        mut f: impl FnMut(usize, usize),
    ) {
        let hay = &text[start..end];
        if self.is_chars() {
            // `list(text)`: the separator is nothing, so every mode gives single characters.
            self.for_each_match(hay, |a, b| f(start + a, start + b));
            return;
        }
        let mut push = |a: usize, b: usize| {
            if a < b {
                f(start + a, start + b);
            }
        };
        let mut last = 0;
        self.for_each_match(hay, |a, b| {
            match keep {
                KeepSeparator::Drop => push(last, a),
                KeepSeparator::Start => {
                    push(last, a);
                    last = a;
                    return;
                }
                KeepSeparator::End => push(last, b),
            }
            last = b;
        });
        push(last, hay.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn pieces<'a>(sep: &Separator, text: &'a str, keep: KeepSeparator) -> Vec<&'a str> {
        let mut out = Vec::new();
        sep.split(text, 0, text.len(), keep, &mut out);
        out.iter().map(|&(a, b)| &text[a..b]).collect()
    }

    #[test]
    fn literal_keep_modes() {
        let sep = Separator::literal("\n\n");
        let text = "a\n\nb\n\n\n\nc\n\n";
        assert_eq!(pieces(&sep, text, KeepSeparator::Drop), ["a", "b", "c"]);
        assert_eq!(
            pieces(&sep, text, KeepSeparator::Start),
            ["a", "\n\nb", "\n\n", "\n\nc", "\n\n"]
        );
        assert_eq!(
            pieces(&sep, text, KeepSeparator::End),
            ["a\n\n", "b\n\n", "\n\n", "c\n\n"]
        );
    }

    #[test]
    fn chars_and_regex() {
        let chars = Separator::literal("");
        assert_eq!(
            pieces(&chars, "aé😀", KeepSeparator::Start),
            ["a", "é", "😀"]
        );
        let re = Separator::regex(r"\n#{1,6} ").unwrap();
        assert!(re.is_found("x\n## y"));
        assert_eq!(
            pieces(&re, "x\n## y\n# z", KeepSeparator::Start),
            ["x", "\n## y", "\n# z"]
        );
        assert_eq!(re.join_text(), r"\n#{1,6} ");
    }

    #[test]
    fn refuses_bad_and_empty_matching_patterns() {
        assert!(matches!(
            Separator::regex("("),
            Err(Error::InvalidRegex { .. })
        ));
        assert!(matches!(Separator::regex("x*"), Err(Error::EmptyMatch(_))));
        assert!(Separator::regex("").unwrap().is_chars());
    }

    const KEEPS: [KeepSeparator; 3] = [
        KeepSeparator::Drop,
        KeepSeparator::Start,
        KeepSeparator::End,
    ];

    fn small_text() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::string::string_regex("[ab \n.é😀]{0,30}").unwrap()
    }

    fn literal() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::string::string_regex("[ab \n.é😀]{1,3}").unwrap()
    }

    /// `LangChain`'s split on a literal, over `str::match_indices` (a different search).
    fn oracle<'a>(text: &'a str, sep: &str, keep: KeepSeparator) -> Vec<&'a str> {
        let mut cuts = vec![0];
        for (i, m) in text.match_indices(sep) {
            match keep {
                KeepSeparator::Drop => cuts.extend([i, i + m.len()]),
                KeepSeparator::Start => cuts.push(i),
                KeepSeparator::End => cuts.push(i + m.len()),
            }
        }
        cuts.push(text.len());
        let pieces = if keep == KeepSeparator::Drop {
            cuts.chunks(2)
                .map(|w| &text[w[0]..w[1]])
                .collect::<Vec<_>>()
        } else {
            cuts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
        };
        pieces.into_iter().filter(|p| !p.is_empty()).collect()
    }

    proptest::proptest! {
        #[test]
        fn literal_split_matches_oracle(text in small_text(), sep in literal(), k in 0usize..3) {
            let keep = KEEPS[k];
            let s = Separator::literal(&sep);
            proptest::prop_assert_eq!(pieces(&s, &text, keep), oracle(&text, &sep, keep));
            proptest::prop_assert_eq!(s.is_found(&text), text.contains(sep.as_str()));
        }

        #[test]
        fn kept_separators_cover_the_input_in_order(
            text in small_text(),
            pattern in proptest::sample::select(vec!["a+", "[. ]", "\\s+", "é|😀", "b.", ""]),
            k in 1usize..3,
            a in 0usize..40,
            b in 0usize..40,
        ) {
            let bounds: Vec<usize> =
                text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
            let (a, b) = (bounds[a % bounds.len()], bounds[b % bounds.len()]);
            let (start, end) = (a.min(b), a.max(b));
            let sep = Separator::regex(pattern).unwrap();
            let mut out = Vec::new();
            sep.split(&text, start, end, KEEPS[k], &mut out);
            let mut at = start;
            for &(x, y) in &out {
                proptest::prop_assert!(x == at && x < y, "gap or empty piece at {}", x);
                proptest::prop_assert!(text.is_char_boundary(x) && text.is_char_boundary(y));
                at = y;
            }
            proptest::prop_assert_eq!(at, end);
        }

        #[test]
        fn regex_compiles_or_errs_never_panics(pattern in "\\PC{0,12}") {
            if let Ok(sep) = Separator::regex(&pattern) {
                let mut out = Vec::new();
                sep.split("ab\ncd é😀 ", 0, 13, KeepSeparator::Start, &mut out);
            }
        }
    }
}
