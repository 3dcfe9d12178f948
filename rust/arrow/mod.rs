//! Chunking Arrow record batches, column to column: the text column is read in place (UTF-8
//! already, so the core's byte path applies with no conversion and no object per row) and
//! the chunks come back as Arrow columns, one row per chunk.
//!
//! - [`input`]: the text column (`string`, `large_string`, `string_view`) and the id column.
//! - [`rows`]: one document to its chunk records (recursive splitter or Markdown).
//! - [`output`]: the output schema and the columns built from chunk records.
//!
//! A batch is cut into row ranges of about equal text size; each range is chunked and built
//! into its own output batch, in parallel on the caller's rayon pool, in input order.

pub mod input;
pub mod output;
pub mod rows;

use std::ops::Range;

use arrow_array::RecordBatch;
use rayon::prelude::*;

use crate::error::{Error, Result};
pub use input::Texts;
pub use output::{output_schema, Kinds, Layout};
pub use rows::{Chunking, RowChunker};

/// What a job saw: rows read, rows whose text was null, chunks made, and chunks longer than
/// the chunk size (the ones `split` warns about).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Input rows.
    pub rows: u64,
    /// Rows whose text was null (they give no chunks).
    pub null_texts: u64,
    /// Output rows.
    pub chunks: u64,
    /// Chunks longer than the chunk size.
    pub oversized: u64,
}

impl Stats {
    /// Adds another batch's counts.
    pub fn add(&mut self, other: Stats) {
        self.rows += other.rows;
        self.null_texts += other.null_texts;
        self.chunks += other.chunks;
        self.oversized += other.oversized;
    }
}

/// Ranges of rows, about `parts` of them, of about equal text bytes (long documents make
/// ranges of their own, so one thread never gets all the work).
fn ranges(texts: &Texts<'_>, parts: usize) -> Vec<Range<usize>> {
    let n = texts.len();
    let total: usize = (0..n).map(|i| texts.byte_len(i)).sum();
    let target = total.div_ceil(parts.max(1)).max(1);
    let mut out = Vec::with_capacity(parts);
    let (mut start, mut acc) = (0, 0);
    for i in 0..n {
        acc += texts.byte_len(i);
        if acc >= target {
            out.push(start..i + 1);
            (start, acc) = (i + 1, 0);
        }
    }
    if start < n || out.is_empty() {
        out.push(start..n);
    }
    out
}

/// Chunks one record batch whose first row is row `first_row` of the whole input; `parts`
/// is how many ranges to cut it into (1: all on the calling thread). Runs on the current
/// rayon pool; output batches are in input order.
pub fn chunk_batch(
    batch: &RecordBatch,
    first_row: usize,
    job: &Chunking<'_>,
    layout: &Layout,
    parts: usize,
) -> Result<(Vec<RecordBatch>, Stats)> {
    let texts = Texts::column(batch, &layout.text_column)?;
    let ids = match &layout.id_column {
        Some(name) => Some(Texts::column(batch, name)?),
        None => None,
    };
    let work = |range: Range<usize>| {
        output::build(batch, &texts, ids.as_ref(), range, first_row, job, layout)
    };
    let ranges = ranges(&texts, parts);
    let done: Vec<(RecordBatch, Stats)> = if parts <= 1 {
        ranges.into_iter().map(work).collect::<Result<_>>()?
    } else {
        ranges.into_par_iter().map(work).collect::<Result<_>>()?
    };
    let mut stats = Stats::default();
    let mut batches = Vec::with_capacity(done.len());
    for (out, s) in done {
        stats.add(s);
        if out.num_rows() > 0 {
            batches.push(out);
        }
    }
    Ok((batches, stats))
}

/// The error for a text column that is neither `string`, `large_string` nor `string_view`.
pub(crate) fn column_type_error(name: &str, found: &str) -> Error {
    Error::ColumnType {
        name: name.to_owned(),
        found: found.to_owned(),
    }
}
