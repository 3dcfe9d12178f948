//! The output schema (one row per chunk) and the columns built from chunk records.
//!
//! Columns, in order: `row`, `chunk_index`, `start`, `end`, `byte_start`, `byte_end` (int64;
//! offsets in code points and UTF-8 bytes into the row's text), `text` (`large_string`, so a
//! batch of chunks never overflows 32-bit offsets even with overlap), `token_count` (int64,
//! null unless the chunker counts tokens), `chunk_id`, `document_id`; for Markdown
//! `heading_path` (list of string: the headings over the chunk's first block),
//! `heading_paths` (list of list of string: every path the chunk covers, in order),
//! `main_heading_path` (the one holding most of it), `continuation` (bool), `table_header`
//! (string, null unless a cut table repeats its header), and `parent_id` with parents; then
//! the kept columns, repeated for each chunk of their row. docs/engines.md documents the
//! same (schema version 2).

use std::ops::Range;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Int64Builder, LargeStringBuilder, ListBuilder, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch, UInt64Array};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use super::input::Texts;
use super::rows::{Chunking, RowOutput};
use super::Stats;
use crate::error::{Error, Result};

/// Columns every output has, in order.
pub const BASE_COLUMNS: [&str; 10] = [
    "row",
    "chunk_index",
    "start",
    "end",
    "byte_start",
    "byte_end",
    "text",
    "token_count",
    "chunk_id",
    "document_id",
];

/// Where things are in the input, and the output schema.
pub struct Layout {
    /// The text column's name.
    pub text_column: String,
    /// The document-id column's name, if ids come from the input.
    pub id_column: Option<String>,
    /// Indices of the input columns to repeat per chunk.
    pub keep: Vec<usize>,
    /// The output schema.
    pub schema: SchemaRef,
    markdown: bool,
    parents: bool,
    ids: bool,
}

fn int64(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Int64, nullable)
}

/// The layout for an input of schema `input`: `chunk_id` when `ids`, the Markdown columns
/// when `markdown`, `parent_id` too when `parents`, and the `keep` columns (by name) at the
/// end.
pub fn output_schema(
    input: &Schema,
    text_column: &str,
    id_column: Option<&str>,
    keep: &[String],
    kinds: Kinds,
) -> Result<Layout> {
    let Kinds {
        markdown,
        parents,
        ids,
    } = kinds;
    let mut fields: Vec<Field> = BASE_COLUMNS[..6].iter().map(|n| int64(n, false)).collect();
    fields.push(Field::new("text", DataType::LargeUtf8, false));
    fields.push(int64("token_count", true));
    if ids {
        fields.push(Field::new("chunk_id", DataType::Utf8, false));
    }
    fields.push(Field::new("document_id", DataType::Utf8, false));
    if markdown {
        let path = DataType::List(Arc::new(Field::new_list_field(DataType::Utf8, true)));
        let paths = DataType::List(Arc::new(Field::new_list_field(path.clone(), true)));
        fields.push(Field::new("heading_path", path.clone(), false));
        fields.push(Field::new("heading_paths", paths, false));
        fields.push(Field::new("main_heading_path", path, false));
        fields.push(Field::new("continuation", DataType::Boolean, false));
        fields.push(Field::new("table_header", DataType::Utf8, true));
        if parents {
            fields.push(Field::new("parent_id", DataType::Utf8, true));
        }
    }
    let mut indices = Vec::with_capacity(keep.len());
    for name in keep {
        if fields.iter().any(|f| f.name() == name) {
            return Err(Error::ColumnClash(name.clone()));
        }
        let index = input.index_of(name).map_err(|_| Error::MissingColumn {
            name: name.clone(),
            available: quoted(input),
        })?;
        fields.push(input.field(index).clone());
        indices.push(index);
    }
    Ok(Layout {
        text_column: text_column.to_owned(),
        id_column: id_column.map(str::to_owned),
        keep: indices,
        schema: Arc::new(Schema::new(fields)),
        markdown,
        parents,
        ids,
    })
}

/// Which optional columns an output has.
#[derive(Debug, Clone, Copy)]
pub struct Kinds {
    /// The Markdown columns.
    pub markdown: bool,
    /// `parent_id` (Markdown with parents).
    pub parents: bool,
    /// `chunk_id`.
    pub ids: bool,
}

/// Offsets and counts as Arrow's int64 (they never come near 2^63 in practice).
fn int64_of(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn quoted(schema: &Schema) -> String {
    let names: Vec<String> = schema
        .fields()
        .iter()
        .map(|f| format!("{:?}", f.name()))
        .collect();
    names.join(", ")
}

/// A row's chunks with its index in the batch, its row in the input and its text.
type Chunked<'a> = (usize, usize, &'a str, RowOutput);

/// Column builders for one output batch.
struct Columns {
    ints: [Int64Builder; 6],
    text: LargeStringBuilder,
    tokens: Int64Builder,
    id: StringBuilder,
    doc: StringBuilder,
    path: ListBuilder<StringBuilder>,
    paths: ListBuilder<ListBuilder<StringBuilder>>,
    main_path: ListBuilder<StringBuilder>,
    continuation: BooleanBuilder,
    header: StringBuilder,
    parent: StringBuilder,
    /// Input row (within the batch) of each chunk, for the kept columns.
    take: Vec<u64>,
}

impl Columns {
    /// Builders sized for `outputs` up front: growing them by doubling copied the text
    /// column several times over and faulted in fresh pages for each copy.
    fn for_rows(outputs: &[Chunked<'_>], markdown: bool) -> Self {
        let chunks: usize = outputs.iter().map(|(.., o)| o.chunks.len()).sum();
        let text: usize = outputs
            .iter()
            .flat_map(|(.., o)| &o.chunks)
            .map(|c| c.bytes.1 - c.bytes.0)
            .sum();
        let docs: usize = outputs
            .iter()
            .map(|(.., o)| o.document_id.len() * o.chunks.len())
            .sum();
        let ids: usize = outputs
            .iter()
            .flat_map(|(.., o)| &o.chunks)
            .map(|c| c.id.len())
            .sum();
        // Markdown's columns stay unsized when unused (and grow as needed when used).
        let md = if markdown { chunks } else { 0 };
        Self {
            ints: std::array::from_fn(|_| Int64Builder::with_capacity(chunks)),
            text: LargeStringBuilder::with_capacity(chunks, text),
            tokens: Int64Builder::with_capacity(chunks),
            id: StringBuilder::with_capacity(chunks, ids),
            doc: StringBuilder::with_capacity(chunks, docs),
            path: ListBuilder::with_capacity(StringBuilder::new(), md),
            paths: ListBuilder::with_capacity(ListBuilder::new(StringBuilder::new()), md),
            main_path: ListBuilder::with_capacity(StringBuilder::new(), md),
            continuation: BooleanBuilder::with_capacity(md),
            header: StringBuilder::with_capacity(md, 0),
            parent: StringBuilder::with_capacity(md, md * 32),
            take: Vec::with_capacity(chunks),
        }
    }

    /// Appends the chunks of input row `index` (row `row` of the whole input).
    fn push(&mut self, text: &str, out: &RowOutput, index: usize, row: usize) {
        for (k, c) in out.chunks.iter().enumerate() {
            let ints = [row, k, c.chars.0, c.chars.1, c.bytes.0, c.bytes.1];
            for (builder, value) in self.ints.iter_mut().zip(ints) {
                builder.append_value(int64_of(value));
            }
            self.text.append_value(&text[c.bytes.0..c.bytes.1]);
            self.tokens.append_option(c.tokens.map(int64_of));
            self.id.append_value(&c.id);
            self.doc.append_value(&out.document_id);
            if let Some(md) = &c.markdown {
                self.path.append_value(md.path.iter().map(Some));
                for path in &md.coverage.paths {
                    self.paths.values().append_value(path.iter().map(Some));
                }
                self.paths.append(true);
                let main = md.coverage.main_path();
                self.main_path.append_value(main.iter().map(Some));
                self.continuation.append_value(md.continuation);
                self.header
                    .append_option(md.header.map(|(a, b)| &text[a..b]));
                self.parent.append_option(md.parent_id.as_deref());
            }
            self.take.push(index as u64);
        }
    }

    fn finish(mut self, batch: &RecordBatch, layout: &Layout) -> Result<RecordBatch> {
        let mut columns: Vec<ArrayRef> = self
            .ints
            .iter_mut()
            .map(|b| Arc::new(b.finish()) as ArrayRef)
            .collect();
        columns.push(Arc::new(self.text.finish()));
        columns.push(Arc::new(self.tokens.finish()));
        if layout.ids {
            columns.push(Arc::new(self.id.finish()));
        }
        columns.push(Arc::new(self.doc.finish()));
        if layout.markdown {
            columns.push(Arc::new(self.path.finish()));
            columns.push(Arc::new(self.paths.finish()));
            columns.push(Arc::new(self.main_path.finish()));
            columns.push(Arc::new(self.continuation.finish()));
            columns.push(Arc::new(self.header.finish()));
            if layout.parents {
                columns.push(Arc::new(self.parent.finish()));
            }
        }
        let take = UInt64Array::from(std::mem::take(&mut self.take));
        for &index in &layout.keep {
            let kept = arrow_select::take::take(batch.column(index).as_ref(), &take, None)
                .map_err(|e| Error::Arrow(e.to_string()))?;
            columns.push(kept);
        }
        RecordBatch::try_new(layout.schema.clone(), columns)
            .map_err(|e| Error::Arrow(e.to_string()))
    }
}

/// The output batch for rows `range` of `batch` (whose first row is `first_row` of the
/// input), and its counts.
pub fn build(
    batch: &RecordBatch,
    texts: &Texts<'_>,
    ids: Option<&Texts<'_>>,
    range: Range<usize>,
    first_row: usize,
    job: &Chunking<'_>,
    layout: &Layout,
) -> Result<(RecordBatch, Stats)> {
    // Chunk every row first, then build each column once at its final size.
    let mut outputs = Vec::with_capacity(range.len());
    let mut stats = Stats::default();
    for index in range {
        stats.rows += 1;
        let row = first_row + index;
        let Some(text) = texts.get(index) else {
            stats.null_texts += 1;
            continue;
        };
        let doc = ids.and_then(|ids| ids.get(index));
        let out = job.chunk_row(text, doc).map_err(|source| Error::InRow {
            row: row as u64,
            source: Box::new(source),
        })?;
        stats.chunks += out.chunks.len() as u64;
        stats.oversized += out.oversized as u64;
        outputs.push((index, row, text, out));
    }
    let mut columns = Columns::for_rows(&outputs, layout.markdown);
    for (index, row, text, out) in &outputs {
        columns.push(text, out, *index, *row);
    }
    Ok((columns.finish(batch, layout)?, stats))
}
