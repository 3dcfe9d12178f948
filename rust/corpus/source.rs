//! Inputs of a corpus job and the work each one becomes: reading (`.gz` decompressed),
//! checking UTF-8, parsing JSON Lines, chunking and serialising, all on a worker thread.
//! A bad file or row is reported and skipped; nothing else is lost.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use flate2::read::MultiGzDecoder;

use super::chunker::CorpusChunker;
use super::record::{Columns, Doc, Jsonl, Sink};

/// One input, as the caller names it.
#[derive(Debug, Clone)]
pub enum Input {
    /// A text file: one document.
    Text {
        /// Where to read it.
        path: PathBuf,
        /// The name rows carry (`source`) and the document id.
        name: Arc<str>,
        /// Its size on disk, for grouping and progress.
        size: u64,
    },
    /// A JSON Lines file: one document per line.
    Jsonl {
        /// Where to read it.
        path: PathBuf,
        /// The name rows carry.
        name: Arc<str>,
        /// Its size on disk.
        size: u64,
    },
    /// Standard input, as one text or as JSON Lines.
    Stdin {
        /// JSON Lines rather than one text.
        jsonl: bool,
    },
    /// Rows the caller read (Parquet): texts and ids (`None`: null).
    Rows {
        /// The name rows carry.
        name: Arc<str>,
        /// The row number of the first text.
        first_row: u64,
        /// The texts.
        texts: Vec<Option<String>>,
        /// The ids, if an id column was named.
        ids: Option<Vec<Option<String>>>,
        /// Bytes these rows stand for, for progress.
        size: u64,
    },
}

/// The JSON Lines fields to read.
#[derive(Debug, Clone)]
pub struct Fields {
    /// The text's field.
    pub text: String,
    /// The id's field, if any (else `source#row`).
    pub id: Option<String>,
}

/// How rows are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON Lines bytes.
    Jsonl,
    /// Arrow-layout columns (for Parquet).
    Columns,
}

/// Serialised rows.
#[derive(Debug)]
pub enum Payload {
    /// JSON Lines.
    Jsonl(Jsonl),
    /// Columns.
    Columns(Box<Columns>),
}

/// The rows of one input within an output, kept when the job tracks parts (incremental
/// runs, which rebuild the output from each source's rows): consecutive documents of one
/// input make one part. A file whose rows span several outputs (JSON Lines blocks, a
/// streamed file) has a part in each.
#[derive(Debug, Clone)]
pub struct Part {
    /// The input's name (`source` in its rows).
    pub name: Arc<str>,
    /// Where its rows end in the payload's bytes (they start where the previous part's end).
    pub end: usize,
    /// Chunks in the payload up to that end: its ids are `ids[32 * previous..32 * chunks]`.
    pub chunks: usize,
    /// Documents of the input this part finished.
    pub documents: usize,
    /// UTF-8 bytes of the text this part chunked.
    pub text_bytes: u64,
}

/// What a piece of work produced, handed back in input order.
#[derive(Debug)]
pub struct Output {
    /// The rows.
    pub payload: Payload,
    /// Documents chunked.
    pub documents: usize,
    /// Chunks written.
    pub chunks: usize,
    /// Input bytes this covers (sizes on disk), for scaling the progress bar's total.
    pub bytes: u64,
    /// UTF-8 bytes of the text chunked (what progress and the summary count: a size on
    /// disk is compressed for `.gz` and holds JSON syntax for JSON Lines).
    pub text_bytes: u64,
    /// `(what, why)` for every file or row skipped.
    pub skipped: Vec<(String, String)>,
    /// The rows of each input, when tracked (JSON Lines only; see [`Part`]).
    pub parts: Option<Vec<Part>>,
}

impl Output {
    /// An empty output in `format` (`markdown`: with the structure fields).
    pub fn new(format: Format, markdown: bool) -> Self {
        let payload = match format {
            Format::Jsonl => Payload::Jsonl(Jsonl::new(markdown)),
            Format::Columns => Payload::Columns(Box::new(Columns::new(markdown))),
        };
        Self {
            payload,
            documents: 0,
            chunks: 0,
            bytes: 0,
            text_bytes: 0,
            skipped: Vec::new(),
            parts: None,
        }
    }

    /// Keeps every input's part and chunk ids (JSON Lines only: columns keep nothing).
    #[must_use]
    pub fn tracked(mut self) -> Self {
        if let Payload::Jsonl(jsonl) = &mut self.payload {
            jsonl.ids = Some(Vec::new());
            self.parts = Some(Vec::new());
        }
        self
    }

    /// Ends the current part at the rows written so far, as `source`'s (the same part as
    /// the last one if that is `source`'s too), adding `documents` and `text_bytes` to it.
    /// Nothing unless parts are tracked.
    pub fn mark(&mut self, source: &str, documents: usize, text_bytes: u64) {
        let (Payload::Jsonl(jsonl), Some(parts)) = (&self.payload, &mut self.parts) else {
            return;
        };
        let end = jsonl.bytes.len();
        let chunks = jsonl.ids.as_ref().map_or(0, |ids| ids.len() / 32);
        match parts.last_mut() {
            Some(last) if &*last.name == source => {
                (last.end, last.chunks) = (end, chunks);
                last.documents += documents;
                last.text_bytes += text_bytes;
            }
            _ => parts.push(Part {
                name: Arc::from(source),
                end,
                chunks,
                documents,
                text_bytes,
            }),
        }
    }

    /// The JSON Lines rows, taken out (empty for columns).
    pub fn take_rows(&mut self) -> Vec<u8> {
        match &mut self.payload {
            Payload::Jsonl(jsonl) => std::mem::take(&mut jsonl.bytes),
            Payload::Columns(_) => Vec::new(),
        }
    }

    /// The sink rows go to.
    pub fn sink(&mut self) -> &mut dyn Sink {
        match &mut self.payload {
            Payload::Jsonl(jsonl) => jsonl,
            Payload::Columns(columns) => columns.as_mut(),
        }
    }

    /// Chunks one document into this output, or notes why it was skipped.
    pub fn add(&mut self, chunker: &CorpusChunker, text: &str, doc: &Doc<'_>, what: &str) {
        if let Payload::Jsonl(jsonl) = &mut self.payload {
            jsonl.bytes.reserve(rows_bytes(text.len() as u64));
        }
        match chunker.chunk(text, doc, self.sink()) {
            Ok(n) => {
                self.documents += 1;
                self.chunks += n;
                self.text_bytes += text.len() as u64;
                self.mark(doc.source, 1, text.len() as u64);
            }
            Err(err) => self.skipped.push((what.to_owned(), err.to_string())),
        }
    }
}

/// Room for the JSON Lines rows of `text` bytes: about 1.5 times the text (overlap,
/// fields, escapes), so the buffer is grown once.
fn rows_bytes(text: u64) -> usize {
    usize::try_from(text / 2 * 3 + 512).unwrap_or(usize::MAX)
}

/// Reads a whole file, decompressing `.gz`.
pub fn read_all(path: &Path) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    open(path)?.read_to_end(&mut out)?;
    Ok(out)
}

/// A reader over a file's content, decompressing `.gz`.
pub fn open(path: &Path) -> io::Result<Box<dyn Read + Send>> {
    let file = File::open(path)?;
    if is_gzip(path) {
        Ok(Box::new(MultiGzDecoder::new(BufReader::with_capacity(
            1 << 16,
            file,
        ))))
    } else {
        Ok(Box::new(file))
    }
}

/// UTF-8's byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether a path names a gzip file.
pub fn is_gzip(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
}

/// `bytes` as text, or why not.
pub fn utf8(bytes: &[u8]) -> Result<&str, String> {
    simdutf8::compat::from_utf8(bytes).map_err(|e| {
        format!(
            "not valid UTF-8 (invalid byte at offset {}); convert it to UTF-8 first",
            e.valid_up_to()
        )
    })
}

/// Chunks whole text files into one output.
pub fn text_files(files: &[(PathBuf, Arc<str>, u64)], chunker: &CorpusChunker, out: &mut Output) {
    if let Payload::Jsonl(jsonl) = &mut out.payload {
        // The rows of the whole group at once: grown document by document, the buffer was
        // copied at each doubling.
        // The slack covers the escaper's own reserve for the last chunk (six times it).
        let bytes: u64 = files.iter().map(|f| f.2).sum();
        jsonl.bytes.reserve(rows_bytes(bytes) + (64 << 10));
    }
    for (path, name, size) in files {
        out.bytes += size;
        let what = name.to_string();
        let bytes = match read_all(path) {
            Ok(bytes) => bytes,
            Err(err) => {
                out.skipped.push((what, format!("cannot read: {err}")));
                continue;
            }
        };
        match utf8(&bytes) {
            Ok(text) => {
                let doc = Doc {
                    source: name,
                    row: None,
                    id: name,
                };
                out.add(chunker, text, &doc, &what);
            }
            Err(reason) => out.skipped.push((what, reason)),
        }
    }
}

/// Chunks a block of JSON Lines whose first line is `first_row` of input `name`.
pub fn jsonl_block(
    name: &str,
    first_row: u64,
    block: &[u8],
    fields: &Fields,
    chunker: &CorpusChunker,
    out: &mut Output,
) {
    for (k, line) in block.split(|&b| b == b'\n').enumerate() {
        let row = first_row + k as u64;
        // A byte order mark some editors write is not JSON: read past it on the first line.
        let line = match line.strip_prefix(BOM) {
            Some(rest) if row == 0 => rest,
            _ => line,
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let what = format!("{name}:{}", row + 1);
        let value: serde_json::Value = match serde_json::from_slice(line) {
            Ok(value) => value,
            Err(err) => {
                out.skipped
                    .push((what, format!("not a JSON object: {err}")));
                continue;
            }
        };
        let Some(text) = value.get(&fields.text).and_then(serde_json::Value::as_str) else {
            let reason = format!("no string field {:?}", fields.text);
            out.skipped.push((what, reason));
            continue;
        };
        let id = match fields.id.as_deref().and_then(|f| value.get(f)) {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(serde_json::Value::Null) | None => format!("{name}#{row}"),
            Some(other) => other.to_string(),
        };
        let doc = Doc {
            source: name,
            row: Some(row),
            id: &id,
        };
        out.add(chunker, text, &doc, &what);
    }
}

/// Chunks rows handed over by the caller.
pub fn rows(
    name: &str,
    first_row: u64,
    texts: &[Option<String>],
    ids: Option<&[Option<String>]>,
    chunker: &CorpusChunker,
    out: &mut Output,
) {
    for (k, text) in texts.iter().enumerate() {
        let row = first_row + k as u64;
        let Some(text) = text else {
            out.skipped
                .push((format!("{name}:row {row}"), "null text".to_owned()));
            continue;
        };
        let id = match ids.and_then(|ids| ids[k].clone()) {
            Some(id) => id,
            None => format!("{name}#{row}"),
        };
        let doc = Doc {
            source: name,
            row: Some(row),
            id: &id,
        };
        out.add(chunker, text, &doc, &format!("{name}:row {row}"));
    }
}
