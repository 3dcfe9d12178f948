//! Chunk spans as numpy arrays: `split`'s `(start, end)` pairs without a Python object per
//! chunk (`Splitter.spans`, `MarkdownChunker.spans`, `TokenSplitter.spans` and their
//! `spans_batch`).
//!
//! The arrays are `int64` of shape `(n, 2)`, made by the `numpy` crate from the `Vec` the
//! native work filled, which numpy then owns: no copy, and nothing per chunk under the GIL
//! (the buffer protocol would need a Python class of our own to hand the memory out, and
//! users would still call `numpy.asarray` on it). A batch is one flat array of every
//! document's spans plus `n_docs + 1` row offsets, all its native work done with the GIL
//! released, so it scales with threads as the CLI does.
//!
//! A chunker measured by a Python callable needs the GIL for every piece; those (and the
//! reference engines) are served from their chunks in Python (`frontend/spans.py`).

use std::borrow::Cow;

use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rayon::prelude::*;

use super::ffi::{on_units, text_of, utf8_of, PyText};
use super::markdown::chunker::PyMarkdownChunker;
use super::split::{native_length, PySplitter};
use super::tokens::tokenizer::PyEncoder;
use crate::error::{Error, Result};
use crate::length::Length;
use crate::text::CharCursor;
use crate::units::{all_scalar, Offsets, Units};

/// Which offsets the arrays hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SpanUnit {
    /// Code points, as `Chunk.start` / `Chunk.end`.
    Char,
    /// UTF-8 bytes, as `Chunk.byte_start` / `Chunk.byte_end`.
    Byte,
}

impl SpanUnit {
    fn from_name(name: &str) -> PyResult<Self> {
        match name {
            "char" => Ok(Self::Char),
            "byte" => Ok(Self::Byte),
            _ => Err(PyValueError::new_err(format!(
                "unit must be 'char' (code points) or 'byte' (UTF-8), got {name:?}"
            ))),
        }
    }
}

/// One document's spans, flat (`start, end, start, end, ...`), and the sizes of the chunks
/// its splitter warns about.
#[derive(Default)]
struct DocSpans {
    flat: Vec<i64>,
    oversized: Vec<usize>,
}

/// Texts below this many code points are split holding the GIL: releasing and retaking it
/// costs about what splitting a paragraph does.
const DETACH_MIN: usize = 4096;

/// `(n, 2)` array of the flat pairs, handed to numpy without a copy.
fn array2(py: Python<'_>, flat: Vec<i64>) -> PyResult<Bound<'_, PyArray2<i64>>> {
    let rows = flat.len() / 2;
    let array = Array2::from_shape_vec((rows, 2), flat)
        .map_err(|e| PyRuntimeError::new_err(format!("span array: {e}")))?;
    Ok(array.into_pyarray(py))
}

/// An offset as numpy's `int64`: offsets are at most a string's length, which is at most
/// `isize::MAX`, so the cast never wraps.
#[allow(clippy::cast_possible_wrap)]
fn int(offset: usize) -> i64 {
    offset as i64
}

/// One span, as two `int64`s.
fn push(flat: &mut Vec<i64>, start: usize, end: usize) {
    flat.push(int(start));
    flat.push(int(end));
}

/// A `Splitter`'s spans of one text (its own storage), measured by a native `length`.
fn splitter_doc(
    splitter: &PySplitter,
    text: PyText<'_>,
    length: Option<&(dyn Length + Sync)>,
    unit: SpanUnit,
) -> Result<DocSpans> {
    on_units!(text, t => {
        let out = splitter.split_native(t, length)?;
        if out.spans.iter().any(|span| span.joined.is_some()) {
            // Only the drop-ins' keep_separator=False re-joins text; spans need sources.
            return Err(Error::Stream(
                "spans need keep='start' or 'end' so chunks are source spans".into(),
            ));
        }
        let mut flat = Vec::with_capacity(2 * out.spans.len());
        if unit == SpanUnit::Char {
            for span in &out.spans {
                push(&mut flat, span.start, span.end);
            }
        } else {
            let pairs: Vec<_> = out.spans.iter().map(|s| (s.start, s.end)).collect();
            for (a, b) in Offsets::new(t).of_spans(&pairs) {
                push(&mut flat, a, b);
            }
        }
        Ok(DocSpans { flat, oversized: out.oversized })
    })
}

/// A `MarkdownChunker`'s (or `TextChunker`'s) chunk spans of one text.
fn markdown_doc(
    chunker: &PyMarkdownChunker,
    text: PyText<'_>,
    length: Option<&(dyn Length + Sync)>,
    parent_size: Option<usize>,
    unit: SpanUnit,
) -> Result<DocSpans> {
    let source = utf8_of(text);
    let length = length.map(|l| l as &dyn Length);
    let grouped = chunker
        .core()
        .0
        .chunk_grouped(&source, length, parent_size)?;
    let mut flat = Vec::with_capacity(2 * grouped.chunks.len());
    let ascii = matches!(source, Cow::Borrowed(_));
    let (mut starts, mut ends) = (
        CharCursor::new(&source, ascii),
        CharCursor::new(&source, ascii),
    );
    for c in &grouped.chunks {
        match unit {
            SpanUnit::Byte => push(&mut flat, c.start, c.end),
            SpanUnit::Char => push(
                &mut flat,
                starts.char_offset(c.start),
                ends.char_offset(c.end),
            ),
        }
    }
    Ok(DocSpans {
        flat,
        oversized: Vec::new(),
    })
}

/// A `TokenSplitter`'s window spans of one text.
fn windows_doc(
    encoder: &PyEncoder,
    text: PyText<'_>,
    (size, overlap): (usize, usize),
    unit: SpanUnit,
) -> Result<DocSpans> {
    let source = utf8_of(text);
    let windows = encoder.window_spans(&source, size, overlap)?;
    let mut flat = Vec::with_capacity(2 * windows.len());
    for (a, b, start, end, _) in windows {
        match unit {
            SpanUnit::Byte => push(&mut flat, a, b),
            SpanUnit::Char => push(&mut flat, start, end),
        }
    }
    Ok(DocSpans {
        flat,
        oversized: Vec::new(),
    })
}

/// The storage of one document, checked for lone surrogates (`UnicodeEncodeError`).
fn units_of<'a>(text: &'a Bound<'_, PyString>) -> PyResult<PyText<'a>> {
    text_of(text, true)
}

/// Runs `doc` on one text: with the GIL released unless the text is short.
fn one<'py>(
    text: &Bound<'py, PyString>,
    doc: impl Fn(PyText<'_>) -> Result<DocSpans> + Send + Sync,
) -> PyResult<(Bound<'py, PyArray2<i64>>, Vec<usize>)> {
    let py = text.py();
    let units = units_of(text)?;
    let len = on_units!(units, t => t.len());
    let out = if len < DETACH_MIN {
        doc(units)?
    } else {
        py.detach(|| doc(units))?
    };
    Ok((array2(py, out.flat)?, out.oversized))
}

/// What `spans_batch` returns: the flat spans, the row offsets, the sizes to warn about.
type Batch<'py> = (
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray1<i64>>,
    Vec<usize>,
);

/// What one document of a batch came to on its worker.
enum Outcome {
    Done(DocSpans),
    /// A lone surrogate (no UTF-8 form): `split` refuses such a text.
    Surrogate,
    Failed(Error),
}

/// `doc` of one batch text read leniently: its lone-surrogate check (a pass over the text)
/// runs here, on the worker, not on the calling thread before the pool starts.
fn checked(doc: &(impl Fn(PyText<'_>) -> Result<DocSpans> + Sync), text: PyText<'_>) -> Outcome {
    let scalar = match text {
        PyText::Latin1(_) => true, // one byte a character: no surrogate fits
        PyText::Ucs2(t) => all_scalar(t.units()),
        PyText::Ucs4(t) => all_scalar(t.units()),
    };
    if !scalar {
        return Outcome::Surrogate;
    }
    match doc(text) {
        Ok(spans) => Outcome::Done(spans),
        Err(err) => Outcome::Failed(err),
    }
}

/// Runs `doc` on every text of `texts` on `threads` threads, the GIL released throughout;
/// the spans in one flat array, document `i`'s in rows `offsets[i]..offsets[i + 1]`. The
/// calling thread only reads each `str`'s storage first and concatenates after, so the
/// batch scales with threads.
fn batch<'py>(
    texts: &Bound<'py, PyList>,
    threads: Option<usize>,
    doc: impl Fn(PyText<'_>) -> Result<DocSpans> + Send + Sync,
) -> PyResult<Batch<'py>> {
    let py = texts.py();
    let strings = texts
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.cast_into::<PyString>().map_err(|e| {
                let kind = e
                    .into_inner()
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string());
                PyTypeError::new_err(format!("texts[{i}]: text must be str, got {kind}"))
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let units = strings
        .iter()
        .map(|s| text_of(s, false))
        .collect::<PyResult<Vec<_>>>()?;
    let threads = crate::parallel::resolve(threads)?;
    let results = py.detach(|| -> Result<Vec<Outcome>> {
        if threads <= 1 || units.len() < 2 {
            return Ok(units.iter().map(|t| checked(&doc, *t)).collect());
        }
        crate::parallel::run(threads, || {
            units.par_iter().map(|t| checked(&doc, *t)).collect()
        })
    })?;
    let total = results
        .iter()
        .map(|r| match r {
            Outcome::Done(d) => d.flat.len(),
            _ => 0,
        })
        .sum();
    let mut flat = Vec::with_capacity(total);
    let mut offsets = Vec::with_capacity(units.len() + 1);
    let mut oversized = Vec::new();
    offsets.push(0);
    for (i, result) in results.into_iter().enumerate() {
        let spans = match result {
            Outcome::Done(spans) => spans,
            Outcome::Surrogate => return Err(surrogate_error(py, i, &strings[i])),
            Outcome::Failed(err) => return Err(in_document(py, i, err)),
        };
        flat.extend_from_slice(&spans.flat);
        oversized.extend(spans.oversized);
        offsets.push(int(flat.len() / 2));
    }
    let offsets = Array1::from_vec(offsets).into_pyarray(py);
    Ok((array2(py, flat)?, offsets, oversized))
}

/// The exception of document `index`'s error, the document named first.
fn in_document(py: Python<'_>, index: usize, err: Error) -> PyErr {
    let inner = PyErr::from(err);
    let message = format!("texts[{index}]: {}", inner.value(py));
    PyErr::from_type(inner.get_type(py), message)
}

/// `split`'s error for a text with a lone surrogate, naming the document.
fn surrogate_error(py: Python<'_>, index: usize, text: &Bound<'_, PyString>) -> PyErr {
    let at = text
        .to_cow()
        .err()
        .and_then(|e| e.value(py).getattr("start").ok())
        .and_then(|s| s.extract::<usize>().ok())
        .unwrap_or(0);
    PyValueError::new_err(format!(
        "texts[{index}]: text has a lone surrogate at index {at}, which has no UTF-8 \
         encoding; decode the input with errors='replace' or remove it"
    ))
}

/// A native length of `length`, or `Unsupported`-free refusal: a Python callable needs the
/// GIL per piece, so the Python layer serves it from chunks instead.
fn native_only<'a>(
    length: Option<&'a Bound<'_, PyAny>>,
) -> PyResult<Option<&'a (dyn Length + Sync)>> {
    match length {
        None => Ok(None),
        Some(func) => native_length(func).map(Some).ok_or_else(|| {
            PyTypeError::new_err("spans in Rust need no length or a native token counter")
        }),
    }
}

/// `Splitter.split(text)`'s spans as an `(n, 2)` array, and the sizes to warn about.
#[pyfunction]
#[pyo3(signature = (splitter, length, text, unit))]
pub fn splitter_spans<'py>(
    splitter: &Bound<'py, PySplitter>,
    length: Option<&Bound<'py, PyAny>>,
    text: &Bound<'py, PyString>,
    unit: &str,
) -> PyResult<(Bound<'py, PyArray2<i64>>, Vec<usize>)> {
    let (unit, length, s) = (
        SpanUnit::from_name(unit)?,
        native_only(length)?,
        splitter.get(),
    );
    one(text, |t| splitter_doc(s, t, length, unit))
}

/// `splitter_spans` of every text, as one flat array and row offsets.
#[pyfunction]
#[pyo3(signature = (splitter, length, texts, unit, threads))]
pub fn splitter_spans_batch<'py>(
    splitter: &Bound<'py, PySplitter>,
    length: Option<&Bound<'py, PyAny>>,
    texts: &Bound<'py, PyList>,
    unit: &str,
    threads: Option<usize>,
) -> PyResult<Batch<'py>> {
    let (unit, length, s) = (
        SpanUnit::from_name(unit)?,
        native_only(length)?,
        splitter.get(),
    );
    batch(texts, threads, |t| splitter_doc(s, t, length, unit))
}

/// `MarkdownChunker.split(text)`'s spans as an `(n, 2)` array (and no sizes to warn about).
#[pyfunction]
#[pyo3(signature = (chunker, length, parent_size, text, unit))]
pub fn markdown_spans<'py>(
    chunker: &Bound<'py, PyMarkdownChunker>,
    length: Option<&Bound<'py, PyAny>>,
    parent_size: Option<usize>,
    text: &Bound<'py, PyString>,
    unit: &str,
) -> PyResult<(Bound<'py, PyArray2<i64>>, Vec<usize>)> {
    let (unit, length, c) = (
        SpanUnit::from_name(unit)?,
        native_only(length)?,
        chunker.get(),
    );
    one(text, |t| markdown_doc(c, t, length, parent_size, unit))
}

/// `markdown_spans` of every text, as one flat array and row offsets.
#[pyfunction]
#[pyo3(signature = (chunker, length, parent_size, texts, unit, threads))]
pub fn markdown_spans_batch<'py>(
    chunker: &Bound<'py, PyMarkdownChunker>,
    length: Option<&Bound<'py, PyAny>>,
    parent_size: Option<usize>,
    texts: &Bound<'py, PyList>,
    unit: &str,
    threads: Option<usize>,
) -> PyResult<Batch<'py>> {
    let (unit, length, c) = (
        SpanUnit::from_name(unit)?,
        native_only(length)?,
        chunker.get(),
    );
    batch(texts, threads, |t| {
        markdown_doc(c, t, length, parent_size, unit)
    })
}

/// `TokenSplitter.split(text)`'s window spans as an `(n, 2)` array (no sizes to warn about).
#[pyfunction]
#[pyo3(signature = (encoder, size, overlap, text, unit))]
pub fn window_spans<'py>(
    encoder: &Bound<'py, PyEncoder>,
    size: usize,
    overlap: usize,
    text: &Bound<'py, PyString>,
    unit: &str,
) -> PyResult<(Bound<'py, PyArray2<i64>>, Vec<usize>)> {
    let (unit, e) = (SpanUnit::from_name(unit)?, encoder.get());
    one(text, |t| windows_doc(e, t, (size, overlap), unit))
}

/// `window_spans` of every text, as one flat array and row offsets.
#[pyfunction]
#[pyo3(signature = (encoder, size, overlap, texts, unit, threads))]
pub fn window_spans_batch<'py>(
    encoder: &Bound<'py, PyEncoder>,
    size: usize,
    overlap: usize,
    texts: &Bound<'py, PyList>,
    unit: &str,
    threads: Option<usize>,
) -> PyResult<Batch<'py>> {
    let (unit, e) = (SpanUnit::from_name(unit)?, encoder.get());
    batch(texts, threads, |t| windows_doc(e, t, (size, overlap), unit))
}
