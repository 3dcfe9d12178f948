//! Code-point and UTF-8 byte offsets of positions, computed only where chunks begin and end.
//!
//! A chunk reports both offsets; of the two, one is the position itself (bytes for UTF-8
//! text, code points for the fixed widths) and the other is counted from the last position
//! asked for. Chunks come in order and overlap by a bounded amount, so the counting covers
//! the text about once (plus the overlaps) however many chunks there are.

use super::Units;

/// A position with its offsets.
#[derive(Debug, Clone, Copy, Default)]
struct Point {
    at: usize,
    chars: usize,
    bytes: usize,
}

/// Converts positions to `(code points, UTF-8 bytes)`, walking from the nearer of two
/// positions known already: the last one asked for and the furthest one. A chunk's start
/// is reached back from the previous chunk's end (over the overlap), and its end forward
/// from that same previous end, not from its start: the text is walked about once plus
/// the overlaps, not once plus twice the overlaps.
#[derive(Debug, Clone)]
pub struct Offsets<T> {
    text: T,
    last: Point,
    far: Point,
    /// Whether every unit walked over had a UTF-8 form (see [`Offsets::clean`]).
    clean: bool,
}

impl<'a, T: Units<'a>> Offsets<T> {
    /// A cursor at the start of `text`.
    pub fn new(text: T) -> Self {
        Self {
            text,
            last: Point::default(),
            far: Point::default(),
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
        let from = if at.abs_diff(self.far.at) < at.abs_diff(self.last.at) {
            self.far
        } else {
            self.last
        };
        let point = self.walk(from, at);
        self.last = point;
        if point.at >= self.far.at {
            self.far = point;
        }
        (point.chars, point.bytes)
    }

    /// The UTF-8 `(start, end)` of each span. Spans in text order (starts and ends each
    /// non-decreasing, as a splitter's chunks are) are answered by one forward walk over
    /// the starts and ends merged, which reads the text once instead of once plus the
    /// overlaps (a chunk's start lies back inside the previous chunk); others one by one.
    pub fn of_spans(&mut self, spans: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let ordered = spans
            .windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1);
        if !ordered {
            return spans
                .iter()
                .map(|&(a, b)| (self.of(a).1, self.of(b).1))
                .collect();
        }
        let mut out = vec![(0, 0); spans.len()];
        // `i`: the next start to place, `j`: the next end; a span's start comes before its end.
        let (mut i, mut j) = (0, 0);
        while j < spans.len() {
            if i < spans.len() && spans[i].0 <= spans[j].1 {
                out[i].0 = self.of(spans[i].0).1;
                i += 1;
            } else {
                out[j].1 = self.of(spans[j].1).1;
                j += 1;
            }
        }
        out
    }

    /// The offsets of `at`, counted from `from`.
    fn walk(&mut self, from: Point, at: usize) -> Point {
        let text = self.text;
        let (a, b) = (from.at.min(at), from.at.max(at));
        let (chars, bytes) = (text.chars(a, b), text.utf8_len(a, b));
        self.clean &= bytes.is_some();
        let bytes = bytes.unwrap_or(0);
        if at >= from.at {
            Point {
                at,
                chars: from.chars + chars,
                bytes: from.bytes + bytes,
            }
        } else {
            Point {
                at,
                chars: from.chars - chars,
                // Saturating: after a lone surrogate the byte offsets are meaningless anyway.
                bytes: from.bytes.saturating_sub(bytes),
            }
        }
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
        fn spans_at_once_as_one_by_one(
            s in "[a \u{e9}漢😀]{0,30}",
            cuts in proptest::collection::vec((0usize..64, 0usize..64), 0..10),
            sort in proptest::bool::ANY,
        ) {
            let units: Vec<u32> = s.chars().map(u32::from).collect();
            let text = Fixed::new(&units[..]).unwrap();
            let n = units.len() + 1;
            let mut spans: Vec<(usize, usize)> = cuts
                .iter()
                .map(|&(a, b)| ((a % n).min(b % n), (a % n).max(b % n)))
                .collect();
            if sort {
                // Text order, as chunks come: starts sorted, ends sorted (pairs re-made).
                let (mut starts, mut ends): (Vec<_>, Vec<_>) = spans.iter().copied().unzip();
                starts.sort_unstable();
                ends.sort_unstable();
                spans = starts.into_iter().zip(ends).collect();
            }
            let mut one = Offsets::new(text);
            let want: Vec<_> = spans.iter().map(|&(a, b)| (one.of(a).1, one.of(b).1)).collect();
            proptest::prop_assert_eq!(Offsets::new(text).of_spans(&spans), want);
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
            // Every walk starts at a position known already, so the units walked over are
            // always those before the furthest position asked for.
            let mut furthest = 0;
            for &p in &picks {
                let p = p % (len + 1);
                offsets.of(p);
                furthest = furthest.max(p);
            }
            proptest::prop_assert_eq!(offsets.clean(), at >= furthest);
        }
    }
}
