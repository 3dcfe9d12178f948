//! `_native.chunk_files`: the CLI's batch job, run with the GIL released.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::split::PySplitter;
use crate::corpus;

/// `(jsonl, documents, chunks, bytes, skipped)` for one batch of files.
type Batch<'py> = (
    Bound<'py, PyBytes>,
    usize,
    usize,
    usize,
    Vec<(String, String)>,
);

/// Reads, splits and serialises `paths` on `threads` threads (0: one per core).
#[pyfunction]
#[allow(clippy::needless_pass_by_value)] // PyO3 hands arguments over owned
#[pyo3(signature = (paths, splitter, threads=0))]
pub fn chunk_files<'py>(
    py: Python<'py>,
    paths: Vec<String>,
    splitter: &PySplitter,
    threads: usize,
) -> PyResult<Batch<'py>> {
    let inner = splitter.core();
    let report = py.detach(|| corpus::chunk_files(&paths, inner, threads));
    let total = report.jsonl.iter().map(Vec::len).sum();
    let jsonl = PyBytes::new_with(py, total, |out| {
        let mut at = 0;
        for part in &report.jsonl {
            out[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        Ok(())
    })?;
    Ok((
        jsonl,
        report.documents,
        report.chunks,
        report.bytes,
        report.skipped,
    ))
}
