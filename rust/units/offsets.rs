//! Code-point and UTF-8 byte offsets of positions, computed only where chunks begin and end.
//!
//! A chunk reports both offsets; of the two, one is the position itself (bytes for UTF-8
//! text, code points for the fixed widths) and the other is counted from the last position
//! asked for. Chunks come in order and overlap by a bounded amount, so the counting covers
//! the text about once (plus the overlaps) however many chunks there are.

use super::fixed::{Scan, Unit};
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

/// What [`span_facts`] finds of one span.
#[cfg_attr(not(feature = "python"), allow(dead_code))] // the binding's only user
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpanFacts {
    /// UTF-8 byte offsets of the span's start and end.
    pub bytes: (usize, usize),
    /// The OR of the span's units (see [`Scan::widest`]): the kind of `str` that holds it.
    pub widest: u32,
}

/// The UTF-8 offsets and widest unit of each of `spans` (`(start, end)` positions in
/// `units`, in any order), and whether every unit up to the last end had a UTF-8 form.
///
/// One pass over the text instead of one per span: the positions where spans begin and end
/// cut `[0, last end)` into runs, each scanned once ([`Scan`]); a span's byte offsets are
/// then sums of run lengths and its widest unit the OR of its runs'. Chunks that overlap
/// by a fifth are walked once, not 1.25 times for their offsets and again for their kinds.
#[cfg_attr(not(feature = "python"), allow(dead_code))] // the binding's only user
pub fn span_facts<U: Unit, I>(units: &[U], spans: I) -> (Vec<SpanFacts>, bool)
where
    I: IntoIterator<Item = (usize, usize)>,
    I::IntoIter: Clone + ExactSizeIterator,
{
    let spans = spans.into_iter();
    let mut cuts = Vec::with_capacity(2 * spans.len() + 1);
    cuts.push(0);
    for (start, end) in spans.clone() {
        cuts.extend([start, end]);
    }
    cuts.sort_unstable();
    cuts.dedup();
    // `bytes[k]`: the UTF-8 offset of `cuts[k]`; `widest[k]`: the OR of `cuts[k]..cuts[k + 1]`.
    let mut bytes = Vec::with_capacity(cuts.len());
    let mut widest = Vec::with_capacity(cuts.len());
    let mut scan = Scan::default();
    bytes.push(0);
    for run in cuts.windows(2) {
        scan.widest = 0;
        scan.add(&units[run[0]..run[1]]);
        bytes.push(scan.utf8);
        widest.push(scan.widest);
    }
    // Every start and end is a cut, so the search always finds it.
    let at = |p: usize| cuts.binary_search(&p).unwrap_or(0);
    let facts = spans
        .map(|(start, end)| {
            let (a, b) = (at(start), at(end));
            SpanFacts {
                bytes: (bytes[a], bytes[b]),
                widest: widest[a..b.max(a)].iter().fold(0, |acc, &w| acc | w),
            }
        })
        .collect();
    (facts, scan.clean)
}

#[cfg(test)]
mod tests {
    use super::super::tests::ucs2;
    use super::super::{Fixed, Utf8};
    use super::*;

    /// [`span_facts`] on `units` agrees with `s` (the same text) for every span in `picks`.
    fn facts_agree<U: Unit>(
        s: &str,
        units: &[U],
        spans: &[(usize, usize)],
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let chars: Vec<char> = s.chars().collect();
        let byte_at = |c: usize| chars[..c].iter().map(|ch| ch.len_utf8()).sum::<usize>();
        let (facts, clean) = span_facts(units, spans.iter().copied());
        proptest::prop_assert!(clean);
        proptest::prop_assert_eq!(facts.len(), spans.len());
        for (&(a, b), fact) in spans.iter().zip(&facts) {
            let widest = chars[a..b].iter().fold(0, |acc, &c| acc | u32::from(c));
            proptest::prop_assert_eq!(fact.bytes, (byte_at(a), byte_at(b)));
            proptest::prop_assert_eq!(fact.widest, widest);
        }
        Ok(())
    }

    proptest::proptest! {
        #[test]
        fn span_facts_agree_with_str(
            // Runs longer than a block (255 units) of ASCII, between other characters.
            s in "([a \n]{0,300}[\u{e9}\u{100}漢😀]?){0,4}",
            picks in proptest::collection::vec((0usize..2000, 0usize..2000), 0..12),
        ) {
            let n = s.chars().count();
            let spans: Vec<(usize, usize)> = picks
                .iter()
                .map(|&(a, b)| (a % (n + 1), b % (n + 1)))
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect();
            if let Some(units) = super::super::tests::latin1(&s) {
                facts_agree(&s, &units, &spans)?;
            }
            if let Some(units) = ucs2(&s) {
                facts_agree(&s, &units, &spans)?;
            }
            facts_agree(&s, &super::super::tests::ucs4(&s), &spans)?;
        }

        #[test]
        fn span_facts_notice_a_lone_surrogate_before_the_last_end(
            len in 1usize..600,
            at in 0usize..600,
            picks in proptest::collection::vec((0usize..601, 0usize..601), 1..8),
        ) {
            let at = at % len;
            let mut units = vec![0x61u16; len];
            units[at] = 0xDC00;
            let spans: Vec<(usize, usize)> = picks
                .iter()
                .map(|&(a, b)| (a % (len + 1), b % (len + 1)))
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect();
            let last = spans.iter().map(|s| s.1).max().unwrap_or(0);
            let (_, clean) = span_facts(&units[..], spans.iter().copied());
            proptest::prop_assert_eq!(clean, at >= last);
        }
    }

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
