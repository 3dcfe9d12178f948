//! When a single period followed by a space ends an English (Latin-script) sentence.
//!
//! By then the scanner knows the period is followed by whitespace and then a character
//! that is not a lowercase letter (a lowercase word never starts a sentence). The word
//! before the period decides: titles and "e.g." never end one ("Dr. Smith"), references
//! such as "Fig." or "No." do not before a number ("Fig. 3"), a lone capital is an initial
//! ("J. R. R. Tolkien"), and a short number opening a line is a list marker ("1. Intro").
//! A period standing alone as a word ends one (tokenised text: "the Portable . Released"),
//! unless another end mark follows (a spaced ellipsis: ". . .").

use super::marks::{is_opener, is_upper, mark};
use crate::text::is_py_space;
use crate::units::Units;

/// Abbreviations that are never the last word of a sentence: titles before a name and
/// Latin abbreviations before an example (lowercase; compared without regard to ASCII case).
const TITLES: &[&str] = &[
    "mr", "mrs", "ms", "mx", "dr", "prof", "st", "mt", "rev", "hon", "gen", "col", "capt", "lt",
    "sgt", "cmdr", "adm", "gov", "sen", "rep", "pres", "supt", "messrs", "mme", "mlle", "fr",
    "e.g", "i.e", "cf", "viz", "vs", "al", "a.k.a",
];

/// Abbreviations that stand before a number: "Fig. 3", "No. 5", "pp. 10", "Jan. 1".
const NUMBERED: &[&str] = &[
    "no", "nos", "nr", "fig", "figs", "eq", "eqs", "vol", "vols", "p", "pp", "ch", "chap", "sec",
    "sect", "art", "para", "ref", "refs", "approx", "ca", "op", "ed", "pt", "pts", "jan", "feb",
    "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
];

/// Whether `word` is one of `list` (ASCII case ignored).
fn listed(list: &[&str], word: &[u8]) -> bool {
    list.iter().any(|a| a.as_bytes().eq_ignore_ascii_case(word))
}

/// No entry of either list is longer than this: longer words are never looked up.
const LONGEST: usize = 6;

/// Whether the single period at position `dot` of `text`, followed by whitespace and then
/// `next` (not a lowercase letter), ends the sentence.
pub fn period_ends<'a, T: Units<'a>>(text: T, dot: usize, next: char) -> bool {
    let start = word_start(text, dot);
    let mut from = start; // the word, opening quotes and brackets stripped
    while from < dot {
        let (c, n) = text.char_at(from);
        if !is_opener(c) {
            break;
        }
        from += n;
    }
    if from == dot {
        return mark(next).is_none(); // a period alone: tokenised text, or " . . ."
    }
    let (first, n) = text.char_at(from);
    if let Some((buf, len)) = short_ascii(text, from, dot) {
        let word = &buf[..len];
        if listed(TITLES, word) || (next.is_ascii_digit() && listed(NUMBERED, word)) {
            return false;
        }
        if len <= 3 && word.iter().all(u8::is_ascii_digit) && opens_line(text, start) {
            return false;
        }
    }
    let single = from + n == dot;
    !(single && is_upper(first))
}

/// `[from, to)` as ASCII bytes, if it is ASCII and at most [`LONGEST`] characters long
/// (non-ASCII words are in no list, and are no numbers).
fn short_ascii<'a, T: Units<'a>>(
    text: T,
    from: usize,
    to: usize,
) -> Option<([u8; LONGEST], usize)> {
    if to - from > LONGEST {
        return None; // more units than characters allowed (UTF-8 is at least one a character)
    }
    let (mut buf, mut len, mut at) = ([0; LONGEST], 0, from);
    while at < to {
        let (c, n) = text.char_at(at);
        buf[len] = u8::try_from(c).ok().filter(u8::is_ascii)?;
        (len, at) = (len + 1, at + n);
    }
    Some((buf, len))
}

/// Start of the run of non-whitespace characters that ends at position `end` (a
/// whitespace escape such as `\n` ends it too).
fn word_start<'a, T: Units<'a>>(text: T, end: usize) -> usize {
    let mut at = end;
    while at > 0 {
        let (c, n) = text.char_before(at);
        let escape = matches!(c, 'n' | 'r' | 't') && at > 1 && text.char_before(at - 1).0 == '\\';
        if is_py_space(c) || escape {
            break;
        }
        at -= n;
    }
    at
}

/// Whether only spaces and tabs (no line break) stand between the last line break (or the
/// start of the text) and position `at`; the escape `\n` is a line break too.
fn opens_line<'a, T: Units<'a>>(text: T, at: usize) -> bool {
    let mut at = at;
    while at > 0 {
        let (c, n) = text.char_before(at);
        if c == 'n' && at > 1 && text.char_before(at - 1).0 == '\\' {
            return true;
        }
        if c == '\n' || !is_py_space(c) {
            return c == '\n';
        }
        at -= n;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Utf8;

    #[track_caller]
    fn check(text: &str, next: char, expected: bool) {
        let dot = text.rfind('.').unwrap();
        assert_eq!(
            period_ends(Utf8(text), dot, next),
            expected,
            "{text:?} then {next:?}"
        );
    }

    #[test]
    fn words_before_the_period() {
        check("see Dr.", 'S', false);
        check("(e.g.", 'M', false);
        check("in Fig.", '3', false);
        check("in Fig.", 'T', true);
        check("no more etc.", 'T', true);
        check("J.", 'R', false);
        check("plan b.", 'T', true);
        check("the end.", 'T', true);
        check("hello .", 'T', true);
        check("hello .", '.', false);
        check("a\\nDr.", 'S', false);
        check("  12.", 'I', false);
        check("x\n3.", 'I', false);
        check("x\\n3.", 'I', false);
        check("has 3.", 'T', true);
        check("1999.", 'T', true);
        check("«Mr.", 'S', false);
        check("DR.", 'S', false);
        check("Ünï.", 'S', true);
    }
}
