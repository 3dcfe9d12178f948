//! `_native.sentence_ends` and `_native.sentence_spans`: the core's sentence spans, scanned
//! in the `str`'s own storage (no UTF-8 copy is made; byte offsets are counted from the
//! units only at the sentence ends).

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use super::chunk::PyChunk;
use super::ffi::{collector_paused, new_str, on_units, text_of};
use crate::sentences::{sentence_ends_of, strip_span, Scan};
use crate::units::Offsets;

/// Where the sentences of `text` end, in code points or (`utf8`) in UTF-8 bytes.
fn ends<'a, T: Scan<'a>>(text: T, utf8: bool) -> Vec<usize> {
    let ends = sentence_ends_of(text);
    if T::FIXED && !utf8 {
        return ends; // positions are code points already
    }
    let mut offsets = Offsets::new(text);
    let pick = |(chars, bytes)| if utf8 { bytes } else { chars };
    ends.into_iter().map(|end| pick(offsets.of(end))).collect()
}

/// The sentences' `(positions, code points, bytes)`, each a `(start, end)`; with `strip`
/// trimmed of the whitespace around them, empty ones dropped.
type Spans = Vec<[(usize, usize); 3]>;

fn spans<'a, T: Scan<'a>>(text: T, strip: bool) -> Spans {
    let mut offsets = Offsets::new(text);
    let mut start = 0;
    let mut out = Vec::new();
    for end in sentence_ends_of(text) {
        let (a, b) = if strip {
            strip_span(text, start, end)
        } else {
            (start, end)
        };
        start = end;
        if a < b {
            let ((ca, ba), (cb, bb)) = (offsets.of(a), offsets.of(b));
            out.push([(a, b), (ca, cb), (ba, bb)]);
        }
    }
    out
}

/// Where the sentences of `text` end, in code points or (`utf8`) in UTF-8 bytes; the last
/// is the text's end. A lone surrogate raises `UnicodeEncodeError` (as `str.encode` would).
#[pyfunction]
pub fn sentence_ends(
    py: Python<'_>,
    text: &Bound<'_, PyString>,
    utf8: bool,
) -> PyResult<Vec<usize>> {
    let units = text_of(text, true)?;
    Ok(on_units!(units, t => py.detach(|| ends(t, utf8))))
}

/// The sentences as chunks carrying `metadata` (a read-only mapping); `strip` trims the
/// whitespace around each and drops those with nothing else.
#[pyfunction]
pub fn sentence_spans<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyString>,
    strip: bool,
    metadata: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let units = text_of(text, true)?;
    let found = on_units!(units, t => py.detach(|| spans(t, strip)));
    collector_paused(py, || {
        let list = PyList::empty(py);
        for (index, [(a, b), chars, bytes]) in found.into_iter().enumerate() {
            let piece = on_units!(units, t => new_str(py, &t.units()[a..b]))?;
            let chunk = PyChunk::new(
                piece.unbind(),
                chars.0,
                chars.1,
                bytes.0,
                bytes.1,
                index,
                metadata.clone().unbind(),
                None,
            );
            list.append(chunk.into_object(py)?)?;
        }
        Ok(list)
    })
}
