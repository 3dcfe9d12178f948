//! PyO3 bindings: the only part of the crate that knows Python. Thin wrappers that
//! convert arguments, release the GIL around core work, and build Python objects after.
//! Grouped like the core: `split`, `code`, `sentences`, `tokens/`, `markdown/`, `corpus`,
//! `batch` (many documents on a thread pool), `spans` (numpy arrays of chunk offsets),
//! `dropin` (the drop-in splitters' engine), plus the shared
//! `chunk` record, `documents` (LangChain `Document`s made here), `length` (Python callables
//! as sizes), `errors` and `ffi/` (the only `unsafe` code: reading and building Python strings
//! in CPython's own storage, the garbage collector kept out of the way, and objects made
//! without their class's `__setattr__`).

mod arrow;
mod batch;
mod chunk;
mod code;
mod corpus;
mod documents;
mod dropin;
mod errors;
mod ffi;
mod length;
mod markdown;
mod sentences;
mod spans;
mod split;
mod stream;
mod tokens;

use pyo3::prelude::*;

/// The extension module `ferrochunk._native`.
#[pymodule(gil_used = false)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<split::PySplitter>()?;
    m.add_class::<dropin::PyTextEngine>()?;
    m.add_class::<chunk::PyChunk>()?;
    m.add_function(wrap_pyfunction!(sentences::sentence_ends, m)?)?;
    m.add_function(wrap_pyfunction!(sentences::sentence_spans, m)?)?;
    m.add_class::<corpus::PyCorpusJob>()?;
    m.add_class::<batch::PyBatchIter>()?;
    m.add_class::<stream::PyFileSplitter>()?;
    m.add_function(wrap_pyfunction!(batch::split_iter, m)?)?;
    m.add_function(wrap_pyfunction!(batch::split_text_iter, m)?)?;
    m.add_function(wrap_pyfunction!(batch::markdown_iter, m)?)?;
    m.add_function(wrap_pyfunction!(batch::windows_iter, m)?)?;
    m.add_function(wrap_pyfunction!(batch::lossy_iter, m)?)?;
    m.add_function(wrap_pyfunction!(batch::resolve_threads, m)?)?;
    m.add_function(wrap_pyfunction!(batch::after_fork, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::chunk_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(spans::splitter_spans, m)?)?;
    m.add_function(wrap_pyfunction!(spans::splitter_spans_batch, m)?)?;
    m.add_function(wrap_pyfunction!(spans::markdown_spans, m)?)?;
    m.add_function(wrap_pyfunction!(spans::markdown_spans_batch, m)?)?;
    m.add_function(wrap_pyfunction!(spans::window_spans, m)?)?;
    m.add_function(wrap_pyfunction!(spans::window_spans_batch, m)?)?;
    m.add_class::<markdown::header::PyHeaderSplitter>()?;
    m.add_class::<documents::PyDocumentMaker>()?;
    m.add_class::<markdown::chunker::PyMarkdownChunker>()?;
    m.add_class::<code::PyCodeChunker>()?;
    m.add_class::<tokens::tokenizer::PyEncoder>()?;
    m.add_class::<tokens::tokenizer::PyTokenCounter>()?;
    m.add_class::<tokens::huggingface::PyHfCounter>()?;
    m.add_function(wrap_pyfunction!(
        tokens::tokenizer::encoding_name_for_model,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(tokens::tokenizer::encoding_names, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::tokenizer::clear_token_caches, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::dropin::encode_batch, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::dropin::encode_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::dropin::encode_single_piece, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::dropin::decode_tokens_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::dropin::special_counter, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::dropin::token_rank, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::dropin::mergeable_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::dropin::max_rank, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::dropin::encode_with_unstable, m)?)?;
    m.add("Unsupported", m.py().get_type::<errors::Unsupported>())?;
    Ok(())
}
