//! Code-point and UTF-8 byte offsets of positions, computed only where chunks begin and end.
//!
//! A chunk reports both offsets; of the two, one is the position itself (bytes for UTF-8
//! text, code points for the fixed widths) and the other is counted from the last position
//! asked for. Chunks come in order and overlap by a bounded amount, so the counting covers
//! the text about once (plus the overlaps) however many chunks there are.

use super::Units;

/// Converts positions to `(code points, UTF-8 bytes)`, walking from the last one asked for.
#[derive(Debug, Clone)]
pub struct Offsets<T> {
    text: T,
    at: usize,
    chars: usize,
    bytes: usize,
    /// Whether every unit walked over had a UTF-8 form (see [`Offsets::clean`]).
    clean: bool,
}

impl<'a, T: Units<'a>> Offsets<T> {
    /// A cursor at the start of `text`.
    pub fn new(text: T) -> Self {
        Self {
            text,
            at: 0,
            chars: 0,
            bytes: 0,
            clean: true,
        }
    }

    /// Whether every unit walked over so far has a UTF-8 form, so the byte offsets given
    /// are real: false once a lone surrogate (in a [`super::Fixed::lenient`] text) was passed.
    /// Splitting in keep-separator modes puts every non-space character in some chunk, so
    /// walking to each chunk's start and end checks the whole text.
    pub fn clean(&self) -> bool {
        self.clean
    }

    /// `(code-point offset, UTF-8 byte offset)` of position `at` (a character boundary).
    pub fn of(&mut self, at: usize) -> (usize, usize) {
        let text = self.text;
        let (from, to) = (self.at.min(at), self.at.max(at));
        let (chars, bytes) = (text.chars(from, to), text.utf8_len(from, to));
        self.clean &= bytes.is_some();
        let bytes = bytes.unwrap_or(0);
        if at >= self.at {
            self.chars += chars;
            self.bytes += bytes;
        } else {
            self.chars -= chars;
            // Saturating: after a lone surrogate the byte offsets are meaningless anyway.
            self.bytes = self.bytes.saturating_sub(bytes);
        }
        self.at = at;
        (self.chars, self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::ucs2;
    use super::super::{Fixed, Utf8};
    use super::*;

    proptest::proptest! {
        #[test]
        fn offsets_in_any_order(
            s in "[a \u{e9}漢😀]{0,20}",
            picks in proptest::collection::vec(0usize..64, 0..12),
        ) {
            let bounds: Vec<(usize, usize)> = s
                .char_indices()
                .enumerate()
                .map(|(c, (b, _))| (c, b))
                .chain([(s.chars().count(), s.len())])
                .collect();
            let mut utf8 = Offsets::new(Utf8(&s));
            for &p in &picks {
                let (c, b) = bounds[p % bounds.len()];
                proptest::prop_assert_eq!(utf8.of(b), (c, b));
            }
            if let Some(units) = ucs2(&s) {
                let mut fixed = Offsets::new(Fixed::new(&units[..]).unwrap());
                for &p in &picks {
                    let (c, b) = bounds[p % bounds.len()];
                    proptest::prop_assert_eq!(fixed.of(c), (c, b));
                }
                proptest::prop_assert!(fixed.clean());
            }
        }

        #[test]
        fn a_lone_surrogate_walked_over_is_noticed(
            len in 1usize..40,
            at in 0usize..40,
            picks in proptest::collection::vec(0usize..41, 1..8),
        ) {
            let at = at % len;
            let mut units = vec![0x61u16; len];
            units[at] = 0xDC00;
            let mut offsets = Offsets::new(Fixed::lenient(&units[..]));
            let mut passed = false;
            let mut last = 0;
            for &p in &picks {
                let p = p % (len + 1);
                offsets.of(p);
                passed |= last.min(p) <= at && at < last.max(p);
                last = p;
            }
            proptest::prop_assert_eq!(offsets.clean(), !passed);
        }
    }
}
