//! `_native.Encoder` (a bundled BPE encoding) and `_native.TokenCounter` (an encoding plus a
//! special-token policy, usable as a splitter's length without a Python call per piece).

// PyO3 extracts arguments as owned values.
#![allow(clippy::needless_pass_by_value)]

use std::borrow::Cow;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use rayon::prelude::*;

use super::windows::{window_list, window_parts};
use crate::python::chunk::PyChunk;
use crate::python::ffi::{checked_utf8, collector_paused, text_of, utf8_of};
use crate::text::CharCursor;
use crate::tokens::bpe::PARALLEL_MIN;
use crate::tokens::encodings::{encoding_for_model, names};
use crate::tokens::tokenizer::{
    token_offsets, token_windows, SpecialPolicy, TokenLength, Tokenizer,
};

/// `(byte_start, byte_end, start, end, token_count)` of one token window.
pub type WindowSpan = (usize, usize, usize, usize, usize);

/// What `__reduce__` returns: the class and its constructor arguments.
type Reduced<'py> = (Bound<'py, PyAny>, Bound<'py, PyTuple>);

/// `alone(text)` on this thread, or `spread(text)` on the pool for a text of
/// [`PARALLEL_MIN`] bytes or more (the tokenizer's `*_in_parallel` methods, which spread it
/// over the pool's threads); a short text stays here, as it always did.
fn by_size<R: Send>(
    text: &str,
    alone: impl FnOnce(&str) -> crate::error::Result<R>,
    spread: impl FnOnce(&str) -> crate::error::Result<R> + Send,
) -> crate::error::Result<R> {
    let threads = match text.len() {
        PARALLEL_MIN.. => crate::parallel::resolve(None)?,
        _ => 1,
    };
    match threads {
        1 => alone(text),
        _ => crate::parallel::run(threads, || spread(text))?,
    }
}

/// [`Tokenizer::encode`], on the pool for a long text ([`by_size`]).
fn encode_by_size(
    tokenizer: Tokenizer,
    text: &str,
    policy: &SpecialPolicy,
) -> crate::error::Result<Vec<u32>> {
    by_size(
        text,
        |t| tokenizer.encode(t, policy),
        |t| tokenizer.encode_in_parallel(t, policy),
    )
}

/// One of tiktoken's encodings, with its ranks bundled in the binary.
#[pyclass(frozen, name = "Encoder", module = "ferrochunk._native")]
pub struct PyEncoder {
    inner: Tokenizer,
}

fn strs(items: &[String]) -> Vec<&str> {
    items.iter().map(String::as_str).collect()
}

impl PyEncoder {
    /// tiktoken's special-token policy from explicit allowed and disallowed lists.
    pub fn policy(&self, allowed: &[String], disallowed: &[String]) -> SpecialPolicy {
        self.inner.policy(&strs(allowed), Some(&strs(disallowed)))
    }
}

#[pymethods]
impl PyEncoder {
    #[new]
    fn new(name: &str) -> PyResult<Self> {
        Ok(Self {
            inner: Tokenizer::new(name)?,
        })
    }

    /// The encoding's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// Pickles by name: the ranks are bundled, so the worker rebuilds the same encoding
    /// and the pickle stays a few bytes.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let args = (slf.get().inner.name(),).into_pyobject(slf.py())?;
        Ok((slf.get_type().into_any(), args))
    }

    /// tiktoken's regex for the pre-tokenizer (what `tiktoken.Encoding` needs as `pat_str`).
    #[getter]
    fn pattern(&self) -> &'static str {
        crate::tokens::encodings::pattern(self.inner.spec().dialect)
    }

    /// `explicit_n_vocab`, when tiktoken sets one.
    #[getter]
    fn explicit_n_vocab(&self) -> Option<u32> {
        self.inner.spec().explicit_n_vocab
    }

    /// Special tokens and their ids.
    fn special_tokens<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (text, id) in self.inner.spec().special() {
            dict.set_item(*text, *id)?;
        }
        Ok(dict)
    }

    /// The mergeable ranks as tiktoken takes them: `{token bytes: rank}`.
    fn mergeable_ranks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (rank, token) in self.inner.ranks().tokens().iter().enumerate() {
            if !token.is_empty() {
                dict.set_item(PyBytes::new(py, token), rank)?;
            }
        }
        Ok(dict)
    }

    /// tiktoken's `encode_ordinary`. Like every method here that takes text, it reads the
    /// `str` where CPython keeps it and converts it to UTF-8 itself, into a copy dropped
    /// after (CPython would keep its own inside the string); a lone surrogate raises
    /// `UnicodeEncodeError` (the caller replaces them as tiktoken does, and retries).
    fn encode_ordinary(&self, py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<Vec<u32>> {
        self.encode(py, text, Vec::new(), Vec::new())
    }

    /// tiktoken's `encode` with explicit allowed and disallowed lists.
    fn encode(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyString>,
        allowed: Vec<String>,
        disallowed: Vec<String>,
    ) -> PyResult<Vec<u32>> {
        encode(py, self.inner, &self.policy(&allowed, &disallowed), text)
    }

    /// `len(encode(...))` without building the ids; a text of a megabyte or more across the
    /// pool's threads.
    fn count(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyString>,
        allowed: Vec<String>,
        disallowed: Vec<String>,
    ) -> PyResult<usize> {
        count(py, self.inner, &self.policy(&allowed, &disallowed), text)
    }

    /// Counts of many texts, across cores with the GIL released: the texts are read in
    /// place under the GIL, then converted to UTF-8 and counted on the pool without it.
    fn count_batch(
        &self,
        py: Python<'_>,
        texts: Vec<Bound<'_, PyString>>,
        allowed: Vec<String>,
        disallowed: Vec<String>,
    ) -> PyResult<Vec<usize>> {
        let policy = self.policy(&allowed, &disallowed);
        let units = texts
            .iter()
            .map(|text| text_of(text, true))
            .collect::<PyResult<Vec<_>>>()?;
        // On our fork-safe pool (rayon's global one would hang in a forked child).
        let threads = crate::parallel::resolve(None)?;
        Ok(py.detach(|| {
            crate::parallel::run(threads, || {
                let utf8: Vec<Cow<'_, str>> = units.par_iter().map(|&text| utf8_of(text)).collect();
                let texts: Vec<&str> = utf8.iter().map(|t| &**t).collect();
                self.inner.count_batch(&texts, &policy)
            })
        })??)
    }

    /// tiktoken's `decode_bytes`.
    fn decode_bytes<'py>(&self, py: Python<'py>, ids: Vec<u32>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py.detach(|| self.inner.decode_bytes(&ids))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// LangChain's `TokenTextSplitter.split_text`: encode, then decode windows of `size` ids
    /// stepping by `size - overlap` (U+FFFD where a window cuts a character). The text is
    /// read where CPython keeps it and converted to UTF-8 here, into a copy dropped after
    /// (CPython would keep its own inside the string); a lone surrogate raises
    /// `UnicodeEncodeError` (the caller replaces them as tiktoken does, and retries).
    fn split_lossy<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        size: usize,
        overlap: usize,
        allowed: Vec<String>,
        disallowed: Vec<String>,
    ) -> PyResult<Bound<'py, PyList>> {
        let policy = self.policy(&allowed, &disallowed);
        split_lossy(py, &self.inner, &policy, text, (size, overlap))
    }

    /// Token windows that are exact spans of `text` (see `tokens::token_windows`), as chunks.
    fn windows<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        size: usize,
        overlap: usize,
        metadata: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        // Converted here, not by `to_str` (which would keep CPython's copy in the string).
        let (_, utf8) = checked_utf8(py, text)?;
        let spans = py.detach(|| self.window_spans(&utf8, size, overlap))?;
        Self::window_list(py, &utf8, &spans, &metadata)
    }
}

impl PyEncoder {
    /// The core tokenizer.
    pub fn core(&self) -> &Tokenizer {
        &self.inner
    }

    /// `windows`' native work: the spans with both offsets and token counts.
    pub fn window_spans(
        &self,
        source: &str,
        size: usize,
        overlap: usize,
    ) -> crate::Result<Vec<WindowSpan>> {
        let inner = &self.inner;
        let ids = inner.encode_ordinary(source);
        let offsets = token_offsets(inner, &ids)?;
        let mut cursor = CharCursor::new(source, source.is_ascii());
        Ok(token_windows(&offsets, size, overlap, source)
            .into_iter()
            .map(|(a, b, n)| {
                let start = cursor.char_offset(a);
                (a, b, start, cursor.char_offset(b), n)
            })
            .collect())
    }

    /// `windows`' `Chunk` objects.
    pub fn window_list<'py>(
        py: Python<'py>,
        source: &str,
        spans: &[WindowSpan],
        metadata: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        collector_paused(py, || {
            let list = PyList::empty(py);
            for (index, &(a, b, start, end, n)) in spans.iter().enumerate() {
                let chunk = PyChunk::new(
                    PyString::new(py, &source[a..b]).unbind(),
                    start,
                    end,
                    a,
                    b,
                    index,
                    metadata.clone().unbind(),
                    Some(n),
                );
                let chunk = chunk.into_object(py)?;
                list.append(chunk)?;
            }
            Ok(list)
        })
    }
}

/// `encode` of `Encoder` and `TokenCounter`: tiktoken's, on the pool for a long text.
fn encode(
    py: Python<'_>,
    tokenizer: Tokenizer,
    policy: &SpecialPolicy,
    text: &Bound<'_, PyString>,
) -> PyResult<Vec<u32>> {
    let (_, utf8) = checked_utf8(py, text)?;
    Ok(py.detach(|| encode_by_size(tokenizer, &utf8, policy))?)
}

/// `count` of `Encoder` and `TokenCounter`: `len(encode(...))` without building the ids; a
/// text of a megabyte or more across the pool's threads.
fn count(
    py: Python<'_>,
    tokenizer: Tokenizer,
    policy: &SpecialPolicy,
    text: &Bound<'_, PyString>,
) -> PyResult<usize> {
    let (_, utf8) = checked_utf8(py, text)?;
    Ok(py.detach(|| {
        by_size(
            &utf8,
            |t| tokenizer.count(t, policy),
            |t| tokenizer.count_in_parallel(t, policy),
        )
    })?)
}

/// `split_lossy` of `Encoder` and `TokenCounter`: LangChain's `TokenTextSplitter` windows of
/// `text`, encoded by `tokenizer` under `policy`.
fn split_lossy<'py>(
    py: Python<'py>,
    tokenizer: &Tokenizer,
    policy: &SpecialPolicy,
    text: &Bound<'py, PyString>,
    (size, overlap): (usize, usize),
) -> PyResult<Bound<'py, PyList>> {
    let (units, text) = checked_utf8(py, text)?;
    let windows = py.detach(|| {
        let ids = encode_by_size(*tokenizer, &text, policy)?;
        window_parts(tokenizer, &text, &ids, (size, overlap))
    })?;
    window_list(py, units, &windows)
}

/// An encoding and a special-token policy: a `length_function` the native splitter runs in
/// Rust (no Python call per piece), and a plain callable everywhere else.
#[pyclass(frozen, name = "TokenCounter", module = "ferrochunk._native")]
pub struct PyTokenCounter {
    inner: TokenLength,
}

impl PyTokenCounter {
    /// The core length this counter stands for.
    pub fn length(&self) -> &TokenLength {
        &self.inner
    }

    /// A counter of any length, special tokens of the caller's choosing included (its
    /// `__reduce__` keeps only the encoding's own special tokens: pickle what made it).
    pub fn from_length(inner: TokenLength) -> Self {
        Self { inner }
    }
}

#[pymethods]
impl PyTokenCounter {
    #[new]
    fn new(encoder: &Bound<'_, PyEncoder>, allowed: Vec<String>, disallowed: Vec<String>) -> Self {
        let encoder = encoder.get();
        Self {
            inner: TokenLength {
                tokenizer: encoder.inner,
                policy: encoder.policy(&allowed, &disallowed),
            },
        }
    }

    /// The number of tokens of `text` (tiktoken's `len(encode(text, ...))`).
    fn __call__(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<usize> {
        let Ok(text) = text.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "expected str, got {}",
                text.get_type().name()?
            )));
        };
        let inner = &self.inner;
        if let Ok((_, utf8)) = checked_utf8(py, text) {
            // Converted here, not by `to_str` (which would keep CPython's copy in the string).
            return Ok(py.detach(|| inner.tokenizer.count(&utf8, &inner.policy))?);
        }
        // Lone surrogates: replaced by U+FFFD first, as tiktoken's `encode` does.
        let cleaned = text
            .call_method1("encode", ("utf-16", "surrogatepass"))?
            .call_method1("decode", ("utf-16", "replace"))?;
        let cleaned = cleaned.cast::<PyString>()?.to_str()?;
        Ok(py.detach(|| inner.tokenizer.count(cleaned, &inner.policy))?)
    }

    /// The encoding's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.tokenizer.name()
    }

    /// `Encoder.encode` under this counter's policy, which is not rebuilt per call (for a
    /// short text that was most of the call).
    fn encode(&self, py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<Vec<u32>> {
        encode(py, self.inner.tokenizer, &self.inner.policy, text)
    }

    /// `Encoder.count` under this counter's policy.
    fn count(&self, py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<usize> {
        count(py, self.inner.tokenizer, &self.inner.policy, text)
    }

    /// `Encoder.split_lossy` under this counter's policy (a `TokenTextSplitter` splitting
    /// many short documents spent a fifth of each call on building it).
    fn split_lossy<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        size: usize,
        overlap: usize,
    ) -> PyResult<Bound<'py, PyList>> {
        let inner = &self.inner;
        split_lossy(py, &inner.tokenizer, &inner.policy, text, (size, overlap))
    }

    /// Pickles by the encoding's name and the special-token lists (no rank table inside),
    /// so splitters sized by it travel to worker processes (Ray, Dask, multiprocessing).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let inner = &slf.get().inner;
        let encoder = Bound::new(
            py,
            PyEncoder {
                inner: inner.tokenizer,
            },
        )?;
        let allowed: Vec<&str> = inner
            .policy
            .allowed
            .iter()
            .map(|(s, _)| s.as_str())
            .collect();
        let args = (encoder, allowed, &inner.policy.disallowed).into_pyobject(py)?;
        let class = py.get_type::<PyTokenCounter>().into_any();
        Ok((class, args))
    }

    /// Immutable, so a copy is the counter itself (as `copy` treats functions): splitters
    /// holding one deep-copy like LangChain's, whose length is a closure.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// See `__copy__`.
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    /// Marks a length that counts tokens: `Splitter.split` then fills `Chunk.token_count`.
    #[classattr]
    fn counts_tokens() -> bool {
        true
    }
}

/// tiktoken's `encoding_name_for_model` (raises `KeyError` for unknown models).
#[pyfunction]
pub fn encoding_name_for_model(model: &str) -> PyResult<&'static str> {
    Ok(encoding_for_model(model)?)
}

/// Marks every thread's cache of merged pieces stale (lazy, per thread: each thread drops
/// its own at its next count or encode; see `tokens::bpe::clear_caches`).
#[pyfunction]
pub fn clear_token_caches() {
    crate::tokens::bpe::clear_caches();
}

/// The names of the bundled encodings.
#[pyfunction]
pub fn encoding_names() -> Vec<&'static str> {
    names()
}
