//! How far back a separator's match can reach: what a stream must keep to find every
//! occurrence exactly as a search over the whole text would.
//!
//! - A literal of `n` bytes: any occurrence inside the buffer is real, and one crossing its
//!   end starts in the last `n - 1` bytes.
//! - A regex whose matches are at most `L` bytes long: a match found in the buffer is the
//!   whole-text match only if it starts `L` bytes or more before the buffer's end (a longer
//!   alternative with higher priority could need the bytes after it).
//! - An unbounded regex (`\n+`): no match contains a character outside the pattern's
//!   alphabet, so a buffer cut just before such a character splits no match, and a search
//!   up to there finds exactly the whole-text matches.
//! - A regex with look-around (`\b`, `^`, `$`): a match depends on context, so no cut is
//!   safe: the stream waits for the whole text.

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind};

/// What a separator needs to see; see the module comment.
#[derive(Debug, Clone)]
pub enum Rule {
    /// The empty separator: every character is a piece, final at once.
    Chars,
    /// A literal of this many bytes.
    Literal(usize),
    /// A regex whose matches are at most this many bytes long.
    Bounded(usize),
    /// An unbounded regex whose matches only hold characters of this class.
    Alphabet(ClassUnicode),
    /// Only the whole text answers.
    Whole,
}

impl Rule {
    /// The rule for a separator given as in `Splitter` (`pattern`, whether it is a regex).
    pub fn of(pattern: &str, is_regex: bool) -> Rule {
        if pattern.is_empty() {
            return Rule::Chars;
        }
        if !is_regex {
            return Rule::Literal(pattern.len());
        }
        let Ok(hir) = regex_syntax::Parser::new().parse(pattern) else {
            return Rule::Whole; // the splitter itself refuses such a pattern
        };
        let props = hir.properties();
        if !props.look_set().is_empty() {
            return Rule::Whole;
        }
        if let Some(max) = props.maximum_len() {
            return Rule::Bounded(max);
        }
        let mut class = ClassUnicode::empty();
        if alphabet(&hir, &mut class) {
            Rule::Alphabet(class)
        } else {
            Rule::Whole
        }
    }

    /// Where a search of `text[from..]` may stop: matches found before it (for
    /// [`Rule::Bounded`]: starting `margin` bytes before it) are those of the whole text.
    /// `None`: nothing is decided until the text ends.
    pub fn cut(&self, text: &str, from: usize) -> Option<usize> {
        match self {
            Rule::Chars | Rule::Literal(_) | Rule::Bounded(_) => Some(text.len()),
            Rule::Alphabet(class) => text[from..]
                .char_indices()
                .rev()
                .find(|&(_, c)| !contains(class, c))
                .map(|(i, _)| from + i),
            Rule::Whole => None,
        }
    }

    /// How many bytes before the cut a match must start to be final (see [`Rule::cut`]).
    pub fn margin(&self) -> usize {
        match self {
            Rule::Bounded(max) => *max,
            _ => 0,
        }
    }

    /// The bytes at the end of a searched window that a later match may still include
    /// (before rounding to a character boundary); `None`: all of it.
    pub fn carry(&self, text: &str) -> Option<usize> {
        match self {
            Rule::Chars => Some(0),
            Rule::Literal(n) | Rule::Bounded(n) => Some(n.saturating_sub(1)),
            Rule::Alphabet(_) => self.cut(text, 0).map(|cut| text.len() - cut),
            Rule::Whole => None,
        }
    }
}

/// Adds to `class` every character a match of `hir` can contain; `false` if that cannot be
/// told (byte classes outside Unicode mode).
fn alphabet(hir: &Hir, class: &mut ClassUnicode) -> bool {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => true,
        HirKind::Literal(lit) => match std::str::from_utf8(&lit.0) {
            Ok(s) => {
                let chars = s.chars().map(|c| ClassUnicodeRange::new(c, c));
                class.union(&ClassUnicode::new(chars));
                true
            }
            Err(_) => false,
        },
        HirKind::Class(Class::Unicode(c)) => {
            class.union(c);
            true
        }
        HirKind::Class(Class::Bytes(_)) => false,
        HirKind::Repetition(rep) => alphabet(&rep.sub, class),
        HirKind::Capture(cap) => alphabet(&cap.sub, class),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => {
            subs.iter().all(|sub| alphabet(sub, class))
        }
    }
}

fn contains(class: &ClassUnicode, c: char) -> bool {
    class
        .ranges()
        .binary_search_by(|r| {
            if r.end() < c {
                std::cmp::Ordering::Less
            } else if r.start() > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// The largest character boundary of `text` at or below `at`.
pub fn floor_char(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_by_pattern() {
        assert!(matches!(Rule::of("", false), Rule::Chars));
        assert!(matches!(Rule::of("\n\n", false), Rule::Literal(2)));
        assert!(matches!(Rule::of("[.!?] ", true), Rule::Bounded(2)));
        assert!(matches!(Rule::of("\\bthe", true), Rule::Whole));
        assert!(matches!(Rule::of("\\n+", true), Rule::Alphabet(_)));
    }

    #[test]
    fn alphabet_cut_lands_before_a_character_no_match_holds() {
        let rule = Rule::of("[.!?]+[ \\t\\n]+", true);
        let text = "One. Two!  \n";
        assert_eq!(rule.cut(text, 0), Some(text.find('w').unwrap() + 1));
        assert_eq!(rule.cut("...   ", 0), None);
        assert_eq!(rule.carry("ab. "), Some(3));
    }
}
