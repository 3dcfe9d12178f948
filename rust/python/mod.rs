//! PyO3 bindings: the only part of the crate that knows Python. Thin wrappers that
//! convert arguments, release the GIL around core work, and build Python objects after.

mod chunk;
mod corpus;
mod errors;
mod hf_tokens;
mod length;
mod markdown;
mod markdown_build;
mod markdown_header;
mod splitter;
mod strings;
mod tokens;

use pyo3::prelude::*;

/// The extension module `ferrochunk._native`.
#[pymodule(gil_used = false)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<splitter::PySplitter>()?;
    m.add_class::<chunk::PyChunk>()?;
    m.add_function(wrap_pyfunction!(corpus::chunk_files, m)?)?;
    m.add_class::<markdown_header::PyHeaderSplitter>()?;
    m.add_class::<markdown::PyMarkdownChunker>()?;
    m.add_class::<tokens::PyEncoder>()?;
    m.add_class::<tokens::PyTokenCounter>()?;
    m.add_class::<hf_tokens::PyHfCounter>()?;
    m.add_function(wrap_pyfunction!(tokens::encoding_name_for_model, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::encoding_names, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::clear_token_caches, m)?)?;
    m.add("Unsupported", m.py().get_type::<errors::Unsupported>())?;
    Ok(())
}
