//! How chunk sizes are measured: the one trait that splitting, tokens and Markdown share.
//!
//! Code points are the default; token counters (bundled BPE, Hugging Face) and the Python
//! binding's callables implement it too, so every chunker sizes by any of them alike.

use crate::error::Result;

/// Measures text the way the user's `length_function` does; the default is code points.
pub trait Length {
    /// The length of `text`; errors abort the split.
    fn length(&self, text: &str) -> Result<usize>;

    /// The length of `text`, or any value above `limit` once it is known to exceed it: lets
    /// token counters stop early on pieces that will be split further anyway.
    fn length_until(&self, text: &str, limit: usize) -> Result<usize> {
        let _ = limit;
        self.length(text)
    }

    /// Whether every part of `text` is known, without measuring, to measure without error
    /// and at most its UTF-8 length in bytes, so that the lengths of parts add up to at
    /// most the text's byte length: lets a splitter take a short text whole without
    /// measuring its pieces. No by default.
    fn within_bytes(&self, text: &str) -> bool {
        let _ = text;
        false
    }
}
