//! Identity and code-point offsets of Markdown chunks and parents, with the heading paths
//! each covers and (given a counter) their token counts: what the Python objects and the
//! Arrow rows are both built from, computed without Python (and so on any thread).

use std::sync::Arc;

use crate::chunk_id::Ids;
use crate::error::Result;
use crate::length::Length;
use crate::markdown::chunker::Grouped;
use crate::markdown::sections::Coverage;
use crate::text::CharCursor;

/// A chunk (or parent) with offsets and id, before it becomes a Python object or Arrow row.
pub struct Span {
    /// Start, in bytes.
    pub start: usize,
    /// End, in bytes (exclusive).
    pub end: usize,
    /// Start, in code points.
    pub char_start: usize,
    /// End, in code points (exclusive).
    pub char_end: usize,
    /// The stable id (see [`crate::chunk_id`]); empty when ids were not asked for.
    pub id: String,
    /// The heading path of its first block.
    pub path: Arc<[String]>,
    /// Starts inside a block that was cut.
    pub continuation: bool,
    /// The repeated table header's byte span, for a later piece of a cut table.
    pub header: Option<(usize, usize)>,
    /// Index of the parent, in hierarchy mode.
    pub parent: Option<usize>,
    /// The heading paths the span covers and which one holds most of it.
    pub coverage: Coverage,
    /// Its size in tokens, when a token counter measured the chunks.
    pub tokens: Option<usize>,
}

/// One span to identify: `(start, end, path, continuation, header, coverage)` in bytes.
pub type Item = (
    usize,
    usize,
    Arc<[String]>,
    bool,
    Option<(usize, usize)>,
    Coverage,
);

/// What identifies chunks of one document: its id, the settings and the text's digest.
pub struct Identity<'a> {
    /// The document id.
    pub doc: &'a str,
    /// The chunker's settings string.
    pub settings: &'a str,
    /// SHA-256 of the document text, in hex.
    pub digest: &'a str,
}

/// Char offsets and ids (with `who`; else empty) for spans given in order.
pub fn spans(
    text: &str,
    who: Option<&Identity<'_>>,
    items: impl Iterator<Item = Item>,
) -> Vec<Span> {
    let ascii = text.is_ascii();
    let (mut starts, mut ends) = (CharCursor::new(text, ascii), CharCursor::new(text, ascii));
    let ids = who.map(|w| Ids::new(w.doc, w.settings, w.digest));
    items
        .map(|(start, end, path, continuation, header, coverage)| {
            let (cs, ce) = (starts.char_offset(start), ends.char_offset(end));
            Span {
                start,
                end,
                char_start: cs,
                char_end: ce,
                id: ids.as_ref().map(|ids| ids.id(cs, ce)).unwrap_or_default(),
                path,
                continuation,
                header,
                parent: None,
                coverage,
                tokens: None,
            }
        })
        .collect()
}

/// Children and parents as spans with ids (parent ids use their own settings string; no ids
/// without `who`), and what each covers.
pub fn all_spans(
    text: &str,
    who: Option<&Identity<'_>>,
    parent_size: Option<usize>,
    grouped: Grouped,
) -> (Vec<Span>, Vec<Span>) {
    let Grouped {
        chunks,
        parents,
        sections,
    } = grouped;
    let items = chunks.into_iter().map(|c| {
        let coverage = sections.coverage(text, c.start, c.end);
        (c.start, c.end, c.path, c.continuation, c.header, coverage)
    });
    let mut kids = spans(text, who, items);
    let parent_settings =
        who.map(|w| format!("{}|parent={}", w.settings, parent_size.unwrap_or(0)));
    let parent_who = who
        .zip(parent_settings.as_deref())
        .map(|(w, settings)| Identity { settings, ..*w });
    let items = parents.iter().map(|p| {
        let first = &kids[p.children.start];
        let coverage = sections.coverage(text, p.start, p.end);
        let path = first.path.clone();
        (p.start, p.end, path, first.continuation, None, coverage)
    });
    let ups = spans(text, parent_who.as_ref(), items);
    for (k, p) in parents.iter().enumerate() {
        for kid in &mut kids[p.children.clone()] {
            kid.parent = Some(k);
        }
    }
    (kids, ups)
}

/// Each span's size in tokens, counted by `length`.
pub fn count_tokens(text: &str, spans: &mut [Span], length: &dyn Length) -> Result<()> {
    for s in spans {
        s.tokens = Some(length.length(&text[s.start..s.end])?);
    }
    Ok(())
}
