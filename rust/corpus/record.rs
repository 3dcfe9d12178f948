//! One output row per chunk, written as JSON Lines or gathered into Arrow-layout columns.
//!
//! Both formats carry the same fields, in this order: `source`, `row` (the line or row of
//! a JSONL/Parquet input; null for text files), `document_id`, `index`, `start`, `end`
//! (code points), `byte_start`, `byte_end` (UTF-8 bytes), `text`, `chunk_id`,
//! `token_count` (null unless sizes are tokens), and for the Markdown chunker
//! `heading_path`, `continuation`, `table_header`.

/// Where a document came from.
#[derive(Debug, Clone, Copy)]
pub struct Doc<'a> {
    /// The input's name (a path as given, `-` for standard input).
    pub source: &'a str,
    /// The line (JSONL) or row (Parquet) of the input, from 0.
    pub row: Option<u64>,
    /// The document's id: the id field, else the source (and row).
    pub id: &'a str,
}

/// Markdown structure of a chunk.
#[derive(Debug, Clone, Copy)]
pub struct Structure<'a> {
    /// Titles of the headings the chunk sits under.
    pub path: &'a [String],
    /// The chunk continues a block cut before it.
    pub continuation: bool,
    /// The header rows repeated for a later piece of a cut table.
    pub table_header: Option<&'a str>,
}

/// One chunk, ready to be written.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// Position of the chunk in its document.
    pub index: usize,
    /// Code-point offsets.
    pub start: usize,
    /// End, in code points (exclusive).
    pub end: usize,
    /// UTF-8 byte offsets.
    pub byte_start: usize,
    /// End, in bytes (exclusive).
    pub byte_end: usize,
    /// The chunk's text.
    pub text: &'a str,
    /// Its stable id (see `crate::chunk_id`).
    pub chunk_id: &'a str,
    /// Tokens in the chunk, when sizes are tokens.
    pub token_count: Option<usize>,
    /// Markdown structure, for the Markdown chunker.
    pub structure: Option<Structure<'a>>,
}

/// Receives rows in order.
pub trait Sink: Send {
    /// Appends one chunk of `doc`.
    fn push(&mut self, doc: &Doc<'_>, row: &Row<'_>);
}

/// JSON Lines, one object per chunk.
#[derive(Debug, Default)]
pub struct Jsonl {
    /// The lines written so far.
    pub bytes: Vec<u8>,
    /// The chunk ids of those lines, 32 hex digits each, when kept (incremental runs
    /// record every source's ids: see [`super::source::Part`]).
    pub ids: Option<Vec<u8>>,
    markdown: bool,
}

impl Jsonl {
    /// An empty buffer; `markdown` adds the structure fields.
    pub fn new(markdown: bool) -> Self {
        Self {
            bytes: Vec::new(),
            ids: None,
            markdown,
        }
    }
}

impl Sink for Jsonl {
    fn push(&mut self, doc: &Doc<'_>, row: &Row<'_>) {
        let out = &mut self.bytes;
        out.extend_from_slice(b"{\"source\":");
        json_string(out, doc.source);
        out.extend_from_slice(b",\"row\":");
        match doc.row {
            Some(r) => int(out, r),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"document_id\":");
        json_string(out, doc.id);
        let numbers = [row.index, row.start, row.end, row.byte_start, row.byte_end];
        let names: [&[u8]; 5] = [
            b",\"index\":",
            b",\"start\":",
            b",\"end\":",
            b",\"byte_start\":",
            b",\"byte_end\":",
        ];
        for (name, n) in names.into_iter().zip(numbers) {
            out.extend_from_slice(name);
            int(out, n);
        }
        out.extend_from_slice(b",\"text\":");
        json_string(out, row.text);
        out.extend_from_slice(b",\"chunk_id\":\"");
        out.extend_from_slice(row.chunk_id.as_bytes()); // hex digits: nothing to escape
        if let Some(ids) = &mut self.ids {
            ids.extend_from_slice(row.chunk_id.as_bytes());
        }
        out.extend_from_slice(b"\",\"token_count\":");
        match row.token_count {
            Some(n) => int(out, n),
            None => out.extend_from_slice(b"null"),
        }
        if self.markdown {
            structure(out, row.structure);
        }
        out.extend_from_slice(b"}\n");
    }
}

/// The Markdown fields of a row (`heading_path`, `continuation`, `table_header`).
fn structure(out: &mut Vec<u8>, s: Option<Structure<'_>>) {
    let s = s.unwrap_or(Structure {
        path: &[],
        continuation: false,
        table_header: None,
    });
    out.extend_from_slice(b",\"heading_path\":[");
    for (k, title) in s.path.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        json_string(out, title);
    }
    out.extend_from_slice(if s.continuation {
        b"],\"continuation\":true,\"table_header\":"
    } else {
        b"],\"continuation\":false,\"table_header\":"
    });
    match s.table_header {
        Some(h) => json_string(out, h),
        None => out.extend_from_slice(b"null"),
    }
}

/// `n` in decimal (`itoa`: `core::fmt`'s machinery was ~2 % of the job).
fn int(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// `s` as a JSON string, escaped exactly as `serde_json` escapes it (`"`, `\\`, `\b`, `\f`,
/// `\n`, `\r`, `\t`, other bytes below 0x20 as `\u00xx`; nothing else). Chunk texts are
/// most of the output and need escaping about every 40 bytes (line breaks), which
/// `json-escape-simd` handles 32 bytes at a time; the word-at-a-time loop it replaced was
/// 13 % of the CLI's CPU, this 7 % (docs/benchmarks.md, "Corpus scale").
fn json_string(out: &mut Vec<u8>, s: &str) {
    json_escape_simd::escape_into(s, out);
}

/// A string column in Arrow's `large_string` layout: 64-bit offsets, data, validity bits.
#[derive(Debug, Clone, Default)]
pub struct Strings {
    /// `len + 1` offsets into `data`, little-endian on every platform Arrow runs on.
    pub offsets: Vec<i64>,
    /// The UTF-8 bytes.
    pub data: Vec<u8>,
    /// One bit per value (1: present), only once a null was pushed.
    pub validity: Option<Vec<u8>>,
}

impl Strings {
    fn push(&mut self, value: Option<&str>) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        let n = self.offsets.len() - 1;
        if value.is_none() && self.validity.is_none() {
            self.validity = Some(bits(n, true));
        }
        if let Some(valid) = &mut self.validity {
            push_bit(valid, n, value.is_some());
        }
        self.data.extend_from_slice(value.unwrap_or("").as_bytes());
        self.offsets.push(to_i64(self.data.len()));
    }
}

/// An `int64` column with optional validity bits.
#[derive(Debug, Clone, Default)]
pub struct Ints {
    /// The values (0 where null).
    pub values: Vec<i64>,
    /// One bit per value (1: present), only once a null was pushed.
    pub validity: Option<Vec<u8>>,
}

impl Ints {
    fn push(&mut self, value: Option<usize>) {
        let n = self.values.len();
        if value.is_none() && self.validity.is_none() {
            self.validity = Some(bits(n, true));
        }
        if let Some(valid) = &mut self.validity {
            push_bit(valid, n, value.is_some());
        }
        self.values.push(value.map_or(0, to_i64));
    }
}

/// Offsets and counts as Arrow's `int64` (no text reaches 2^63 bytes).
fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// `n` bits all set to `value`.
fn bits(n: usize, value: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(n / 8 + 1);
    for i in 0..n {
        push_bit(&mut out, i, value);
    }
    out
}

fn push_bit(out: &mut Vec<u8>, i: usize, value: bool) {
    if i % 8 == 0 {
        out.push(0);
    }
    if value {
        if let Some(last) = out.last_mut() {
            *last |= 1 << (i % 8);
        }
    }
}

/// Chunks as columns (see the module comment for the fields), for Parquet output.
#[derive(Debug, Clone, Default)]
pub struct Columns {
    /// Rows so far.
    pub len: usize,
    /// Whether the Markdown columns are filled.
    pub markdown: bool,
    /// `source`.
    pub source: Strings,
    /// `row`.
    pub row: Ints,
    /// `document_id`.
    pub document_id: Strings,
    /// `index`, `start`, `end`, `byte_start`, `byte_end`.
    pub numbers: [Ints; 5],
    /// `text`.
    pub text: Strings,
    /// `chunk_id`.
    pub chunk_id: Strings,
    /// `token_count`.
    pub token_count: Ints,
    /// `heading_path`: list offsets (64-bit) into `path_titles`.
    pub path_offsets: Vec<i64>,
    /// The titles of all heading paths, in order.
    pub path_titles: Strings,
    /// `continuation`, one bit per row.
    pub continuation: Vec<u8>,
    /// `table_header`.
    pub table_header: Strings,
}

impl Columns {
    /// Empty columns; `markdown` fills the structure columns.
    pub fn new(markdown: bool) -> Self {
        Self {
            markdown,
            path_offsets: vec![0],
            ..Self::default()
        }
    }
}

impl Sink for Columns {
    fn push(&mut self, doc: &Doc<'_>, row: &Row<'_>) {
        self.source.push(Some(doc.source));
        self.row.push(doc.row.map(|r| r as usize));
        self.document_id.push(Some(doc.id));
        let numbers = [row.index, row.start, row.end, row.byte_start, row.byte_end];
        for (column, value) in self.numbers.iter_mut().zip(numbers) {
            column.push(Some(value));
        }
        self.text.push(Some(row.text));
        self.chunk_id.push(Some(row.chunk_id));
        self.token_count.push(row.token_count);
        if self.markdown {
            let s = row.structure;
            for title in s.map_or(&[][..], |s| s.path) {
                self.path_titles.push(Some(title));
            }
            self.path_offsets
                .push(to_i64(self.path_titles.offsets.len().max(1) - 1));
            push_bit(
                &mut self.continuation,
                self.len,
                s.is_some_and(|s| s.continuation),
            );
            self.table_header.push(s.and_then(|s| s.table_header));
        }
        self.len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(text: &'a str, structure: Option<Structure<'a>>) -> Row<'a> {
        Row {
            index: 1,
            start: 2,
            end: 3,
            byte_start: 2,
            byte_end: 4,
            text,
            chunk_id: "ab12",
            token_count: None,
            structure,
        }
    }

    #[test]
    fn jsonl_lines_parse_back() {
        let doc = Doc {
            source: "dir/\"a\".md",
            row: None,
            id: "dir/\"a\".md",
        };
        let path = vec!["Intro".to_owned(), "Über".to_owned()];
        let s = Structure {
            path: &path,
            continuation: true,
            table_header: Some("| a |"),
        };
        let mut out = Jsonl::new(true);
        out.push(&doc, &row("é\n\"q\"", Some(s)));
        let v: serde_json::Value = serde_json::from_slice(&out.bytes).unwrap();
        assert_eq!(v["source"], "dir/\"a\".md");
        assert_eq!(v["text"], "é\n\"q\"");
        assert_eq!(v["row"], serde_json::Value::Null);
        assert_eq!(v["heading_path"][1], "Über");
        assert_eq!(v["continuation"], true);
        assert_eq!(v["token_count"], serde_json::Value::Null);
    }

    proptest::proptest! {
        #[test]
        fn strings_escape_as_serde_json(s in "(?s)(.|[\"\\\\\u{0}-\u{1f}\u{7f}é😀]){0,100}") {
            let mut ours = Vec::new();
            json_string(&mut ours, &s);
            proptest::prop_assert_eq!(ours, serde_json::to_vec(&s).unwrap());
        }

        /// Long texts with escapes scattered at every offset of the SIMD blocks (the
        /// restart after each escape, block edges, the tail).
        #[test]
        fn long_texts_escape_as_serde_json(
            s in "([a-z é漢😀]{0,40}(\n|\r\n|\"|\\\\|\t|\u{1}|\u{1f}|\u{7f})){0,30}[a-z]{0,20}"
        ) {
            let mut ours = Vec::new();
            json_string(&mut ours, &s);
            proptest::prop_assert_eq!(ours, serde_json::to_vec(&s).unwrap());
        }

        /// Appended after what the buffer holds, which stays as it was.
        #[test]
        fn strings_append(head in "[a-z\n]{0,40}", s in "[a-z\n\"é]{0,80}") {
            let mut ours = head.clone().into_bytes();
            json_string(&mut ours, &s);
            let mut want = head.into_bytes();
            want.extend(serde_json::to_vec(&s).unwrap());
            proptest::prop_assert_eq!(ours, want);
        }

        #[test]
        fn integers_as_display(n: u64) {
            let mut ours = b"x".to_vec();
            int(&mut ours, n);
            proptest::prop_assert_eq!(ours, format!("x{n}").into_bytes());
        }
    }

    /// Every escape at every position of strings up to three 32-byte blocks long, next to
    /// a multi-byte character (the kernels work in blocks and copy the tail separately).
    #[test]
    fn escapes_at_every_position() {
        for len in 0..100 {
            for at in 0..len {
                for esc in ["\n", "\"", "\\", "\u{1}", "\u{1f}", "\u{7f}", "é", "😀"] {
                    let s: String = (0..len).map(|k| if k == at { esc } else { "a" }).collect();
                    let mut ours = Vec::new();
                    json_string(&mut ours, &s);
                    assert_eq!(ours, serde_json::to_vec(&s).unwrap(), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn columns_track_nulls_and_lists() {
        let mut cols = Columns::new(true);
        let doc = Doc {
            source: "s",
            row: Some(4),
            id: "s#4",
        };
        let path = vec!["A".to_owned()];
        let s = Structure {
            path: &path,
            continuation: false,
            table_header: None,
        };
        cols.push(&doc, &row("x", Some(s)));
        cols.push(&doc, &row("yz", None));
        assert_eq!(cols.text.offsets, [0, 1, 3]);
        assert_eq!(cols.path_offsets, [0, 1, 1]);
        assert_eq!(cols.table_header.validity, Some(vec![0]));
        assert_eq!(cols.row.values, [4, 4]);
        assert!(cols.token_count.validity.is_some());
    }
}
