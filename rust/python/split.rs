//! `_native.Splitter`: the core [`Splitter`] behind the drop-in classes and `ferrochunk.split`.

use std::borrow::Cow;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use super::chunk::PyChunk;
use super::ffi::{
    collector_paused, fixed_utf8, new_str, new_str_checked, new_str_of_class, on_units, text_of,
    PyText,
};
use super::length::PyLength;
use super::tokens::huggingface::PyHfCounter;
use super::tokens::tokenizer::PyTokenCounter;
use crate::error::Result;
use crate::length::Length;
use crate::split::scan::{KeepSeparator, Separator};
use crate::split::{Cut, Span, SpanOutput, SplitConfig, Splitter};
use crate::units::{utf8_measure, Fixed, Offsets, Unit, Units, Utf8};

/// A configured splitter; immutable and shareable across threads.
#[pyclass(frozen, name = "Splitter", module = "ferrochunk._native")]
pub struct PySplitter {
    inner: Splitter,
}

fn keep_from(name: &str) -> PyResult<KeepSeparator> {
    match name {
        "drop" => Ok(KeepSeparator::Drop),
        "start" => Ok(KeepSeparator::Start),
        "end" => Ok(KeepSeparator::End),
        _ => Err(PyValueError::new_err(format!(
            "keep must be 'drop', 'start' or 'end', got {name:?}"
        ))),
    }
}

/// `(pattern, is_regex, join_text)` to a core separator.
fn separator((pattern, is_regex, join): (String, bool, String)) -> Result<Separator> {
    let sep = if is_regex {
        Separator::regex(&pattern)?
    } else {
        Separator::literal(&pattern)
    };
    Ok(sep.with_join_text(&join))
}

/// The core length behind a native counter (bundled BPE or Hugging Face), if `func` is one:
/// the splitter then measures in Rust with the GIL released.
pub(crate) fn native_length<'a>(func: &'a Bound<'_, PyAny>) -> Option<&'a (dyn Length + Sync)> {
    if let Ok(counter) = func.cast::<PyTokenCounter>() {
        return Some(counter.get().length());
    }
    func.cast::<PyHfCounter>()
        .ok()
        .map(|c| c.get().length() as _)
}

impl PySplitter {
    /// The core splitter, for other native functions.
    pub fn core(&self) -> &Splitter {
        &self.inner
    }

    /// The core's split of `text`, measured by a native `length` (code points when `None`).
    /// No Python object is touched, so any thread may run it: `split` and `split_text` run
    /// it with the GIL released, the batch functions on a pool thread.
    pub fn split_native<U: Unit>(
        &self,
        text: Fixed<'_, U>,
        length: Option<&(dyn Length + Sync)>,
    ) -> Result<SpanOutput> {
        match length {
            None => self.inner.split_units(text, None),
            Some(length) => split_measured(&self.inner, text, length),
        }
    }

    /// `split`'s native work on a text's own storage (see [`Computed`]).
    pub fn compute(
        &self,
        text: PyText<'_>,
        length: Option<&(dyn Length + Sync)>,
    ) -> Result<Computed> {
        on_units!(text, t => Computed::new(t, self.split_native(t, length)?, length))
    }

    /// Whether `split_text` checks a text for lone surrogates before splitting it: a length
    /// function or a regex reads UTF-8; a split by code points at literal separators is
    /// checked while its chunk strings are built ([`PySplitter::text_list`]).
    pub fn checks_first(&self, measured: bool) -> bool {
        measured || !self.inner.literal_only()
    }

    /// `split_text`'s chunk strings for `out`, split from `text` (read as `units`, checked
    /// up front if `checked`). A lone surrogate found on the way, or a chunk re-joined from
    /// pieces (drop-separator mode, rare) in a text not checked, raises `UnicodeEncodeError`
    /// with the first lone surrogate's index.
    pub fn text_list<'py>(
        text: &Bound<'py, PyString>,
        units: PyText<'_>,
        checked: bool,
        out: &SpanOutput,
    ) -> PyResult<Bound<'py, PyList>> {
        let (strings, clean) = chunk_texts(text.py(), units, &out.spans, !checked)?;
        if !checked && (!clean || out.spans.iter().any(|span| span.joined.is_some())) {
            text_of(text, true)?; // raises, with the first lone surrogate's index
        }
        PyList::new(text.py(), strings)
    }

    /// `split`'s chunks for `computed`, split from `text` (read as `units`, the storage
    /// `computed` was made of: its chunk kinds are trusted), each carrying `metadata`; and
    /// the sizes to warn about. A lone surrogate met on the way raises `UnicodeEncodeError`
    /// with the first one's index.
    pub fn chunk_list<'py>(
        text: &Bound<'py, PyString>,
        units: PyText<'_>,
        computed: Computed,
        metadata: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyList>, Vec<usize>)> {
        let py = text.py();
        let Computed { out, counts, facts } = computed;
        if out.spans.iter().any(|span| span.joined.is_some()) {
            // Only LangChain's drop-separator mode re-joins text, and the native API does
            // not offer it; refuse rather than return a chunk that is not a span.
            return Err(PyValueError::new_err(
                "split() needs keep='start' or 'end' so chunks are source spans",
            ));
        }
        if !facts.clean {
            text_of(text, true)?; // raises, with the first lone surrogate's index
        }
        collector_paused(py, || {
            let strings = classed_texts(py, units, &out.spans, &facts.classes)?;
            Self::chunk_records(
                py,
                strings,
                &out.spans,
                (&facts.bytes, counts.as_deref()),
                metadata,
            )
            .map(|list| (list, out.oversized))
        })
    }

    /// One `Chunk` per span, in a list.
    fn chunk_records<'py>(
        py: Python<'py>,
        strings: Vec<Bound<'py, PyString>>,
        spans: &[Span],
        (bytes, counts): (&[(usize, usize)], Option<&[usize]>),
        metadata: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let chunks = sized(
            spans.len(),
            strings
                .into_iter()
                .zip(spans)
                .enumerate()
                .map(|(index, (string, span))| {
                    let chunk = PyChunk::new(
                        string.unbind(),
                        span.start,
                        span.end,
                        bytes[index].0,
                        bytes[index].1,
                        index,
                        metadata.clone().unbind(),
                        counts.map(|counts| counts[index]),
                    );
                    chunk.into_object(py)
                }),
        )?;
        PyList::new(py, chunks)
    }

    /// Runs the core on `text` with the GIL released, or holding it when a Python callable
    /// measures.
    fn run<U: Unit>(
        &self,
        py: Python<'_>,
        text: Fixed<'_, U>,
        length: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<SpanOutput> {
        let native = match length {
            Some(func) if native_length(func).is_none() => {
                let length = PyLength::new(func.clone());
                let out = split_measured(&self.inner, text, &length);
                return length.finish(out);
            }
            // No length, or token counts in Rust: no Python call per piece, GIL released.
            _ => length.and_then(native_length),
        };
        if native.is_none() && takes_whole(&self.inner, text) {
            return Ok(self.split_native(text, None)?);
        }
        Ok(py.detach(|| self.split_native(text, native))?)
    }
}

/// Whether `splitter` returns `text` whole, unscanned, and `text` is short: its split is
/// then done holding the GIL, as there is nothing to scan and releasing and retaking the
/// GIL was a visible part of it (paragraphs of the corpora split one by one, 153
/// characters on average: 1.08× faster, paired). A long text, even one taken whole, is
/// measured for its offsets, so that is still done with the GIL released.
fn takes_whole<U: Unit>(splitter: &Splitter, text: Fixed<'_, U>) -> bool {
    text.len() < 1 << 14 && splitter.takes_whole(text)
}

/// Splits `text` measured by `length`. A length reads every piece as UTF-8, at every level
/// of the recursion: an ASCII text is read in place, any other converted once (and the copy
/// dropped after; the block transcoder, 2.5 times the speed of a `char` at a time on
/// Chinese), the chunks mapped back to its positions.
fn split_measured<U: Unit>(
    inner: &Splitter,
    text: Fixed<'_, U>,
    length: &dyn Length,
) -> Result<SpanOutput> {
    let Cow::Owned(utf8) = fixed_utf8(text) else {
        return inner.split_units(text, Some(length));
    };
    let mut out = inner.split_units(Utf8(&utf8), Some(length))?;
    let mut offsets = Offsets::new(Utf8(&utf8));
    for span in &mut out.spans {
        (span.start, span.end) = (offsets.of(span.start).0, offsets.of(span.end).0);
    }
    Ok(out)
}

/// `split`'s native work, which needs no Python object (any thread may do it): the spans,
/// and each one's UTF-8 offsets, kind and (sized by a native counter) token count.
pub struct Computed {
    out: SpanOutput,
    counts: Option<Vec<usize>>,
    facts: Facts,
}

impl Computed {
    /// The facts of `out`'s chunks of `text`, and their token counts if `length` measures;
    /// none when a chunk is re-joined text, which [`PySplitter::chunk_list`] refuses.
    fn new<U: Unit>(
        text: Fixed<'_, U>,
        out: SpanOutput,
        length: Option<&(dyn Length + Sync)>,
    ) -> Result<Self> {
        if out.spans.iter().any(|span| span.joined.is_some()) {
            let facts = Facts {
                bytes: Vec::new(),
                classes: Vec::new(),
                clean: true,
            };
            return Ok(Self {
                out,
                counts: None,
                facts,
            });
        }
        let facts = Facts::of(text, &out.spans);
        let counts = match length {
            // Each chunk counted in one UTF-8 copy of the text, at its byte offsets.
            Some(length) => {
                let utf8 = fixed_utf8(text);
                let count = |&(a, b): &(usize, usize)| length.length(&utf8[a..b]);
                Some(facts.bytes.iter().map(count).collect::<Result<Vec<_>>>()?)
            }
            None => None,
        };
        Ok(Self { out, counts, facts })
    }
}

/// What building a split's chunks needs to know of them besides their spans.
struct Facts {
    /// Each chunk's UTF-8 `(start, end)`.
    bytes: Vec<(usize, usize)>,
    /// Each chunk's units OR-ed, which picks its string's kind.
    classes: Vec<u32>,
    /// Whether every unit measured had a UTF-8 form (no lone surrogate).
    clean: bool,
}

impl Facts {
    /// The facts of `spans` of `text`, measured one by one ([`utf8_measure`]), each split
    /// where the next one starts, so a start inside the previous chunk (the overlap) is
    /// known from that chunk's head: one pass per chunk, no call per boundary, and the kind
    /// found on the way, which the copy would otherwise look for (under the GIL). A span
    /// starting before the last known position (never, in a splitter's text order) is
    /// measured from the text's start.
    fn of<U: Unit>(text: Fixed<'_, U>, spans: &[Span]) -> Self {
        let units = text.units();
        let mut bytes = Vec::with_capacity(spans.len());
        let mut classes = Vec::with_capacity(spans.len());
        // `at`: a position at or before the next span's start, `at_byte` its UTF-8 offset.
        let (mut at, mut at_byte, mut clean) = (0, 0, true);
        for (i, span) in spans.iter().enumerate() {
            if span.start < at {
                (at, at_byte) = (0, 0);
            }
            let (gap, _, gap_scalar) = utf8_measure(&units[at..span.start]);
            let start = at_byte + gap;
            let next = spans.get(i + 1).map_or(span.end, |next| next.start);
            let next = next.clamp(span.start, span.end);
            let (head, head_or, head_scalar) = utf8_measure(&units[span.start..next]);
            let (tail, tail_or, tail_scalar) = utf8_measure(&units[next..span.end]);
            clean &= gap_scalar && head_scalar && tail_scalar;
            bytes.push((start, start + head + tail));
            classes.push(head_or | tail_or);
            (at, at_byte) = (next, start + head);
        }
        Self {
            bytes,
            classes,
            clean,
        }
    }
}

/// Every chunk's text as a new string of the source's own storage, of the kind its class
/// picks ([`Facts::classes`], one per span).
fn classed_texts<'py>(
    py: Python<'py>,
    text: PyText<'_>,
    spans: &[Span],
    classes: &[u32],
) -> PyResult<Vec<Bound<'py, PyString>>> {
    on_units!(text, t => {
        let units = t.units();
        let strings = spans.iter().zip(classes);
        sized(spans.len(), strings.map(|(span, &class)| {
            new_str_of_class(py, &units[span.start..span.end], class)
        }))
    })
}

/// The text of every chunk, as new strings of the source's own storage; and, if `check`,
/// whether every unit copied was a Unicode scalar value (no lone surrogate; `true` without
/// `check`, for a text checked before). Split in keep-separator modes or at literal
/// separators, every character that is not a space lies in some chunk, so this checks the
/// whole text on the way.
fn chunk_texts<'py>(
    py: Python<'py>,
    text: PyText<'_>,
    spans: &[Span],
    check: bool,
) -> PyResult<(Vec<Bound<'py, PyString>>, bool)> {
    let mut clean = true;
    let strings = on_units!(text, t => sized(spans.len(), spans.iter().map(|span| {
        if let Some(joined) = &span.joined {
            return Ok(PyString::new(py, joined));
        }
        let units = &t.units()[span.start..span.end];
        if !check {
            return new_str(py, units);
        }
        let (string, scalar) = new_str_checked(py, units)?;
        clean &= scalar;
        Ok(string)
    })))?;
    Ok((strings, clean))
}

#[pymethods]
impl PySplitter {
    #[new]
    #[pyo3(signature = (chunk_size, chunk_overlap, separators, keep, strip_whitespace, recursive))]
    fn new(
        chunk_size: i64,
        chunk_overlap: i64,
        separators: Vec<(String, bool, String)>,
        keep: &str,
        strip_whitespace: bool,
        recursive: bool,
    ) -> PyResult<Self> {
        let config = SplitConfig::new(chunk_size, chunk_overlap)?
            .keep(keep_from(keep)?)
            .strip(strip_whitespace);
        let mut separators = separators
            .into_iter()
            .map(separator)
            .collect::<Result<Vec<_>>>()?;
        let inner = if recursive {
            Splitter::recursive(config, separators)
        } else {
            let sep = separators.pop().unwrap_or_else(|| Separator::literal(""));
            Splitter::single(config, sep)
        };
        Ok(Self { inner })
    }

    /// The chunk texts as LangChain returns them; `warn(size, chunk_size)` is called for
    /// every chunk LangChain would warn about. The text is split where CPython stores it.
    #[pyo3(signature = (text, length=None, warn=None))]
    pub(crate) fn split_text<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        length: Option<&Bound<'py, PyAny>>,
        warn: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        // Text with lone surrogates (no UTF-8 form) raises `UnicodeEncodeError`, and the
        // drop-ins split it on the Python engine; see `checks_first` for when it is found.
        let check = self.checks_first(length.is_some());
        let units = text_of(text, check)?;
        let out = on_units!(units, t => self.run(py, t, length))?;
        let list = Self::text_list(text, units, check, &out)?;
        if let Some(warn) = warn {
            for total in &out.oversized {
                warn.call1((*total, self.inner.config().chunk_size))?;
            }
        }
        Ok(list)
    }

    /// Chunks with code-point and byte offsets, each carrying `metadata`; and the warnings.
    #[pyo3(signature = (text, metadata, length=None))]
    fn split<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        metadata: &Bound<'py, PyAny>,
        length: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyList>, Vec<usize>)> {
        // Byte offsets need UTF-8, which a lone surrogate lacks. Without a length function
        // the text is checked on the way: the offsets walk passes every character that is
        // not a space (each is in some chunk), and tell whether one had no UTF-8 form.
        let units = text_of(text, length.is_some())?;
        let native = length.and_then(native_length);
        // The spans, then UTF-8 offsets where chunks begin and end and (sized in tokens)
        // each chunk's own count, computed in Rust with the GIL released: in one release
        // unless a Python callable measures (a document of a few kB splits in microseconds).
        let computed = if length.is_some() && native.is_none() {
            let out = on_units!(units, t => self.run(py, t, length))?;
            on_units!(units, t => py.detach(|| Computed::new(t, out, None)))?
        } else if length.is_none() && on_units!(units, t => takes_whole(&self.inner, t)) {
            self.compute(units, None)?
        } else {
            py.detach(|| self.compute(units, native))?
        };
        Self::chunk_list(text, units, computed, metadata)
    }

    /// Why each chunk of `split(text)` ends where it does: the index of the separator whose
    /// gap it ends at, or -1 at the end of the text. Split again, recording (`split` does
    /// not pay for it); UTF-8, so a lone surrogate raises `UnicodeEncodeError`.
    #[pyo3(signature = (text, length=None))]
    fn cut_levels(
        &self,
        py: Python<'_>,
        text: &str,
        length: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<i64>> {
        let cuts = match length {
            Some(func) if native_length(func).is_none() => {
                let length = PyLength::new(func.clone());
                let cuts = self.inner.cuts(text, Some(&length));
                length.finish(cuts)?
            }
            _ => {
                let native = length.and_then(native_length);
                py.detach(|| self.inner.cuts(text, native.map(|l| l as &dyn Length)))?
            }
        };
        Ok(cuts
            .into_iter()
            .map(|cut| match cut {
                Cut::Separator(i) => i64::try_from(i).unwrap_or(i64::MAX),
                Cut::End => -1,
            })
            .collect())
    }
}

/// The items of `items`, `len` of them, or the first error: the vector sized up front (a
/// fallible `collect` cannot know the length and grows it by reallocation, a few per cent
/// of a short split).
fn sized<T>(len: usize, items: impl Iterator<Item = PyResult<T>>) -> PyResult<Vec<T>> {
    let mut out = Vec::with_capacity(len);
    for item in items {
        out.push(item?);
    }
    Ok(out)
}
