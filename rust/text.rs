//! Text primitives with Python's semantics: `str.isspace`, `str.strip` and code-point
//! counting, so that offsets and stripping agree with the Python side exactly.

/// Python's `str.isspace`: Rust's `char::is_whitespace` plus the ASCII information
/// separators U+001C..=U+001F, which Python counts as whitespace and Unicode does not.
#[inline]
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The byte range of `s[range]` left after Python's `str.strip()`.
pub fn strip_range(s: &str, start: usize, end: usize) -> (usize, usize) {
    let piece = &s[start..end];
    let trimmed_start = piece.trim_start_matches(is_py_space);
    let lead = piece.len() - trimmed_start.len();
    let trimmed = trimmed_start.trim_end_matches(is_py_space);
    (start + lead, start + lead + trimmed.len())
}

/// Number of code points in `s` (Python's `len`). `str::chars().count()` is the standard
/// library's word-at-a-time counter, several times faster than a byte loop.
#[inline]
pub fn char_count(s: &str) -> usize {
    s.chars().count()
}

/// Converts byte offsets to code-point offsets by walking from the last position asked
/// for, so a sequence of nearby, mostly increasing offsets costs O(text) in total.
#[derive(Debug, Clone)]
pub struct CharCursor<'a> {
    text: &'a str,
    ascii: bool,
    byte: usize,
    chars: usize,
}

impl<'a> CharCursor<'a> {
    /// A cursor at the start of `text`; `ascii` short-cuts every conversion to identity.
    pub fn new(text: &'a str, ascii: bool) -> Self {
        Self {
            text,
            ascii,
            byte: 0,
            chars: 0,
        }
    }

    /// The code-point offset of byte offset `byte` (which must be a char boundary).
    pub fn char_offset(&mut self, byte: usize) -> usize {
        if self.ascii {
            return byte;
        }
        if byte >= self.byte {
            self.chars += char_count(&self.text[self.byte..byte]);
        } else {
            self.chars -= char_count(&self.text[byte..self.byte]);
        }
        self.byte = byte;
        self.chars
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_space_set_includes_information_separators() {
        for c in [
            '\u{1c}', '\u{1d}', '\u{1e}', '\u{1f}', ' ', '\u{3000}', '\u{85}',
        ] {
            assert!(is_py_space(c), "{c:?}");
        }
        for c in ['a', '\u{200b}', '\u{feff}', '\u{180e}'] {
            assert!(!is_py_space(c), "{c:?}");
        }
    }

    #[test]
    fn strip_keeps_inner_text() {
        let s = "\u{1f} héllo \u{3000}";
        let (a, b) = strip_range(s, 0, s.len());
        assert_eq!(&s[a..b], "héllo");
        assert_eq!(strip_range("   ", 0, 3).0, strip_range("   ", 0, 3).1);
    }

    #[test]
    fn cursor_moves_both_ways() {
        let s = "aé漢😀b";
        let mut c = CharCursor::new(s, false);
        let bytes: Vec<usize> = s.char_indices().map(|(i, _)| i).collect();
        for (ci, &b) in bytes.iter().enumerate().rev() {
            assert_eq!(c.char_offset(b), ci);
        }
        for (ci, &b) in bytes.iter().enumerate() {
            assert_eq!(c.char_offset(b), ci);
        }
        assert_eq!(char_count(s), 5);
    }
}
