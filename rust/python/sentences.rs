//! `_native.sentence_ends` and `_native.sentence_spans`: the core's sentence spans.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use super::chunk::PyChunk;
use super::strings::span_string;
use crate::sentences::{sentence_ends as core_ends, Sentence};
use crate::text::{strip_range, CharCursor};

/// Code-point and byte ends of the sentences, computed with the GIL released.
fn ends(py: Python<'_>, text: &str) -> (Vec<usize>, Vec<usize>) {
    py.detach(|| {
        let bytes = core_ends(text);
        let mut cursor = CharCursor::new(text, text.is_ascii());
        let chars = bytes.iter().map(|&b| cursor.char_offset(b)).collect();
        (chars, bytes)
    })
}

/// `(code-point ends, byte ends)` of the sentences of `text`; the last ends are the text's.
#[pyfunction]
pub fn sentence_ends(
    py: Python<'_>,
    text: &Bound<'_, PyString>,
) -> PyResult<(Vec<usize>, Vec<usize>)> {
    Ok(ends(py, text.to_str()?))
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
    let source = text.to_str()?;
    let spans: Vec<Sentence> = py.detach(|| {
        let mut cursor = CharCursor::new(source, source.is_ascii());
        let mut start = 0;
        let mut out = Vec::new();
        for end in core_ends(source) {
            let (a, b) = if strip {
                strip_range(source, start, end)
            } else {
                (start, end)
            };
            start = end;
            if a < b {
                let (ca, cb) = (cursor.char_offset(a), cursor.char_offset(b));
                out.push(Sentence {
                    start: ca,
                    end: cb,
                    byte_start: a,
                    byte_end: b,
                });
            }
        }
        out
    });
    let list = PyList::empty(py);
    for (index, s) in spans.iter().enumerate() {
        let piece = span_string(text, source, (s.byte_start, s.byte_end), (s.start, s.end))?;
        let chunk = PyChunk::new(
            piece.unbind(),
            s.start,
            s.end,
            s.byte_start,
            s.byte_end,
            index,
            metadata.clone().unbind(),
            None,
        );
        list.append(chunk.into_object(py)?)?;
    }
    Ok(list)
}
