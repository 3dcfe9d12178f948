//! The hand-written cases (shared with the Python tests) and properties of the scan.

use super::*;
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

fn text_strategy() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        "(?s)([a-zA-Z0-9 ]|[.?!…。！？；｡．\"')」』”’（(]|[\n\r\t\u{3000}]|Dr|e\\.g|[漢字かな한é😀]|.){0,60}",
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
    fn a_span_is_scanned_like_a_text(text in text_strategy(), a in 0usize..80, b in 0usize..80) {
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let (a, b) = (bounds[a % bounds.len()], bounds[b % bounds.len()]);
        let (start, end) = (a.min(b), a.max(b));
        let inner: Vec<usize> = sentence_ends(&text[start..end]).iter().map(|e| e + start).collect();
        prop_assert_eq!(sentence_ends_in(&text, start, end), inner);
    }
}
