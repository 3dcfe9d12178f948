//! Chunking Arrow record batches, column to column: the text column is read in place (UTF-8
//! already, so the core's byte path applies with no conversion and no object per row) and
//! the chunks come back as Arrow columns, one row per chunk.
//!
//! - [`input`]: the text column (`string`, `large_string`, `string_view`) and the id column.
//! - [`rows`]: one document to its chunk records (recursive splitter or Markdown).
//! - [`output`]: the output schema and the columns built from chunk records.
//!
//! Batches are taken in groups (see `_native.chunk_arrow`); a group is cut into row ranges
//! of about equal text size, each chunked and built into its own output batch, in parallel
//! on the caller's rayon pool, in input order.

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

/// Ranges of rows, about `parts` of them, of about equal text bytes (`total`, the column's
/// [`Texts::total_bytes`]); long documents make ranges of their own, so one thread never
/// gets all the work.
fn ranges(texts: &Texts<'_>, total: usize, parts: usize) -> Vec<Range<usize>> {
    let n = texts.len();
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

/// Ranges per thread over a whole group of batches: enough that uneven documents even out
/// before the group's one barrier.
const RANGES_PER_THREAD: usize = 8;

/// Chunks a group of record batches, each given with the input row of its first row, in
/// one pass over `threads` threads of the current rayon pool (1: all on the calling
/// thread). One pass for the group rather than one per batch: each pass ends when its
/// slowest range does (at two threads on 201 MB in 7 batches, one pass per batch took 4-5 %
/// longer). Output batches (one per range with chunks) are in input order.
pub fn chunk_batches(
    group: &[(RecordBatch, usize)],
    job: &Chunking<'_>,
    layout: &Layout,
    threads: usize,
) -> Result<(Vec<RecordBatch>, Stats)> {
    let mut columns = Vec::with_capacity(group.len());
    for (batch, _) in group {
        let ids = match &layout.id_column {
            Some(name) => Some(Texts::column(batch, name)?),
            None => None,
        };
        columns.push((Texts::column(batch, &layout.text_column)?, ids));
    }
    let tasks = tasks(&columns, threads);
    let work = |&(b, ref range): &(usize, Range<usize>)| {
        let (batch, first_row) = &group[b];
        let (texts, ids) = &columns[b];
        output::build(
            batch,
            texts,
            ids.as_ref(),
            range.clone(),
            *first_row,
            job,
            layout,
        )
    };
    let done: Vec<(RecordBatch, Stats)> = if threads <= 1 {
        tasks.iter().map(work).collect::<Result<_>>()?
    } else {
        tasks.par_iter().map(work).collect::<Result<_>>()?
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

/// The group's work as (batch, rows) ranges in input order: each batch gets its share of
/// `threads * RANGES_PER_THREAD` ranges by text bytes; one range per batch on one thread.
fn tasks(columns: &[(Texts<'_>, Option<Texts<'_>>)], threads: usize) -> Vec<(usize, Range<usize>)> {
    let bytes: Vec<usize> = columns.iter().map(|(t, _)| t.total_bytes()).collect();
    let total = bytes.iter().sum::<usize>().max(1);
    let parts = if threads <= 1 {
        1
    } else {
        threads * RANGES_PER_THREAD
    };
    let mut out = Vec::new();
    for (b, (texts, _)) in columns.iter().enumerate() {
        let share = if threads <= 1 {
            1
        } else {
            (parts * bytes[b]).div_ceil(total)
        };
        out.extend(ranges(texts, bytes[b], share).into_iter().map(|r| (b, r)));
    }
    out
}

/// The error for a text column that is neither `string`, `large_string` nor `string_view`.
pub(crate) fn column_type_error(name: &str, found: &str) -> Error {
    Error::ColumnType {
        name: name.to_owned(),
        found: found.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, StringArray};

    use super::*;

    fn batch(rows: &[Option<&str>]) -> RecordBatch {
        let texts: ArrayRef = Arc::new(StringArray::from(rows.to_vec()));
        RecordBatch::try_from_iter([("text", texts)]).unwrap()
    }

    #[test]
    fn tasks_cover_every_row_once_in_order() {
        let long = "x".repeat(1000);
        let batches = [
            batch(&[Some("ab"), None, Some(&long), Some("c")]),
            batch(&[]),
            batch(&[Some(long.as_str()); 7]),
        ];
        let columns: Vec<_> = batches
            .iter()
            .map(|b| (Texts::column(b, "text").unwrap(), None))
            .collect();
        for threads in [1, 2, 3] {
            let tasks = tasks(&columns, threads);
            for (b, column) in columns.iter().enumerate() {
                let rows: Vec<usize> = tasks
                    .iter()
                    .filter(|(t, _)| *t == b)
                    .flat_map(|(_, r)| r.clone())
                    .collect();
                assert_eq!(rows, (0..column.0.len()).collect::<Vec<_>>(), "{threads}");
            }
            let order: Vec<usize> = tasks.iter().map(|(b, _)| *b).collect();
            assert!(order.windows(2).all(|w| w[0] <= w[1]));
            if threads > 1 {
                assert!(tasks.iter().filter(|(b, _)| *b == 2).count() > 1);
            }
        }
    }
}
