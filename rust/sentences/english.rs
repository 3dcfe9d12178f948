//! When a single period followed by a space ends an English (Latin-script) sentence.
//!
//! By then the scanner knows the period is followed by whitespace and then a character
//! that is not a lowercase letter (a lowercase word never starts a sentence). The word
//! before the period decides: titles and "e.g." never end one ("Dr. Smith"), references
//! such as "Fig." or "No." do not before a number ("Fig. 3"), a lone capital is an initial
//! ("J. R. R. Tolkien"), and a short number opening a line is a list marker ("1. Intro").

use super::marks::{is_opener, is_upper};
use crate::text::is_py_space;

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

/// Whether `word` is one of `list` (ASCII case ignored; non-ASCII words never are).
fn listed(list: &[&str], word: &str) -> bool {
    // No entry is longer than six bytes: most words are rejected before the list is read.
    word.len() <= 6 && list.iter().any(|a| a.eq_ignore_ascii_case(word))
}

/// Whether the single period at byte `dot` of `text`, followed by whitespace and then
/// `next` (not a lowercase letter), ends the sentence.
pub fn period_ends(text: &str, dot: usize, next: char) -> bool {
    let start = word_start(text, dot);
    let word = text[start..dot].trim_start_matches(is_opener);
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return false; // a period after a space or an opening bracket: " . . ."
    };
    if listed(TITLES, word) || (next.is_ascii_digit() && listed(NUMBERED, word)) {
        return false;
    }
    let single = chars.next().is_none();
    if single && is_upper(first) {
        return false;
    }
    !(word.len() <= 3 && word.bytes().all(|b| b.is_ascii_digit()) && opens_line(text, start))
}

/// Start of the run of non-whitespace characters that ends at byte `end`.
fn word_start(text: &str, end: usize) -> usize {
    text[..end]
        .char_indices()
        .rev()
        .find(|&(_, c)| is_py_space(c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// Whether only spaces and tabs (no line break) stand between the last line break (or the
/// start of the text) and byte `at`.
fn opens_line(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .rev()
        .find(|&c| c == '\n' || !is_py_space(c))
        .map_or(true, |c| c == '\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(text: &str, next: char, expected: bool) {
        let dot = text.rfind('.').unwrap();
        assert_eq!(
            period_ends(text, dot, next),
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
        check("hello .", 'T', false);
        check("  12.", 'I', false);
        check("x\n3.", 'I', false);
        check("has 3.", 'T', true);
        check("1999.", 'T', true);
        check("«Mr.", 'S', false);
        check("DR.", 'S', false);
        check("Ünï.", 'S', true);
    }
}
