//! What `ferrochunk.tiktoken.Encoding` needs beyond `Encoder` and `TokenCounter`: batches
//! encoded on the pool with the GIL released, tiktoken's byte-level entry points, and
//! counters for special tokens an `Encoding` was given (not the bundled ones).

// PyO3 extracts arguments as owned values.
#![allow(clippy::needless_pass_by_value)]

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use rayon::prelude::*;

use super::tokenizer::{PyEncoder, PyTokenCounter};
use crate::python::ffi::{checked_utf8, text_of, utf8_of};
use crate::tokens::unstable::Unstable;
use crate::tokens::{SpecialPolicy, TokenLength};

/// tiktoken's `encode_batch` under a counter's policy: the texts are read in place under
/// the GIL, converted to UTF-8 and encoded on the pool without it; the first error in text
/// order is raised (as tiktoken's thread pool raises it). A lone surrogate raises
/// `UnicodeEncodeError` before any work (the caller replaces them, as tiktoken does).
/// `threads` of our fork-safe pool (rayon's global one would hang in a forked child).
#[pyfunction]
pub fn encode_batch(
    py: Python<'_>,
    counter: &Bound<'_, PyTokenCounter>,
    texts: Vec<Bound<'_, PyString>>,
    threads: usize,
) -> PyResult<Vec<Vec<u32>>> {
    let length = counter.get().length();
    let units = texts
        .iter()
        .map(|text| text_of(text, true))
        .collect::<PyResult<Vec<_>>>()?;
    let threads = crate::parallel::resolve(Some(threads))?;
    let results = py.detach(|| {
        crate::parallel::run(threads, || {
            units
                .par_iter()
                .map(|&text| {
                    let utf8: Cow<'_, str> = utf8_of(text);
                    length.tokenizer.encode(&utf8, &length.policy)
                })
                .collect::<Vec<_>>()
        })
    })?;
    Ok(results.into_iter().collect::<crate::Result<Vec<_>>>()?)
}

/// tiktoken's `_encode_bytes`: bytes that need not be UTF-8 (`tokens::bytes`).
#[pyfunction]
pub fn encode_bytes(py: Python<'_>, encoder: &Bound<'_, PyEncoder>, data: &[u8]) -> Vec<u32> {
    let tokenizer = *encoder.get().core();
    py.detach(|| tokenizer.encode_bytes(data))
}

/// tiktoken's `_encode_single_piece`: BPE of the bytes as one piece.
#[pyfunction]
pub fn encode_single_piece(
    py: Python<'_>,
    encoder: &Bound<'_, PyEncoder>,
    data: &[u8],
) -> Vec<u32> {
    let tokenizer = *encoder.get().core();
    py.detach(|| tokenizer.encode_single_piece(data))
}

/// tiktoken's `decode_tokens_bytes`: each token's bytes (`KeyError` for an unknown id).
#[pyfunction]
pub fn decode_tokens_bytes<'py>(
    py: Python<'py>,
    encoder: &Bound<'py, PyEncoder>,
    ids: Vec<u32>,
) -> PyResult<Bound<'py, PyList>> {
    let tokenizer = encoder.get().core();
    let list = PyList::empty(py);
    for id in ids {
        list.append(PyBytes::new(py, tokenizer.token_bytes(id)?))?;
    }
    Ok(list)
}

/// A counter whose special tokens are the given `(text, id)` pairs rather than the
/// encoding's own (an `Encoding` built with other special tokens on bundled ranks):
/// `allowed` are encoded as their ids, `disallowed` texts make encoding fail.
#[pyfunction]
pub fn special_counter(
    encoder: &Bound<'_, PyEncoder>,
    allowed: Vec<(String, u32)>,
    disallowed: Vec<String>,
) -> PyTokenCounter {
    PyTokenCounter::from_length(TokenLength {
        tokenizer: *encoder.get().core(),
        policy: SpecialPolicy {
            allowed,
            disallowed,
        },
    })
}

/// The rank of `data` if it is a mergeable token (`encode_single_token` without specials).
#[pyfunction]
pub fn token_rank(encoder: &Bound<'_, PyEncoder>, data: &[u8]) -> Option<u32> {
    encoder.get().core().ranks().rank(data)
}

/// The bytes of the mergeable token `id`, if it is one (special tokens are not).
#[pyfunction]
pub fn mergeable_bytes<'py>(
    py: Python<'py>,
    encoder: &Bound<'py, PyEncoder>,
    id: u32,
) -> Option<Bound<'py, PyBytes>> {
    let token = encoder.get().core().ranks().token(id)?;
    Some(PyBytes::new(py, token))
}

/// The highest mergeable rank (tiktoken's `max(mergeable_ranks.values())`).
#[pyfunction]
pub fn max_rank(encoder: &Bound<'_, PyEncoder>) -> u32 {
    encoder.get().core().ranks().max_rank()
}

/// tiktoken's `encode_with_unstable` under a counter's policy: the stable tokens and the
/// possible completions of the rest (sorted), the GIL released.
#[pyfunction]
pub fn encode_with_unstable(
    py: Python<'_>,
    counter: &Bound<'_, PyTokenCounter>,
    text: &Bound<'_, PyString>,
) -> PyResult<Unstable> {
    let length = counter.get().length();
    let (_, utf8) = checked_utf8(py, text)?;
    Ok(py.detach(|| length.tokenizer.encode_with_unstable(&utf8, &length.policy))?)
}
