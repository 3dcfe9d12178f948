//! Separator scanning: where a separator occurs in a range of text, and the pieces it cuts.
//!
//! Works on any [`Units`] (UTF-8, or CPython's Latin-1/UCS-2/UCS-4 storage). Literal
//! separators use memchr's SIMD substring search on the storage bytes, with one needle per
//! storage ([`super::literal`]); patterns use the `regex` crate, whose leftmost-first
//! semantics give the same match spans as Python's backtracking `re` for the syntax both
//! share (the Python layer translates Python patterns into that shared subset and keeps the
//! rest on Python's own engine). The `regex` crate reads UTF-8, so a fixed-width range that
//! is not ASCII is matched on a UTF-8 copy of that range only.

use regex::Regex;

use super::literal::Literal;
use crate::error::{Error, Result};
use crate::units::{Storage, Units, Utf8};

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
    /// One search per [`Storage`] (by its index), `None` where the literal cannot occur.
    Literal(Box<[Option<Literal>; 4]>),
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
            Matcher::Literal(Box::new(
                Storage::ALL.map(|storage| Literal::new(storage, text)),
            ))
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

    /// Whether this is a regular expression (which reads text as UTF-8).
    pub fn is_regex(&self) -> bool {
        matches!(self.matcher, Matcher::Regex(_))
    }

    /// Whether the separator occurs in `hay` (Python's `re.search`); the empty separator
    /// always "occurs".
    pub fn is_found(&self, hay: &str) -> bool {
        self.occurs(Utf8(hay), 0, hay.len())
    }

    /// Whether the separator occurs in `[a, b)` of `text` (the empty separator always does).
    pub fn occurs<'a, T: Units<'a>>(&self, text: T, a: usize, b: usize) -> bool {
        match &self.matcher {
            Matcher::Chars => true,
            Matcher::Literal(finders) => finders[T::STORAGE.index()]
                .as_ref()
                .is_some_and(|f| aligned(f, text.bytes(a, b), 0, T::STORAGE.shift()).is_some()),
            Matcher::Regex(r) => {
                let mut copy = String::new();
                r.is_match(text.utf8_in(a, b, &mut copy))
            }
        }
    }

    /// Every match in `[a, b)` of `text`, as positions, left to right, non-overlapping.
    fn matches<'s, 'a, T: Units<'a>>(&'s self, text: T, a: usize, b: usize) -> Matches<'s, 'a> {
        match &self.matcher {
            Matcher::Chars => Matches::Nothing,
            Matcher::Literal(finders) => match &finders[T::STORAGE.index()] {
                Some(finder) => Matches::Literal {
                    finder,
                    hay: text.bytes(a, b),
                    at: 0,
                    base: a,
                    shift: T::STORAGE.shift(),
                },
                None => Matches::Nothing,
            },
            Matcher::Regex(r) => match text.as_str(a, b) {
                Some(hay) => Matches::Regex {
                    iter: r.find_iter(hay),
                    base: a,
                },
                None => Matches::Listed(regex_on_copy(r, text, a, b).into_iter()),
            },
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
        out.extend(self.pieces(Utf8(text), start, end, keep));
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
        for (a, b) in self.pieces(Utf8(text), start, end, keep) {
            f(a, b);
        }
    }

    /// The pieces of `[a, b)` of `text` (positions, in order, empty ones dropped), as
    /// LangChain's `_split_text_with_regex` makes them; nothing is collected.
    pub fn pieces<'s, 'a, T: Units<'a>>(
        &'s self,
        text: T,
        a: usize,
        b: usize,
        keep: KeepSeparator,
    ) -> Pieces<'s, 'a, T> {
        if self.is_chars() {
            // `list(text)`: the separator is nothing, so every mode gives single characters.
            return Pieces(PiecesOf::Chars {
                text,
                at: a,
                end: b,
            });
        }
        Pieces(PiecesOf::Split {
            matches: self.matches(text, a, b),
            keep,
            last: a,
            end: b,
        })
    }
}

/// The first occurrence of `finder`'s needle in `hay` at or after byte `from` that starts
/// on a unit boundary (`1 << shift` bytes per unit): in UCS-2 and UCS-4 text the needle's
/// bytes may also appear straddling two units, which is no match. (Shifts, not `%` and `/`
/// by the width: three divisions per match were about 4 % of a split of Chinese text.)
#[inline]
fn aligned(finder: &Literal, hay: &[u8], from: usize, shift: u32) -> Option<usize> {
    let mut at = from;
    let misaligned = (1 << shift) - 1;
    loop {
        let i = at + finder.find(&hay[at..])?;
        if i & misaligned == 0 {
            return Some(i);
        }
        at = i + 1;
    }
}

/// Matches of `r` in `[a, b)` of a text that is not UTF-8 there: the regex runs on a
/// UTF-8 copy of just that range, and match offsets are mapped back to positions by
/// counting code points from the previous match (fixed-width positions are code points).
fn regex_on_copy<'a, T: Units<'a>>(r: &Regex, text: T, a: usize, b: usize) -> Vec<(usize, usize)> {
    debug_assert!(T::FIXED, "UTF-8 text is searched in place");
    let mut hay = String::new();
    text.push_utf8(a, b, &mut hay);
    let (mut byte, mut at) = (0, a);
    let mut position = |offset: usize| {
        at += crate::text::char_count(&hay[byte..offset]);
        byte = offset;
        at
    };
    let mut out = Vec::new();
    for m in r.find_iter(&hay) {
        let start = position(m.start());
        out.push((start, position(m.end())));
    }
    out
}

/// The matches of one separator in one range (see [`Separator::pieces`]).
enum Matches<'s, 'a> {
    Literal {
        finder: &'s Literal,
        hay: &'a [u8],
        /// Byte offset in `hay` to search from.
        at: usize,
        /// Position of `hay[0]`.
        base: usize,
        /// Bytes per unit, as a power of two.
        shift: u32,
    },
    Regex {
        iter: regex::Matches<'s, 'a>,
        base: usize,
    },
    Listed(std::vec::IntoIter<(usize, usize)>),
    Nothing,
}

impl Iterator for Matches<'_, '_> {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        match self {
            Self::Literal {
                finder,
                hay,
                at,
                base,
                shift,
            } => {
                let i = aligned(finder, hay, *at, *shift)?;
                let n = finder.needle().len();
                *at = i + n;
                Some((*base + (i >> *shift), *base + ((i + n) >> *shift)))
            }
            Self::Regex { iter, base } => iter.next().map(|m| (*base + m.start(), *base + m.end())),
            Self::Listed(list) => list.next(),
            Self::Nothing => None,
        }
    }
}

/// The pieces of a range, as [`Separator::pieces`] describes them.
pub struct Pieces<'s, 'a, T>(PiecesOf<'s, 'a, T>);

enum PiecesOf<'s, 'a, T> {
    /// One piece per character.
    Chars { text: T, at: usize, end: usize },
    /// The text between (and, when kept, with) the matches.
    Split {
        matches: Matches<'s, 'a>,
        keep: KeepSeparator,
        /// Where the next piece starts.
        last: usize,
        /// The end of the range; `usize::MAX` once the last piece was given.
        end: usize,
    },
}

impl<'a, T: Units<'a>> Iterator for Pieces<'_, 'a, T> {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        match &mut self.0 {
            PiecesOf::Chars { text, at, end } => {
                if *at >= *end {
                    return None;
                }
                let start = *at;
                *at += text.char_at(start).1;
                Some((start, *at))
            }
            PiecesOf::Split {
                matches,
                keep,
                last,
                end,
            } => loop {
                let Some((a, b)) = matches.next() else {
                    let (from, to) = (*last, *end);
                    *last = usize::MAX;
                    return (from < to).then_some((from, to));
                };
                let (from, to, next) = match keep {
                    KeepSeparator::Drop => (*last, a, b),
                    KeepSeparator::Start => (*last, a, a),
                    KeepSeparator::End => (*last, b, b),
                };
                *last = next;
                if from < to {
                    return Some((from, to));
                }
            },
        }
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
