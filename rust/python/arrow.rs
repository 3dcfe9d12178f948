//! `_native.chunk_arrow`: Arrow data in (any object with `__arrow_c_stream__` or
//! `__arrow_c_array__`, read in place through pyo3-arrow), one row per chunk out, with the
//! GIL released while each batch is chunked on `threads` threads.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3_arrow::input::AnyArray;
use pyo3_arrow::PyTable;

use super::errors::Unsupported;
use super::markdown::chunker::PyMarkdownChunker;
use super::split::{native_length, PySplitter};
use crate::arrow::{chunk_batches, output_schema, Chunking, Kinds, RowChunker, Stats, Texts};
use crate::error::Error;
use crate::parallel;

/// `(rows, null_texts, chunks, oversized)`.
type Counts = (u64, u64, u64, u64);

/// Input text held back to chunk in one parallel pass, per thread: enough that a pass is
/// long next to its ending (the slowest range), small next to the output, which the table
/// returned holds in full anyway.
const GROUP_BYTES_PER_THREAD: usize = 64 << 20;

/// Batches read and not chunked yet, each with the input row of its first row.
#[derive(Default)]
struct Group {
    batches: Vec<(RecordBatch, usize)>,
    bytes: usize,
}

/// The record batch of one array of the stream: a struct array's fields are the columns; a
/// string array (a `ChunkedArray` or `Array` of texts) is one column named `text_column`.
fn as_batch(array: ArrayRef, text_column: &str) -> PyResult<RecordBatch> {
    if let DataType::Struct(_) = array.data_type() {
        // A null struct row has no columns to read (arrow-rs panics converting one).
        if array.null_count() > 0 {
            return Err(PyValueError::new_err(
                "a struct array with null rows is no table: drop or fill them first \
                 (pyarrow.compute.drop_null)",
            ));
        }
        return Ok(RecordBatch::from(array.as_struct().clone()));
    }
    let field = Field::new(text_column, array.data_type().clone(), true);
    RecordBatch::try_new(Arc::new(Schema::new(vec![field])), vec![array])
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The input's schema as record batches (see [`as_batch`]).
fn batch_schema(field: &Field, text_column: &str) -> Schema {
    match field.data_type() {
        DataType::Struct(fields) => Schema::new(fields.clone()),
        other => Schema::new(vec![Field::new(text_column, other.clone(), true)]),
    }
}

/// The row chunker behind `chunker` (a native `Splitter` or `MarkdownChunker`).
fn row_chunker<'a>(
    chunker: &'a Bound<'_, PyAny>,
    parent_size: Option<usize>,
) -> PyResult<(RowChunker<'a>, Option<&'a str>)> {
    if let Ok(splitter) = chunker.cast::<PySplitter>() {
        return Ok((RowChunker::Split(splitter.get().core()), None));
    }
    if let Ok(markdown) = chunker.cast::<PyMarkdownChunker>() {
        let (chunker, settings) = markdown.get().core();
        return Ok((
            RowChunker::Markdown {
                chunker,
                parent_size,
            },
            Some(settings),
        ));
    }
    Err(PyTypeError::new_err(
        "chunker must be a native Splitter or MarkdownChunker",
    ))
}

/// Chunks every row of `data`'s `text_column`; returns a `pyarrow.Table` and the counts.
#[pyfunction]
#[pyo3(signature = (data, chunker, length, settings, text_column, id_column, keep_columns, threads=None, parent_size=None, chunk_ids=true))]
#[allow(clippy::too_many_arguments, clippy::needless_pass_by_value)] // the Python keywords
pub fn chunk_arrow<'py>(
    py: Python<'py>,
    data: AnyArray,
    chunker: &Bound<'py, PyAny>,
    length: Option<Bound<'py, PyAny>>,
    settings: &str,
    text_column: &str,
    id_column: Option<&str>,
    keep_columns: Vec<String>,
    threads: Option<usize>,
    parent_size: Option<usize>,
    chunk_ids: bool,
) -> PyResult<(Bound<'py, PyAny>, Counts)> {
    let length = match &length {
        None => None,
        Some(func) => Some(native_length(func).ok_or_else(|| {
            Unsupported::new_err("a Python length_function: the Python path chunks these rows")
        })?),
    };
    let (row_chunker, md_settings) = row_chunker(chunker, parent_size)?;
    let job = Chunking {
        chunker: row_chunker,
        length,
        settings: md_settings.unwrap_or(settings),
        ids: chunk_ids,
    };
    let reader = data.into_reader()?;
    let input = batch_schema(&reader.field(), text_column);
    let markdown = matches!(job.chunker, RowChunker::Markdown { .. });
    let layout = output_schema(
        &input,
        text_column,
        id_column,
        &keep_columns,
        Kinds {
            markdown,
            parents: parent_size.is_some(),
            ids: chunk_ids,
        },
    )?;
    if input.index_of(text_column).is_err() {
        // Checked up front, so an empty input fails the same way as a full one.
        let names: Vec<String> = input
            .fields()
            .iter()
            .map(|f| format!("{:?}", f.name()))
            .collect();
        Err(Error::MissingColumn {
            name: text_column.to_owned(),
            available: names.join(", "),
        })?;
    }
    // The shared thread rules and fork-safe pools (crate::parallel), as every batch call.
    let threads = parallel::resolve(threads)?;
    let (mut batches, mut stats, mut first_row) = (Vec::new(), Stats::default(), 0);
    let mut group = Group::default();
    let (job, layout) = (&job, &layout);
    let mut flush = |group: &mut Group| -> PyResult<()> {
        let taken = std::mem::take(group);
        let (out, counts) = py.detach(move || {
            parallel::run(threads, || {
                chunk_batches(&taken.batches, job, layout, threads)
            })
        })??;
        batches.extend(out);
        stats.add(counts);
        Ok(())
    };
    for array in reader {
        // Reading the next batch may call back into the producer: done holding the GIL.
        let batch = as_batch(
            array.map_err(|e| PyValueError::new_err(e.to_string()))?,
            text_column,
        )?;
        let rows = batch.num_rows();
        group.bytes += Texts::column(&batch, text_column)?.total_bytes();
        group.batches.push((batch, first_row));
        first_row += rows;
        if group.bytes >= GROUP_BYTES_PER_THREAD * threads {
            flush(&mut group)?;
        }
    }
    if !group.batches.is_empty() {
        flush(&mut group)?;
    }
    let table = PyTable::try_new(batches, layout.schema.clone())?.into_pyarrow(py)?;
    let counts = (stats.rows, stats.null_texts, stats.chunks, stats.oversized);
    Ok((table, counts))
}
