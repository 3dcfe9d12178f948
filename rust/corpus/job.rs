//! A corpus job: inputs in, outputs back in input order, the work spread over a pool.
//!
//! The caller queues inputs and asks for the next output. Small text files are grouped
//! (one hand-off per few MB), a large JSON Lines file or standard input is read here in
//! blocks that end at a line break (each block is a task), and every task reads, decodes,
//! chunks and serialises on a pool thread. Read-ahead is bounded (a few tasks per thread,
//! and their bytes), so memory does not grow with the corpus. A text file too large to
//! read whole is streamed (`crate::stream`) on the calling thread when its turn comes,
//! while the pool works on what follows it. JSON Lines given a file are written there by
//! the pool threads, in input order (`super::write`).

use std::collections::{BTreeMap, VecDeque};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

use rayon::ThreadPool;

use super::settings::Settings;
use super::source::{self, Input, Output};
use super::stream::FileStream;
use super::write::OrderedFile;
use crate::error::Result;
use crate::parallel;

/// Small files are grouped into one task up to this many bytes by default...
const GROUP_BYTES: u64 = 4 << 20;
/// ...or this many files.
const GROUP_FILES: usize = 256;
/// JSON Lines are read in blocks of about this size.
const BLOCK_BYTES: usize = 4 << 20;
/// Read-ahead: at most this many tasks per thread in flight...
const TASKS_PER_THREAD: usize = 4;
/// ...holding at most this many input bytes.
const AHEAD_BYTES: u64 = 64 << 20;

enum Slot {
    Task { id: usize, bytes: u64 },
    Stream { id: usize, stream: Box<FileStream> },
}

/// An input being read block by block (JSON Lines).
struct Blocks {
    name: Arc<str>,
    reader: Box<dyn BufRead + Send>,
    row: u64,
    /// Bytes of the input (on disk) not yet reported as done.
    left: u64,
    /// A read error that ended the input early (reported once the blocks before it are).
    error: Option<String>,
}

/// The job; see the module comment.
pub struct Job {
    settings: Arc<Settings>,
    pool: Option<Arc<ThreadPool>>,
    max_tasks: usize,
    queue: VecDeque<Input>,
    blocks: Option<Blocks>,
    flight: VecDeque<Slot>,
    flight_bytes: u64,
    next_id: usize,
    tx: Sender<(usize, Output)>,
    rx: Receiver<(usize, Output)>,
    done: BTreeMap<usize, Output>,
    /// Where the pool writes JSON Lines, if the caller gave a file.
    file: Option<Arc<OrderedFile>>,
    /// Bytes of small files grouped into one task.
    group_bytes: u64,
}

impl Job {
    /// A job on `threads` threads (`None`: see `crate::parallel::threads`; 1: everything
    /// on the calling thread).
    pub fn new(settings: Settings, threads: Option<usize>) -> Result<Self> {
        let threads = parallel::resolve(threads)?;
        let pool = if threads > 1 {
            Some(parallel::pool(threads)?)
        } else {
            None
        };
        let (tx, rx) = channel();
        Ok(Self {
            settings: Arc::new(settings),
            max_tasks: TASKS_PER_THREAD * threads,
            pool,
            queue: VecDeque::new(),
            blocks: None,
            flight: VecDeque::new(),
            flight_bytes: 0,
            next_id: 0,
            tx,
            rx,
            done: BTreeMap::new(),
            file: None,
            group_bytes: GROUP_BYTES,
        })
    }

    /// Groups small files into tasks of at most `bytes` (an incremental run records its
    /// progress per task, so smaller tasks leave less to redo after a crash).
    pub fn group_bytes(&mut self, bytes: u64) {
        self.group_bytes = bytes.max(1);
    }

    /// Has the pool write the JSON Lines rows into `file`, in input order, instead of
    /// handing them back (outputs then carry empty rows). Call before queueing inputs.
    pub fn write_to(&mut self, file: File) {
        self.file = Some(Arc::new(OrderedFile::new(file)));
    }

    /// Waits for the last rows to be written into the file given to [`Job::write_to`];
    /// the first write error, if any.
    pub fn finish_file(&self) -> io::Result<()> {
        self.file.as_ref().map_or(Ok(()), |f| f.finish())
    }

    /// A write error met so far, if any (reported once).
    pub fn file_error(&self) -> Option<io::Error> {
        self.file.as_ref().and_then(|f| f.error())
    }

    /// Queues an input.
    pub fn push(&mut self, input: Input) {
        self.queue.push_back(input);
    }

    /// Inputs queued and not yet started, and the bytes of rows among them (the only
    /// inputs that hold their text).
    pub fn queued(&self) -> (usize, u64) {
        let rows = self
            .queue
            .iter()
            .map(|i| match i {
                Input::Rows { size, .. } => *size,
                _ => 0,
            })
            .sum();
        (self.queue.len(), rows)
    }

    /// The next output in input order, `None` when every queued input is done. Blocks
    /// until it is ready (streamed files are worked on here).
    pub fn next_output(&mut self) -> Option<Output> {
        self.fill();
        match self.flight.front_mut()? {
            Slot::Task { id, bytes } => {
                let (id, bytes) = (*id, *bytes);
                let out = self.wait(id);
                self.flight.pop_front();
                self.flight_bytes -= bytes;
                Some(out)
            }
            Slot::Stream { id, stream } => {
                let mut out = stream.step(&self.settings);
                let finished = stream.finished();
                if let Some(file) = &self.file {
                    file.put(*id, out.take_rows(), finished);
                }
                if finished {
                    self.flight.pop_front();
                }
                Some(out)
            }
        }
    }

    /// Turns queued inputs into tasks, and says whether the read-ahead has room for more
    /// inputs (the caller feeding inputs keeps going until it has not: a task takes a
    /// whole group of queued files, so a short queue alone would leave the pool idle).
    pub fn hungry(&mut self) -> bool {
        self.fill();
        self.room()
    }

    fn room(&self) -> bool {
        self.flight.len() < self.max_tasks.max(1) && self.flight_bytes < AHEAD_BYTES
    }

    /// Turns queued inputs into tasks while there is room.
    fn fill(&mut self) {
        while self.room() {
            if let Some(blocks) = &mut self.blocks {
                if let Some((first_row, block, bytes)) = next_block(blocks) {
                    let name = Arc::clone(&blocks.name);
                    let s = Arc::clone(&self.settings);
                    self.spawn(bytes, move |out| {
                        out.bytes = bytes;
                        source::jsonl_block(&name, first_row, &block, &s.fields, &s.chunker, out);
                    });
                    continue;
                }
                self.end_blocks();
            }
            let Some(input) = self.queue.pop_front() else {
                return;
            };
            self.start(input);
        }
    }

    /// Drops the finished block reader, reporting a read error that ended it early.
    fn end_blocks(&mut self) {
        if let Some(Blocks {
            name,
            error: Some(err),
            left,
            ..
        }) = self.blocks.take()
        {
            self.spawn(left, move |out| {
                out.bytes = left;
                out.skipped
                    .push((name.to_string(), format!("cannot read: {err}")));
            });
        }
    }

    fn start(&mut self, input: Input) {
        let s = Arc::clone(&self.settings);
        match input {
            Input::Text { path, name, size } => {
                if self.streams(&path, size) {
                    let stream = Box::new(FileStream::new(path, name, size));
                    let id = self.next_id;
                    self.next_id += 1;
                    self.flight.push_back(Slot::Stream { id, stream });
                    return;
                }
                let mut files = vec![(path, name, size)];
                let mut bytes = size;
                while let Some(Input::Text { path, size, .. }) = self.queue.front() {
                    if files.len() >= GROUP_FILES
                        || bytes + size > self.group_bytes
                        || self.streams(path, *size)
                    {
                        break;
                    }
                    if let Some(Input::Text { path, name, size }) = self.queue.pop_front() {
                        bytes += size;
                        files.push((path, name, size));
                    }
                }
                self.spawn(bytes, move |out| {
                    source::text_files(&files, &s.chunker, out);
                });
            }
            Input::Jsonl { path, name, size } => match source::open(&path) {
                Ok(reader) => self.blocks = Some(blocks(name, reader, size)),
                Err(err) => {
                    let what = name.to_string();
                    self.spawn(size, move |out| {
                        out.bytes = size;
                        out.skipped.push((what, format!("cannot read: {err}")));
                    });
                }
            },
            Input::Stdin { jsonl: true } => {
                let reader: Box<dyn Read + Send> = Box::new(std::io::stdin());
                // No size is known up front: each block stands for the bytes it holds.
                self.blocks = Some(blocks(Arc::from("-"), reader, u64::MAX));
            }
            Input::Stdin { jsonl: false } => self.spawn(0, move |out| {
                let mut bytes = Vec::new();
                let what = "-".to_owned();
                if let Err(err) = std::io::stdin().read_to_end(&mut bytes) {
                    out.skipped.push((what, format!("cannot read: {err}")));
                    return;
                }
                out.bytes = bytes.len() as u64;
                match source::utf8(&bytes) {
                    Ok(text) => {
                        let doc = super::record::Doc {
                            source: "-",
                            row: None,
                            id: "-",
                        };
                        out.add(&s.chunker, text, &doc, &what);
                    }
                    Err(reason) => out.skipped.push((what, reason)),
                }
            }),
            Input::Rows {
                name,
                first_row,
                texts,
                ids,
                size,
            } => self.spawn(size, move |out| {
                out.bytes = size;
                source::rows(&name, first_row, &texts, ids.as_deref(), &s.chunker, out);
            }),
        }
    }

    /// Whether a text file is streamed rather than read whole.
    fn streams(&self, path: &std::path::Path, size: u64) -> bool {
        let limit = if source::is_gzip(path) {
            self.settings.stream_above / 4
        } else {
            self.settings.stream_above
        };
        size > limit && self.settings.chunker.streaming().is_some()
    }

    /// Runs `work` on the pool (or here, with one thread) as the next task.
    fn spawn(&mut self, bytes: u64, work: impl FnOnce(&mut Output) + Send + 'static) {
        let id = self.next_id;
        self.next_id += 1;
        self.flight.push_back(Slot::Task { id, bytes });
        self.flight_bytes += bytes;
        let settings = Arc::clone(&self.settings);
        let file = self.file.clone();
        let run = move || {
            let mut out = settings.output();
            let caught = catch_unwind(AssertUnwindSafe(|| work(&mut out)));
            if caught.is_err() {
                out.skipped.push((
                    "(a task)".to_owned(),
                    "internal error (a bug; please report it)".to_owned(),
                ));
            }
            if let Some(file) = file {
                file.put(id, out.take_rows(), true);
            }
            out
        };
        match &self.pool {
            Some(pool) => {
                let tx = self.tx.clone();
                pool.spawn(move || {
                    let _ = tx.send((id, run()));
                });
            }
            None => {
                self.done.insert(id, run());
            }
        }
    }

    fn wait(&mut self, id: usize) -> Output {
        loop {
            if let Some(out) = self.done.remove(&id) {
                return out;
            }
            match self.rx.recv() {
                Ok((k, out)) => {
                    self.done.insert(k, out);
                }
                // We hold a sender, so the channel cannot close; an empty output if it did.
                Err(_) => return self.settings.output(),
            }
        }
    }
}

fn blocks(name: Arc<str>, reader: Box<dyn Read + Send>, size: u64) -> Blocks {
    Blocks {
        name,
        reader: Box::new(BufReader::with_capacity(1 << 20, reader)),
        row: 0,
        left: size,
        error: None,
    }
}

/// The next block of whole lines: `(first row, bytes, input bytes it stands for)`.
fn next_block(b: &mut Blocks) -> Option<(u64, Vec<u8>, u64)> {
    let mut block = Vec::with_capacity(BLOCK_BYTES + 4096);
    while block.len() < BLOCK_BYTES {
        match b.reader.read_until(b'\n', &mut block) {
            Ok(0) => break,
            Ok(_) => {}
            Err(err) => {
                b.error = Some(err.to_string());
                break;
            }
        }
    }
    if block.is_empty() {
        return None;
    }
    let first = b.row;
    b.row += memchr::memchr_iter(b'\n', &block).count() as u64;
    let bytes = (block.len() as u64).min(b.left);
    b.left -= bytes;
    Some((first, block, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::chunker::Engine;

    fn job(threads: usize) -> Job {
        Job::new(Settings::for_tests(), Some(threads)).unwrap()
    }

    fn files(n: usize) -> impl Iterator<Item = Input> {
        (0..n).map(|k| Input::Text {
            path: format!("/nonexistent/ferrochunk-{k}.md").into(),
            name: Arc::from(format!("{k}.md")),
            size: 16_000,
        })
    }

    /// A caller that feeds inputs while the job is hungry gets several tasks in flight (a
    /// queue of one group at a time kept the second pool thread idle), and every output
    /// still comes back, in order.
    #[test]
    fn read_ahead_fills_every_thread() {
        let mut job = job(2);
        let mut inputs = files(2_000);
        let mut outputs = 0;
        loop {
            while job.hungry() {
                let batch: Vec<_> = inputs.by_ref().take(256).collect();
                if batch.is_empty() {
                    break;
                }
                for i in batch {
                    job.push(i);
                }
            }
            if outputs == 0 {
                assert!(job.flight.len() > 2, "{} tasks in flight", job.flight.len());
            }
            let Some(out) = job.next_output() else { break };
            outputs += out.skipped.len();
        }
        assert_eq!(outputs, 2_000);
    }

    /// A file in the temp folder, removed when dropped.
    struct Temp(std::path::PathBuf);

    impl Drop for Temp {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn temp(name: &str, data: &[u8]) -> Temp {
        let path = std::env::temp_dir().join(format!("ferrochunk-{}-{name}", std::process::id()));
        std::fs::write(&path, data).unwrap();
        Temp(path)
    }

    /// Every output's `(text_bytes, bytes)`, in order.
    fn counts(job: &mut Job) -> Vec<(u64, u64)> {
        std::iter::from_fn(|| job.next_output())
            .map(|o| (o.text_bytes, o.bytes))
            .collect()
    }

    /// JSON Lines report the UTF-8 bytes of their texts (not the escaped JSON), per block,
    /// and their size on disk, which was never set for them (progress stood at 0).
    #[test]
    fn jsonl_blocks_report_text_bytes() {
        let texts: Vec<String> = (0..20_000).map(|k| format!("grüße {k} 漢字 ")).collect();
        let mut lines = String::new();
        for t in &texts {
            lines += &serde_json::json!({ "text": t }).to_string();
            lines.push('\n');
        }
        let file = temp("blocks.jsonl", lines.as_bytes());
        let size = lines.len() as u64;
        for threads in [1, 2] {
            let mut job = job(threads);
            job.push(Input::Jsonl {
                path: file.0.clone(),
                name: Arc::from("blocks.jsonl"),
                size,
            });
            let got = counts(&mut job);
            let want: u64 = texts.iter().map(|t| t.len() as u64).sum();
            assert_eq!(got.iter().map(|c| c.0).sum::<u64>(), want);
            assert_eq!(got.iter().map(|c| c.1).sum::<u64>(), size);
        }
    }

    /// A gzipped text file reports its uncompressed text, read whole or streamed.
    #[test]
    fn gzipped_text_reports_uncompressed_bytes() {
        use std::io::Write as _;
        let text = "Zeile: grüße, 漢字 and words.\n\n".repeat(4_000);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(text.as_bytes()).unwrap();
        let data = gz.finish().unwrap();
        let file = temp("doc.txt.gz", &data);
        for stream_above in [u64::MAX, 1_000] {
            let mut job = job(1);
            let settings = Arc::get_mut(&mut job.settings).unwrap();
            settings.stream_above = stream_above;
            let seps = ["\n\n", " ", ""].map(|s| (s.to_owned(), false)).to_vec();
            if let Engine::Recursive { separators, .. } = &mut settings.chunker.engine {
                *separators = seps; // streaming needs them
            }
            job.push(Input::Text {
                path: file.0.clone(),
                name: Arc::from("doc.txt.gz"),
                size: data.len() as u64,
            });
            let got = counts(&mut job);
            assert_eq!(got.iter().map(|c| c.0).sum::<u64>(), text.len() as u64);
            assert_eq!(got.iter().map(|c| c.1).sum::<u64>(), data.len() as u64);
        }
    }
}
