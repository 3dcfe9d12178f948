//! Chunking whole files to JSON Lines: the CLI's main job, done without Python objects.
//!
//! Files are read, checked as UTF-8, split and serialised in parallel; the caller gets the
//! JSONL bytes of a batch in input order plus a report of what was skipped, so memory stays
//! bounded by the batch and one bad file never stops a run.

use std::fmt::Write as _;
use std::path::Path;

use rayon::prelude::*;

use crate::split::Splitter;

/// What happened to one batch of files.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct BatchReport {
    /// JSON Lines, one object per chunk: one buffer per document, in input order (kept
    /// apart so the caller copies them once, straight into its own output buffer).
    pub jsonl: Vec<Vec<u8>>,
    /// Documents chunked.
    pub documents: usize,
    /// Chunks written.
    pub chunks: usize,
    /// Input bytes chunked.
    pub bytes: usize,
    /// `(path, reason)` for every file that was skipped.
    pub skipped: Vec<(String, String)>,
}

/// One file's outcome, before the batch is stitched together in order.
enum FileResult {
    Done {
        jsonl: Vec<u8>,
        chunks: usize,
        bytes: usize,
    },
    Skipped(String),
}

/// Chunks `paths` with `splitter` on `threads` worker threads (0: one per core).
pub fn chunk_files(paths: &[String], splitter: &Splitter, threads: usize) -> BatchReport {
    let work = || {
        paths
            .par_iter()
            .map(|path| chunk_file(path, splitter))
            .collect::<Vec<_>>()
    };
    let results = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(work),
        Err(_) => paths
            .iter()
            .map(|path| chunk_file(path, splitter))
            .collect(),
    };
    let mut report = BatchReport::default();
    for (path, result) in paths.iter().zip(results) {
        match result {
            FileResult::Done {
                jsonl,
                chunks,
                bytes,
            } => {
                report.jsonl.push(jsonl);
                report.documents += 1;
                report.chunks += chunks;
                report.bytes += bytes;
            }
            FileResult::Skipped(reason) => report.skipped.push((path.clone(), reason)),
        }
    }
    report
}

fn chunk_file(path: &str, splitter: &Splitter) -> FileResult {
    let raw = match std::fs::read(Path::new(path)) {
        Ok(raw) => raw,
        Err(err) => return FileResult::Skipped(format!("cannot read: {err}")),
    };
    let text = match std::str::from_utf8(&raw) {
        Ok(text) => text,
        Err(err) => {
            return FileResult::Skipped(format!(
                "not valid UTF-8 (invalid byte at offset {}); convert it to UTF-8 first",
                err.valid_up_to()
            ))
        }
    };
    match splitter.split(text, None) {
        Ok(out) => {
            let mut jsonl = Vec::with_capacity(text.len() * 5 / 4);
            for (index, chunk) in out.chunks.iter().enumerate() {
                write_line(&mut jsonl, path, index, chunk, text);
            }
            FileResult::Done {
                jsonl,
                chunks: out.chunks.len(),
                bytes: text.len(),
            }
        }
        Err(err) => FileResult::Skipped(err.to_string()),
    }
}

/// `{"source":…,"index":…,"start":…,"end":…,"byte_start":…,"byte_end":…,"text":…}\n`
fn write_line(
    out: &mut Vec<u8>,
    path: &str,
    index: usize,
    chunk: &crate::split::Chunk,
    text: &str,
) {
    let mut head = String::with_capacity(96);
    // Writing to a String cannot fail.
    let _ = write!(
        head,
        ",\"index\":{index},\"start\":{},\"end\":{},\"byte_start\":{},\"byte_end\":{},\"text\":",
        chunk.char_start, chunk.char_end, chunk.byte_start, chunk.byte_end
    );
    out.extend_from_slice(b"{\"source\":");
    json_string(out, path);
    out.extend_from_slice(head.as_bytes());
    json_string(out, chunk.text(text));
    out.extend_from_slice(b"}\n");
}

fn json_string(out: &mut Vec<u8>, s: &str) {
    // Serialising a &str into a Vec cannot fail; fall back to an empty string if it did.
    if serde_json::to_writer(&mut *out, s).is_err() {
        out.extend_from_slice(b"\"\"");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::SplitConfig;

    #[test]
    fn writes_lines_in_order_and_reports_bad_files() {
        let dir = std::env::temp_dir().join(format!("ferrochunk-corpus-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("a.md");
        let bad = dir.join("b.txt");
        std::fs::write(&good, "one \"two\"\n\nthree é").unwrap();
        std::fs::write(&bad, b"ok \xff no").unwrap();
        let paths: Vec<String> = [&good, &bad, &dir.join("missing.md")]
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let splitter = Splitter::recursive(SplitConfig::new(10, 0).unwrap(), vec![]);
        let report = chunk_files(&paths, &splitter, 2);
        assert_eq!((report.documents, report.chunks), (1, 2));
        assert_eq!(report.skipped.len(), 2);
        assert!(report.skipped[0].1.contains("UTF-8"));
        let all = report.jsonl.concat();
        let lines: Vec<serde_json::Value> = all
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        assert_eq!(lines[0]["text"], "one \"two\"");
        assert_eq!(lines[1]["text"], "three é");
        assert_eq!(lines[1]["start"], 11);
        assert_eq!(lines[1]["byte_end"], 19);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
