//! Parent chunks over the chunks of [`crate::markdown::chunker`]: small children for precise
//! retrieval, larger parents (sections or windows) to hand the model as context.
//!
//! Parents are runs of consecutive children, so every child lies in exactly one parent and
//! a parent is itself an exact span of the source (from its first child's start to its last
//! child's end). A parent grows while it fits `parent_size`; a change of heading path (a new
//! section) closes it once it has a quarter of that size, so parents follow sections without
//! being tiny. Mirrored by `python/ferrochunk/reference/markdown/parent.py`.

use std::ops::Range;

use crate::error::Result;
use crate::length::Length;
use crate::markdown::chunk::MdChunk;

/// A parent chunk: byte span and the indices of its children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parent {
    /// Start, in bytes (its first child's start).
    pub start: usize,
    /// End, in bytes (its last child's end).
    pub end: usize,
    /// Indices of its children in the chunk list.
    pub children: Range<usize>,
}

/// Groups `chunks` (of `text`, in order) into parents of at most `parent_size`, measured
/// with `length` (code points when `None`); a child larger than that is a parent alone.
pub fn group(
    text: &str,
    chunks: &[MdChunk],
    parent_size: usize,
    length: Option<&dyn Length>,
) -> Result<Vec<Parent>> {
    let size = |a: usize, b: usize| -> Result<usize> {
        match length {
            Some(f) => f.length(&text[a..b]),
            None => Ok(bytecount::num_chars(&text.as_bytes()[a..b])),
        }
    };
    let mut out = Vec::new();
    let mut cur: Option<Parent> = None;
    for (k, c) in chunks.iter().enumerate() {
        if let Some(p) = cur.as_mut() {
            let section = chunks[k - 1].path != c.path;
            let closes = section && size(p.start, p.end)? >= parent_size / 4;
            if !closes && size(p.start, c.end)? <= parent_size {
                p.end = c.end;
                p.children.end = k + 1;
                continue;
            }
        }
        out.extend(cur.take());
        cur = Some(Parent {
            start: c.start,
            end: c.end,
            children: k..k + 1,
        });
    }
    out.extend(cur);
    Ok(out)
}
