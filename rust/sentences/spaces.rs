//! What the rules read as the space after a sentence: whitespace, the escapes that stand
//! for it in text stored as JSON (`\n`, `\r`, `\t`: chat logs kept as one line of JSON
//! hold their line breaks that way), and where a line opens a list item.

use crate::text::is_py_space;
use crate::units::Units;

/// The escape at `i` if it stands for whitespace (`\n`, `\r`, `\t`): its length in units
/// and whether it is a line break. A backslash and an ASCII letter are one unit each in
/// every storage.
#[inline]
pub fn escape_at<'a, T: Units<'a>>(text: T, i: usize) -> Option<(usize, bool)> {
    if i + 1 >= text.len() || text.char_at(i).0 != '\\' {
        return None;
    }
    match text.char_at(i + 1).0 {
        'n' => Some((2, true)),
        'r' | 't' => Some((2, false)),
        _ => None,
    }
}

/// The whitespace character or escape at `i`: its length and whether it breaks a line.
#[inline]
pub fn space_at<'a, T: Units<'a>>(text: T, i: usize) -> Option<(usize, bool)> {
    let (c, n) = text.char_at(i);
    if is_py_space(c) {
        Some((n, c == '\n'))
    } else {
        escape_at(text, i)
    }
}

/// The run of whitespace and whitespace escapes starting at `from`: where it ends and how
/// many line breaks it holds.
pub fn whitespace<'a, T: Units<'a>>(text: T, from: usize) -> (usize, usize) {
    let (mut end, mut breaks) = (from, 0);
    while end < text.len() {
        let Some((n, line)) = space_at(text, end) else {
            break;
        };
        end += n;
        breaks += usize::from(line);
    }
    (end, breaks)
}

/// Bullets that open a list item in plain text (`-`, `*`, `+` and the typographic ones).
fn is_bullet(c: char) -> bool {
    matches!(
        c,
        '-' | '*' | '+' | '\u{2022}' | '\u{2023}' | '\u{25E6}' | '\u{25AA}' | '\u{25CF}'
    )
}

/// Whether a list item starts at `at` (where a line's text begins): a bullet, or one to
/// three digits and `.` or `)`, then a space or tab.
pub fn list_marker<'a, T: Units<'a>>(text: T, at: usize) -> bool {
    let mut i = at;
    let mut digits = 0;
    while i < text.len() {
        let (c, n) = text.char_at(i);
        if c.is_ascii_digit() && digits < 3 {
            (digits, i) = (digits + 1, i + n);
            continue;
        }
        let marker = if digits > 0 {
            matches!(c, '.' | ')')
        } else {
            is_bullet(c)
        };
        if !marker || i + n >= text.len() {
            return false;
        }
        return matches!(text.char_at(i + n).0, ' ' | '\t');
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Utf8;

    #[test]
    fn escapes_and_markers() {
        assert_eq!(escape_at(Utf8("\\nX"), 0), Some((2, true)));
        assert_eq!(escape_at(Utf8("\\tX"), 0), Some((2, false)));
        assert_eq!(escape_at(Utf8("\\\"X"), 0), None);
        assert_eq!(escape_at(Utf8("\\"), 0), None);
        assert_eq!(whitespace(Utf8(". \\n\\n x"), 1), (7, 2));
        for yes in ["- a", "* a", "• a", "1. a", "12) a", "3.\ta"] {
            assert!(list_marker(Utf8(yes), 0), "{yes:?}");
        }
        for no in ["-a", "1.5 a", "1234. a", "a. b", "-", "1.", "—  a"] {
            assert!(!list_marker(Utf8(no), 0), "{no:?}");
        }
    }
}
