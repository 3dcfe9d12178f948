//! Merging pieces into chunks with overlap: LangChain's `_merge_splits`, on lengths only.
//!
//! [`Window`] takes the pieces one at a time and keeps only the current window (the pieces
//! the next chunk may still contain), so splitting holds no list of all pieces: memory
//! stays near the size of the text however many pieces it has. Working on lengths and
//! positions (not strings) lets one algorithm serve source spans and re-joined text.

use std::collections::VecDeque;

/// One piece in a [`Window`]: its position range, its length as measured, and whether the
/// text between it and the piece before is the join text (always so for the first piece
/// of a window, and whenever separators are kept: pieces are then adjacent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// Start position.
    pub start: usize,
    /// End position.
    pub end: usize,
    /// The piece's length.
    pub len: usize,
    /// Whether the gap to the previous piece is the join text.
    pub joins: bool,
}

/// What [`Window::push`] and [`Window::finish`] report, in LangChain's order.
#[derive(Debug, Clone, Copy)]
pub enum Report<'w> {
    /// A chunk: the pieces of the window (in order) and whether they are one source span
    /// once joined (every gap between them is the join text).
    Chunk(&'w VecDeque<Item>, bool),
    /// LangChain's warning: a chunk of this total came out longer than the size.
    Oversized(usize),
}

/// LangChain 1.1's `_merge_splits`, one piece at a time.
#[derive(Debug, Default, Clone)]
pub struct Window {
    items: VecDeque<Item>,
    total: usize,
    /// Items after the first whose gap is not the join text.
    gaps: usize,
}

/// Sizes a merge works with: the chunk size, the overlap, and the length of the join text.
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    /// Maximum chunk length (strict).
    pub size: usize,
    /// Overlap carried into the next chunk.
    pub overlap: usize,
    /// Length of the text pieces are joined with.
    pub sep: usize,
}

impl Window {
    /// Adds a piece, reporting what LangChain's loop does at it, decision for decision:
    /// the strict `>` test, popping from the front while the kept part exceeds the overlap
    /// or the new piece still would not fit, and warnings only when the total exceeds the
    /// size.
    pub fn push(&mut self, item: Item, sizes: Sizes, mut report: impl FnMut(Report<'_>)) {
        let sep_if = |n: usize| if n > 0 { sizes.sep } else { 0 };
        if self.total + item.len + sep_if(self.items.len()) > sizes.size {
            if self.total > sizes.size {
                report(Report::Oversized(self.total));
            }
            if !self.items.is_empty() {
                report(Report::Chunk(&self.items, self.gaps == 0));
                while self.total > sizes.overlap
                    || (self.total + item.len + sep_if(self.items.len()) > sizes.size
                        && self.total > 0)
                {
                    self.pop(sizes.sep);
                }
            }
        }
        if !self.items.is_empty() && !item.joins {
            self.gaps += 1;
        }
        self.items.push_back(item);
        self.total += item.len + sep_if(self.items.len() - 1);
    }

    /// Reports the last chunk, if any, and empties the window for the next run of pieces.
    pub fn finish(&mut self, mut report: impl FnMut(Report<'_>)) {
        if !self.items.is_empty() {
            report(Report::Chunk(&self.items, self.gaps == 0));
        }
        self.items.clear();
        self.total = 0;
        self.gaps = 0;
    }

    /// The end of the last piece, if the window holds any.
    pub fn last_end(&self) -> Option<usize> {
        self.items.back().map(|item| item.end)
    }

    fn pop(&mut self, sep: usize) {
        let Some(first) = self.items.pop_front() else {
            return;
        };
        self.total -= first.len + if self.items.is_empty() { 0 } else { sep };
        // The new first piece's gap is no longer inside the window.
        if self.items.front().is_some_and(|item| !item.joins) {
            self.gaps -= 1;
        }
    }
}

/// What a merge of a whole list decided: which consecutive pieces form each chunk, and the
/// sizes of chunks that came out longer than the limit (LangChain logs a warning for each).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Merged {
    /// Half-open ranges of piece indices, in order; each one is one chunk before joining.
    pub groups: Vec<(usize, usize)>,
    /// The running total each time a chunk longer than `size` was emitted.
    pub oversized: Vec<usize>,
}

/// Groups pieces of the given `lengths` into chunks of at most `size` (measured as the sum
/// of piece lengths plus `sep_len` between pieces), carrying up to `overlap` into the next:
/// [`Window`] over a list, for callers that have one (the stream splitter).
pub fn merge(lengths: &[usize], sep_len: usize, size: usize, overlap: usize) -> Merged {
    let mut out = Merged::default();
    let mut window = Window::default();
    let sizes = Sizes {
        size,
        overlap,
        sep: sep_len,
    };
    let mut report = |event: Report<'_>| match event {
        Report::Chunk(items, _) => {
            if let (Some(a), Some(b)) = (items.front(), items.back()) {
                out.groups.push((a.start, b.end));
            }
        }
        Report::Oversized(total) => out.oversized.push(total),
    };
    for (i, &len) in lengths.iter().enumerate() {
        let item = Item {
            start: i,
            end: i + 1,
            len,
            joins: true,
        };
        window.push(item, sizes, &mut report);
    }
    window.finish(&mut report);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LangChain's algorithm on strings, transcribed literally, as an in-crate oracle.
    fn oracle(lengths: &[usize], sep_len: usize, size: usize, overlap: usize) -> Merged {
        let mut out = Merged::default();
        let mut cur: Vec<usize> = Vec::new(); // piece indices
        let mut total = 0usize;
        for (i, &len) in lengths.iter().enumerate() {
            let s = if cur.is_empty() { 0 } else { sep_len };
            if total + len + s > size {
                if total > size {
                    out.oversized.push(total);
                }
                if !cur.is_empty() {
                    out.groups.push((cur[0], cur[cur.len() - 1] + 1));
                    loop {
                        let s = if cur.is_empty() { 0 } else { sep_len };
                        if !(total > overlap || (total + len + s > size && total > 0)) {
                            break;
                        }
                        total -= lengths[cur[0]] + if cur.len() > 1 { sep_len } else { 0 };
                        cur.remove(0);
                    }
                }
            }
            cur.push(i);
            total += len + if cur.len() > 1 { sep_len } else { 0 };
        }
        if let (Some(a), Some(b)) = (cur.first(), cur.last()) {
            out.groups.push((*a, b + 1));
        }
        out
    }

    #[test]
    fn matches_transcription_on_small_cases() {
        let cases: &[(&[usize], usize, usize, usize)] = &[
            (&[3, 3, 3, 3], 1, 7, 3),
            (&[10, 1, 1], 0, 5, 2),
            (&[0, 0, 0], 0, 1, 0),
            (&[5, 5, 5, 5, 5], 2, 12, 6),
            (&[], 1, 5, 0),
        ];
        for &(lengths, sep, size, overlap) in cases {
            assert_eq!(
                merge(lengths, sep, size, overlap),
                oracle(lengths, sep, size, overlap)
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn matches_transcription(
            lengths in proptest::collection::vec(0usize..40, 0..60),
            sep in 0usize..4,
            size in 1usize..60,
            overlap_frac in 0usize..=100,
        ) {
            let overlap = size * overlap_frac / 100;
            proptest::prop_assert_eq!(
                merge(&lengths, sep, size, overlap),
                oracle(&lengths, sep, size, overlap)
            );
        }
    }
}
