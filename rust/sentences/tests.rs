//! The hand-written cases (shared with the Python tests) and properties of the scan.

use super::*;
use crate::text::strip_range;
use crate::units::tests::{latin1, ucs2, ucs4};
use crate::units::{Fixed, Unit, Utf8};
use proptest::prelude::*;

/// `tests/data/sentences.json`: texts and their sentences, each written by hand from the
/// rules in `mod.rs` (the Python tests check the same table against both engines).
const CASES: &str = include_str!("../../tests/data/sentences.json");

fn pieces(text: &str) -> Vec<&str> {
    let mut start = 0;
    sentence_ends(text)
        .into_iter()
        .map(|end| {
            let piece = &text[start..end];
            start = end;
            piece
        })
        .collect()
}

#[test]
fn hand_written_cases() {
    let cases: Vec<serde_json::Value> = serde_json::from_str(CASES).unwrap();
    assert!(cases.len() >= 50);
    for case in cases {
        let text = case["text"].as_str().unwrap();
        let expected: Vec<&str> = case["sentences"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(pieces(text), expected, "case {}", case["name"]);
        in_every_storage(text);
    }
}

#[test]
fn offsets_in_code_points_and_bytes() {
    let text = "Ünïcode héré. 漢字。Done";
    let got = sentences(text);
    let spans: Vec<(usize, usize, usize, usize)> = got
        .iter()
        .map(|s| (s.start, s.end, s.byte_start, s.byte_end))
        .collect();
    // "Ünïcode héré. " is 14 code points, 18 bytes; "漢字。" 3 and 9.
    assert_eq!(spans, [(0, 14, 0, 18), (14, 17, 18, 27), (17, 21, 27, 31)]);
}

#[test]
fn seams_inside_a_span_see_only_the_span() {
    let text = "Before. Dr. Who? Yes. After.";
    // "Dr. Who? Yes." is bytes 8..21: "Dr." does not end, "Who?" does.
    assert_eq!(sentence_ends_in(text, 8, 21), [17, 21]);
    assert_eq!(sentence_ends_in(text, 8, 8), Vec::<usize>::new());
}

/// The UTF-8 scan's ends as code-point indexes.
fn char_ends(text: &str) -> Vec<usize> {
    let mut cursor = CharCursor::new(text, text.is_ascii());
    sentence_ends(text)
        .into_iter()
        .map(|b| cursor.char_offset(b))
        .collect()
}

/// The scan of `units` (the text in a fixed width) as code-point ends.
fn fixed_ends<'a, U: Unit>(units: &'a [U]) -> Vec<usize>
where
    Fixed<'a, U>: Scan<'a>,
{
    sentence_ends_of(Fixed::new(units).unwrap())
}

/// Checks the scan of `text` in each fixed width that holds it against the UTF-8 scan;
/// returns in how many widths (the hand-written cases are checked in all three).
fn in_every_storage(text: &str) -> usize {
    let want = char_ends(text);
    let mut widths = 1;
    assert_eq!(fixed_ends(&ucs4(text)), want, "UCS-4 {text:?}");
    if let Some(units) = ucs2(text) {
        assert_eq!(fixed_ends(&units), want, "UCS-2 {text:?}");
        widths += 1;
    }
    if let Some(units) = latin1(text) {
        assert_eq!(fixed_ends(&units), want, "Latin-1 {text:?}");
        widths += 1;
    }
    widths
}

#[test]
fn every_storage_of_a_case_table_text() {
    // Texts of the case table that hold only characters of narrower widths are checked
    // there; these are widened by one character, so that every width is exercised.
    for (text, widths) in [
        ("Dr. Smith ¿Qué? Sí. Fin\u{85}Ja. E.g. x", 3),
        ("Mr. Li said 你好。Then “Go!” he said… Next", 2),
        ("😀 Really?! Yes. No.\n\nNew 漢字。Next", 1),
    ] {
        assert_eq!(in_every_storage(text), widths, "{text:?}");
    }
}

fn text_strategy() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        "(?s)([a-zA-Z0-9 ]|[.?!…。！？；｡．\"')」』”’（(]|[\n\r\t\u{3000}]|Dr|e\\.g|[漢字かな한é😀]|.){0,60}",
    )
    .unwrap()
}

/// Latin-1 text: English rules, Latin-1 spaces (U+0085, U+00A0) and letters whose
/// bytes are UTF-8 lead bytes of end marks elsewhere (â ã ï).
fn latin1_strategy() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        "([a-zA-Z0-9 ]|[.?!\"')(«»¿¡]|[\n\r\t\u{85}\u{a0}]|Dr|e\\.g|Fig|1\\.|[éÉâãïÿ\u{80}-\u{ff}]){0,60}",
    )
    .unwrap()
}

proptest! {
    #[test]
    fn sentences_cover_the_text(text in text_strategy()) {
        let ends = sentence_ends(&text);
        let mut prev = 0;
        for &end in &ends {
            prop_assert!(end > prev && text.is_char_boundary(end));
            prev = end;
        }
        prop_assert_eq!(prev, text.len());
        let spans = sentences(&text);
        let chars: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        for s in &spans {
            prop_assert_eq!(chars[s.start], s.byte_start);
            prop_assert_eq!(chars[s.end], s.byte_end);
        }
    }

    #[test]
    fn every_storage_scans_alike(text in text_strategy()) {
        let want = char_ends(&text);
        prop_assert_eq!(fixed_ends(&ucs4(&text)), want.clone());
        if let Some(units) = ucs2(&text) {
            prop_assert_eq!(fixed_ends(&units), want.clone());
        }
        if let Some(units) = latin1(&text) {
            prop_assert_eq!(fixed_ends(&units), want);
        }
    }

    #[test]
    fn latin1_scans_like_utf8(text in latin1_strategy()) {
        let units = latin1(&text).unwrap();
        prop_assert_eq!(fixed_ends(&units), char_ends(&text));
        let wide = ucs2(&text).unwrap();
        prop_assert_eq!(fixed_ends(&wide), char_ends(&text));
    }

    #[test]
    fn strip_is_python_strip_in_every_storage(text in text_strategy(), a in 0usize..80, b in 0usize..80) {
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let (a, b) = (a % bounds.len(), b % bounds.len());
        let (a, b) = (a.min(b), a.max(b));
        let (x, y) = strip_range(&text, bounds[a], bounds[b]);
        prop_assert_eq!(strip_span(Utf8(&text), bounds[a], bounds[b]), (x, y));
        let units = ucs4(&text);
        let (cx, cy) = strip_span(Fixed::new(&units[..]).unwrap(), a, b);
        prop_assert_eq!((bounds[cx], bounds[cy]), (x, y));
    }

    #[test]
    fn a_span_is_scanned_like_a_text(text in text_strategy(), a in 0usize..80, b in 0usize..80) {
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let (a, b) = (bounds[a % bounds.len()], bounds[b % bounds.len()]);
        let (start, end) = (a.min(b), a.max(b));
        let inner: Vec<usize> = sentence_ends(&text[start..end]).iter().map(|e| e + start).collect();
        prop_assert_eq!(sentence_ends_in(&text, start, end), inner);
    }
}
