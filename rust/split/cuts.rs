//! Why each chunk ends where it does: the separator whose split made the gap after the
//! chunk's last piece, or the end of the text.
//!
//! The recursion knows this as it goes, so it is recorded there and not guessed from the
//! chunks afterwards: a range being split at separator `k` has two kinds of gaps, those
//! between its own pieces (made by `k`) and the one at its end (made by whoever split the
//! range out of its parent, or the end of the text). A chunk whose last piece ends at the
//! range's end takes the range's tail; any other, the range's own separator. Recording is
//! opt-in ([`super::Splitter::cuts`]): a plain split only carries a `None`.

/// What made the gap a chunk ends at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The separator at this index of the splitter's list.
    Separator(usize),
    /// The end of the text.
    End,
}

/// The gaps of the range being split: where it ends, what made that end, and what makes
/// the gaps inside it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Level {
    pub(super) end: usize,
    pub(super) tail: Cut,
    pub(super) inner: Cut,
}

impl Level {
    /// The whole text, not yet split.
    pub(super) fn top(len: usize) -> Self {
        Self {
            end: len,
            tail: Cut::End,
            inner: Cut::End,
        }
    }

    /// The piece `[_, end)` of this range, split at separator `index`.
    pub(super) fn deeper(self, end: usize, index: usize) -> Self {
        Self {
            end,
            tail: self.at(end),
            inner: Cut::Separator(index),
        }
    }

    /// What made the gap at `pos`, the end of a piece of this range.
    pub(super) fn at(self, pos: usize) -> Cut {
        if pos == self.end {
            self.tail
        } else {
            self.inner
        }
    }
}
