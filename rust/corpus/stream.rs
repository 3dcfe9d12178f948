//! A text file too large to read whole, chunked as a stream (`crate::stream`) a block at a
//! time on the calling thread. A first pass reads it all once: it checks the UTF-8, finds
//! the top separator and hashes the text for the chunk ids (which name the whole
//! document's digest), so a bad file is skipped before any of its rows are written.

use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::record::{Doc, Row};
use super::settings::Settings;
use super::source::{self, Output};
use crate::chunk_id::chunk_id;
use crate::error::Result;
use crate::length::Length;
use crate::stream::{Chooser, StreamSplitter, Utf8Stream};

/// Bytes read per step.
const STEP_BYTES: usize = 4 << 20;

enum State {
    Start,
    Splitting {
        reader: Box<dyn Read + Send>,
        stream: Box<StreamSplitter>,
        digest: String,
        index: usize,
    },
    Done,
}

/// One streamed file.
pub struct FileStream {
    path: PathBuf,
    name: Arc<str>,
    left: u64,
    state: State,
}

impl FileStream {
    /// A file to stream; `size` is its size on disk (for progress).
    pub fn new(path: PathBuf, name: Arc<str>, size: u64) -> Self {
        Self {
            path,
            name,
            left: size,
            state: State::Start,
        }
    }

    /// Whether the file is done.
    pub fn finished(&self) -> bool {
        matches!(self.state, State::Done)
    }

    /// The next stretch of rows. A panic inside (a bug) ends the file with a skip line
    /// instead of unwinding into the caller: streamed files are worked on the calling
    /// thread, outside the pool's guard, and a panic must never reach Python.
    pub fn step(&mut self, settings: &Settings) -> Output {
        if let Ok(out) = catch_unwind(AssertUnwindSafe(|| self.step_unguarded(settings))) {
            return out;
        }
        self.state = State::Done;
        let mut out = settings.output();
        let reason = "internal error while chunking it (a bug; please report it); \
                      the chunks before it are written";
        out.skipped
            .push((self.path.display().to_string(), reason.to_owned()));
        out
    }

    fn step_unguarded(&mut self, settings: &Settings) -> Output {
        #[cfg(test)]
        assert!(&*self.name != tests::PANICS, "a test asked for it");
        let mut out = settings.output();
        if matches!(self.state, State::Start) {
            match self.prepare(settings) {
                Ok(state) => self.state = state,
                Err(reason) => {
                    self.state = State::Done;
                    out.bytes = self.left;
                    out.skipped.push((self.path.display().to_string(), reason));
                    return out;
                }
            }
        }
        if let Err(reason) = self.split(settings, &mut out) {
            self.state = State::Done;
            out.skipped.push((self.path.display().to_string(), reason));
        }
        out
    }

    /// The first pass: UTF-8, top separator, digest; then the reader for the second.
    fn prepare(&self, settings: &Settings) -> std::result::Result<State, String> {
        let (splitter, seps, rules) = settings
            .chunker
            .streaming()
            .ok_or_else(|| "cannot stream with this chunker".to_owned())?;
        let mut chooser = Chooser::new(seps.clone(), rules.clone());
        let mut hash = Sha256::new();
        let mut utf8 = Utf8Stream::default();
        let mut reader = source::open(&self.path).map_err(|e| format!("cannot read: {e}"))?;
        let (mut buf, mut text) = (vec![0; 1 << 20], String::new());
        loop {
            let n = reader
                .read(&mut buf)
                .map_err(|e| format!("cannot read: {e}"))?;
            if n == 0 {
                break;
            }
            hash.update(&buf[..n]);
            text.clear();
            utf8.push(&buf[..n], &mut text)
                .map_err(|e| utf8_reason(&e))?;
            chooser.feed(&text);
        }
        utf8.finish().map_err(|e| utf8_reason(&e))?;
        let top = chooser.finish();
        let stream = StreamSplitter::new(*splitter.config(), seps, rules[top].clone(), top);
        let reader = source::open(&self.path).map_err(|e| format!("cannot read: {e}"))?;
        Ok(State::Splitting {
            reader,
            stream: Box::new(stream),
            digest: hex(&hash.finalize()),
            index: 0,
        })
    }

    /// Reads and splits one step, writing its rows.
    fn split(&mut self, settings: &Settings, out: &mut Output) -> std::result::Result<(), String> {
        let State::Splitting {
            reader,
            stream,
            digest,
            index,
        } = &mut self.state
        else {
            return Ok(());
        };
        let chunker = &settings.chunker;
        let length = chunker.length.as_ref().map(|l| l as &dyn Length);
        let mut buf = vec![0; STEP_BYTES];
        let n = read_full(reader.as_mut(), &mut buf).map_err(|e| format!("cannot read: {e}"))?;
        let emitted = if n == 0 {
            stream.finish(length)
        } else {
            stream.feed(&buf[..n], length)
        }
        .map_err(|e| e.to_string())?;
        let doc = Doc {
            source: &self.name,
            row: None,
            id: &self.name,
        };
        for c in &emitted.chunks {
            let text = stream.text(c);
            let id = chunk_id(doc.id, &chunker.settings, digest, c.char_start, c.char_end);
            let row = Row {
                index: *index,
                start: c.char_start,
                end: c.char_end,
                byte_start: c.byte_start,
                byte_end: c.byte_end,
                text,
                chunk_id: &id,
                token_count: count(chunker.length.as_ref(), text).map_err(|e| e.to_string())?,
                structure: None,
            };
            out.sink().push(&doc, &row);
            *index += 1;
        }
        out.chunks += emitted.chunks.len();
        out.text_bytes = n as u64; // UTF-8, checked by the first pass (`.gz`: decompressed)
        let bytes = (n as u64).min(self.left);
        self.left -= bytes;
        out.bytes = bytes;
        if n == 0 {
            out.bytes = self.left;
            out.documents = 1;
            self.state = State::Done;
        }
        out.mark(&self.name, out.documents, n as u64);
        Ok(())
    }
}

fn count(length: Option<&crate::tokens::TokenLength>, text: &str) -> Result<Option<usize>> {
    length.map(|l| l.length(text)).transpose()
}

fn utf8_reason(err: &crate::error::Error) -> String {
    format!("{err}; convert it to UTF-8 first")
}

fn read_full(reader: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match reader.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}"); // writing to a String cannot fail
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name of a stream whose steps panic inside (tests only).
    pub const PANICS: &str = "panics.txt";

    #[test]
    fn a_panic_in_a_step_is_a_skip_line_not_an_unwind() {
        let dir = std::env::temp_dir().join(format!("ferrochunk-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        std::fs::write(&path, "one two three").unwrap();
        let settings = Settings::for_tests();
        let mut stream = FileStream::new(path.clone(), Arc::from(PANICS), 13);
        let out = stream.step(&settings);
        assert!(stream.finished());
        assert_eq!(out.skipped.len(), 1);
        assert!(
            out.skipped[0].1.contains("internal error"),
            "{:?}",
            out.skipped
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
