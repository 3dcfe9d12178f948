//! Batches on a thread pool: many documents split with the GIL released, in input order.
//!
//! Each document goes through the three stages of a one-document call, pulled apart so the
//! middle one can run on a pool thread: read its Python inputs (calling thread, GIL held),
//! the native work (any thread, no GIL), build its Python objects (calling thread, GIL
//! held). The calling thread reads ahead a bounded amount from the (possibly lazy) input,
//! hands groups of documents to the pool, and builds each result in input order while the
//! pool works on the next ones; pool threads never touch a Python object, so they never
//! wait for the GIL. With one thread everything runs on the calling thread, as a loop of
//! one-document calls would.
//!
//! The per-kind stages are the one-document entry points' own (`compute` / `*_list` in
//! `split.rs`, `markdown/chunker.rs`, `tokens/tokenizer.rs`), so a batch gives exactly what
//! a loop of `split` calls gives.

use std::collections::{BTreeMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyUnicodeEncodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyMappingProxy, PyString, PyTuple};
use rayon::ThreadPool;

use super::ffi::{collector_paused, on_units, utf8_of, HeldText, HeldUtf8};
use super::markdown::chunker::PyMarkdownChunker;
use super::split::PySplitter;
use super::tokens::huggingface::PyHfCounter;
use super::tokens::tokenizer::{PyEncoder, PyTokenCounter};
use super::tokens::windows::{window_list, window_parts};
use crate::length::Length;
use crate::parallel;

/// A document's Python result, made on the calling thread with the GIL.
type Build = Box<dyn FnOnce(Python<'_>) -> PyResult<Py<PyAny>> + Send>;
/// A document's native work, run on any thread without the GIL.
type Work = Box<dyn FnOnce() -> Build + Send>;
/// Reads one document's Python inputs: its work, and its size in bytes (for read-ahead).
type Prepare = Box<dyn for<'py> FnMut(Item<'py>) -> PyResult<(Work, usize)> + Send>;

/// One document as pulled from the inputs: its position, text and the parallel extras
/// (metadata, document id), `None` where that input was not given.
pub struct Item<'py> {
    index: usize,
    text: Bound<'py, PyAny>,
    extra: Vec<Option<Bound<'py, PyAny>>>,
}

/// A group of documents handed to the pool together once it holds this many bytes...
const TASK_BYTES: usize = 256 * 1024;
/// ...or this many documents (small ones share the cost of a hand-off).
const TASK_DOCS: usize = 64;
/// Read-ahead: at most this many groups per thread are waiting or running...
const TASKS_PER_THREAD: usize = 4;
/// ...holding at most this many bytes of text (plus one group).
const AHEAD_BYTES: usize = 64 * 1024 * 1024;

/// The iterator `split_iter` returns: each next item is one document's result, in order.
#[pyclass(name = "BatchIter", module = "ferrochunk._native")]
pub struct PyBatchIter {
    /// `None` once finished; locked only by the thread calling `__next__`.
    state: Mutex<Option<Pipeline>>,
}

struct Pipeline {
    /// The texts, then the extras (`None`: not given); the texts end the input.
    inputs: Vec<Option<Py<PyIterator>>>,
    names: &'static [&'static str],
    prepare: Prepare,
    pool: Option<Arc<ThreadPool>>,
    tx: Sender<(usize, Vec<Build>)>,
    /// Taken out while waiting without the GIL (a receiver moves between threads but is
    /// not shared by them).
    rx: Option<Receiver<(usize, Vec<Build>)>>,
    documents: usize,
    /// Groups handed out, and the next one to build.
    submitted: usize,
    head: usize,
    sizes: VecDeque<usize>,
    ahead_bytes: usize,
    max_tasks: usize,
    done: BTreeMap<usize, Vec<Build>>,
    ready: VecDeque<Build>,
    /// An error met while reading ahead: raised once the documents before it are out.
    error: Option<PyErr>,
}

impl Pipeline {
    fn new(
        inputs: Vec<Option<Bound<'_, PyAny>>>,
        names: &'static [&'static str],
        prepare: Prepare,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let threads = parallel::resolve(threads)?;
        let pool = if threads > 1 {
            Some(parallel::pool(threads)?)
        } else {
            None
        };
        let inputs = inputs
            .into_iter()
            .map(|input| {
                input
                    .map(|i| Ok::<_, PyErr>(i.try_iter()?.unbind()))
                    .transpose()
            })
            .collect::<PyResult<Vec<_>>>()?;
        let (tx, rx) = channel();
        Ok(Self {
            inputs,
            names,
            prepare,
            max_tasks: if pool.is_some() {
                TASKS_PER_THREAD * threads
            } else {
                1
            },
            pool,
            tx,
            rx: Some(rx),
            documents: 0,
            submitted: 0,
            head: 0,
            sizes: VecDeque::new(),
            ahead_bytes: 0,
            done: BTreeMap::new(),
            ready: VecDeque::new(),
            error: None,
        })
    }

    /// The next document's result, `None` at the end of the input.
    fn next(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        loop {
            if let Some(build) = self.ready.pop_front() {
                return collector_paused(py, || build(py)).map(Some);
            }
            self.fill(py);
            if self.head == self.submitted {
                return match self.error.take() {
                    Some(err) => Err(err),
                    None => Ok(None),
                };
            }
            let builds = self.wait(py, self.head)?;
            self.ahead_bytes -= self.sizes.pop_front().unwrap_or(0);
            self.head += 1;
            self.ready = builds.into();
        }
    }

    /// Reads ahead and hands groups to the pool while under the read-ahead bounds.
    fn fill(&mut self, py: Python<'_>) {
        while self.error.is_none()
            && self.inputs[0].is_some()
            && self.submitted - self.head < self.max_tasks
            && self.ahead_bytes < AHEAD_BYTES
        {
            let (mut works, mut bytes) = (Vec::new(), 0);
            while works.len() < TASK_DOCS && bytes < TASK_BYTES {
                match self
                    .pull(py)
                    .and_then(|item| item.map(&mut self.prepare).transpose())
                {
                    Ok(Some((work, size))) => {
                        works.push(work);
                        bytes += size;
                    }
                    Ok(None) => break,
                    Err(err) => {
                        self.error = Some(err);
                        break;
                    }
                }
            }
            if works.is_empty() {
                break;
            }
            self.submit(py, works, bytes);
        }
    }

    /// The next document from the inputs, checking that the extras keep pace with the texts.
    fn pull<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Item<'py>>> {
        let index = self.documents;
        let Some(texts) = &self.inputs[0] else {
            return Ok(None);
        };
        let Some(text) = texts.bind(py).clone().next().transpose()? else {
            self.inputs[0] = None;
            for (k, input) in self.inputs.iter().enumerate().skip(1) {
                if let Some(input) = input {
                    if input.bind(py).clone().next().transpose()?.is_some() {
                        return Err(PyValueError::new_err(format!(
                            "{} has more items than texts ({index})",
                            self.names[k]
                        )));
                    }
                }
            }
            return Ok(None);
        };
        let mut extra = Vec::with_capacity(self.inputs.len() - 1);
        for (k, input) in self.inputs.iter().enumerate().skip(1) {
            extra.push(match input {
                Some(input) => {
                    Some(input.bind(py).clone().next().transpose()?.ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "{} has fewer items than texts: it ended at index {index}",
                            self.names[k]
                        ))
                    })?)
                }
                None => None,
            });
        }
        self.documents += 1;
        Ok(Some(Item { index, text, extra }))
    }

    /// Runs a group on the pool (or here, with one thread) and notes its size.
    fn submit(&mut self, py: Python<'_>, works: Vec<Work>, bytes: usize) {
        let task = self.submitted;
        self.submitted += 1;
        self.sizes.push_back(bytes);
        self.ahead_bytes += bytes;
        let run = move || works.into_iter().map(run_caught).collect::<Vec<_>>();
        if let Some(pool) = &self.pool {
            let tx = self.tx.clone();
            pool.spawn(move || {
                // The receiver is gone only if the iterator was dropped: nothing to do.
                let _ = tx.send((task, run()));
            });
        } else {
            let builds = py.detach(run);
            self.done.insert(task, builds);
        }
    }

    /// The builds of group `task`, waiting for the pool without the GIL (and waking now
    /// and then so that Ctrl-C interrupts a long wait).
    fn wait(&mut self, py: Python<'_>, task: usize) -> PyResult<Vec<Build>> {
        loop {
            if let Some(builds) = self.done.remove(&task) {
                return Ok(builds);
            }
            let rx = self.rx.take().ok_or_else(stopped)?;
            let (rx, got) = py.detach(move || {
                let got = rx.recv_timeout(Duration::from_millis(100));
                (rx, got)
            });
            self.rx = Some(rx);
            match got {
                Ok((k, builds)) => {
                    self.done.insert(k, builds);
                }
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => return Err(stopped()),
            }
        }
    }
}

fn stopped() -> PyErr {
    PyRuntimeError::new_err("ferrochunk: the batch's pool stopped")
}

/// Runs one document's work; a panic (a bug) becomes that document's error, never an abort.
fn run_caught(work: Work) -> Build {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|_| {
        Box::new(|_| {
            Err(PyRuntimeError::new_err(
                "ferrochunk: internal error while splitting (a bug; please report it)",
            ))
        })
    })
}

impl PyBatchIter {
    /// An iterator over the results of a pipeline (`Pipeline::new`'s arguments).
    fn start(pipeline: PyResult<Pipeline>) -> PyResult<Self> {
        Ok(Self {
            state: Mutex::new(Some(pipeline?)),
        })
    }
}

#[pymethods]
impl PyBatchIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        // Never wait for the lock: its holder may be waiting for the GIL we hold.
        let mut guard = self.state.try_lock().map_err(|_| {
            PyRuntimeError::new_err("this batch iterator is already in use by another thread")
        })?;
        let Some(state) = guard.as_mut() else {
            return Ok(None);
        };
        let out = state.next(py);
        if !matches!(out, Ok(Some(_))) {
            *guard = None; // finished or failed: like a generator, it stays finished
        }
        out
    }
}

/// `err`, prefixed with the document's position, as the same exception type.
fn at_index(py: Python<'_>, index: usize, err: PyErr) -> PyErr {
    let ty = err.get_type(py);
    let message = format!("texts[{index}]: {}", err.value(py));
    let out = if ty.is(py.get_type::<PyTypeError>()) {
        PyTypeError::new_err(message)
    } else {
        PyValueError::new_err(message)
    };
    out.set_cause(py, Some(err));
    out
}

/// The `str` of a document, or an error naming it.
fn str_of<'a, 'py>(item: &'a Item<'py>) -> PyResult<&'a Bound<'py, PyString>> {
    item.text.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "texts[{}]: text must be str, got {}",
            item.index,
            item.text
                .get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })
}

/// A document's `str` held for the pool, read where CPython stores it (see [`HeldText`]);
/// with `check`, a lone surrogate is refused here, naming the document.
fn held_of(item: &Item<'_>, check: bool) -> PyResult<HeldText> {
    let text = str_of(item)?;
    HeldText::new(text, check).map_err(|err| surrogate(item.text.py(), item.index, text, &err))
}

/// `err`, or for a lone surrogate met while building a document's result, the message
/// naming the document that [`held_of`] gives.
fn named(py: Python<'_>, index: usize, text: &Bound<'_, PyString>, err: PyErr) -> PyErr {
    if err.is_instance_of::<PyUnicodeEncodeError>(py) {
        surrogate(py, index, text, &err)
    } else {
        err
    }
}

/// The message `Splitter.split` gives for a lone surrogate, naming the document.
fn surrogate(py: Python<'_>, index: usize, text: &Bound<'_, PyString>, err: &PyErr) -> PyErr {
    let start = err
        .value(py)
        .getattr("start")
        .and_then(|s| s.extract::<usize>())
        .unwrap_or(0);
    let ch = text
        .get_item(start)
        .and_then(|c| c.repr())
        .map_or_else(|_| "?".to_owned(), |r| r.to_string());
    PyValueError::new_err(format!(
        "texts[{index}]: text has a lone surrogate {ch} at index {start}, which has no UTF-8 \
         encoding; decode the input with errors='replace' or remove it"
    ))
}

/// A native counter held for a batch: pool threads measure with it without the GIL.
enum Counter {
    Bpe(Py<PyTokenCounter>),
    Hf(Py<PyHfCounter>),
}

impl Counter {
    /// The counter behind `length`; `Err` for a Python callable (the caller's sequential path).
    fn of(length: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Arc<Self>>> {
        let Some(func) = length else {
            return Ok(None);
        };
        if let Ok(c) = func.cast::<PyTokenCounter>() {
            return Ok(Some(Arc::new(Self::Bpe(c.clone().unbind()))));
        }
        if let Ok(c) = func.cast::<PyHfCounter>() {
            return Ok(Some(Arc::new(Self::Hf(c.clone().unbind()))));
        }
        Err(PyTypeError::new_err(
            "a batch runs in parallel only with a native length (a token counter); \
             a Python length_function goes one document at a time",
        ))
    }

    fn get(&self) -> &(dyn Length + Sync) {
        match self {
            Self::Bpe(c) => c.get().length(),
            Self::Hf(c) => c.get().length(),
        }
    }
}

fn measure(counter: Option<&Arc<Counter>>) -> Option<&(dyn Length + Sync)> {
    counter.map(|c| c.get())
}

/// The metadata of chunks whose document came without any: one shared empty read-only view,
/// as the one-document calls give.
fn empty_view(py: Python<'_>) -> Py<PyAny> {
    PyMappingProxy::new(py, PyDict::new(py).as_mapping())
        .into_any()
        .unbind()
}

/// `Splitter.split` over many documents: each result is `(chunks, oversized)`.
#[pyfunction]
#[pyo3(signature = (splitter, texts, metadatas, length=None, threads=None))]
pub fn split_iter(
    splitter: Py<PySplitter>,
    texts: Bound<'_, PyAny>,
    metadatas: Option<Bound<'_, PyAny>>,
    length: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
) -> PyResult<PyBatchIter> {
    let counter = Counter::of(length)?;
    let empty = empty_view(texts.py());
    let prepare: Prepare = Box::new(move |item| {
        // As `Splitter.split`: checked up front only when a length reads UTF-8, else while
        // the byte offsets are computed.
        let held = held_of(&item, counter.is_some())?;
        let py = item.text.py();
        let meta = match &item.extra[0] {
            Some(meta) => meta.clone().unbind(),
            None => empty.clone_ref(py),
        };
        let (splitter, counter, index) = (splitter.clone_ref(py), counter.clone(), item.index);
        let bytes = held.size();
        let work: Work = Box::new(move || {
            let out = splitter
                .get()
                .compute(held.units(), measure(counter.as_ref()));
            Box::new(move |py| {
                let computed = out.map_err(|e| at_index(py, index, e.into()))?;
                let text = held.bind(py);
                let (list, oversized) =
                    PySplitter::chunk_list(text, held.units(), computed, meta.bind(py))
                        .map_err(|err| named(py, index, text, err))?;
                pair(py, list.into_any(), oversized)
            })
        });
        Ok((work, bytes))
    });
    let inputs = vec![Some(texts), metadatas];
    PyBatchIter::start(Pipeline::new(
        inputs,
        &["texts", "metadatas"],
        prepare,
        threads,
    ))
}

/// The drop-ins' `split_text` over many texts: each result is `(strings, oversized)`; a
/// text the native engine does not take (not a `str`, lone surrogates, LangChain's own
/// errors) gets `fallback(text)` instead, called in its turn (the one-text path).
#[pyfunction]
#[pyo3(signature = (splitter, texts, fallback, length=None, threads=None))]
pub fn split_text_iter(
    splitter: Py<PySplitter>,
    texts: Bound<'_, PyAny>,
    fallback: Py<PyAny>,
    length: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
) -> PyResult<PyBatchIter> {
    let counter = Counter::of(length)?;
    let prepare: Prepare = Box::new(move |item| {
        let py = item.text.py();
        let original = item.text.clone().unbind();
        let fallback = fallback.clone_ref(py);
        let check = splitter.get().checks_first(counter.is_some());
        let Ok(held) = held_of(&item, check) else {
            let build: Build = Box::new(move |py| fallback.call1(py, (original,)));
            return Ok((Box::new(move || build) as Work, 0));
        };
        let (splitter, counter) = (splitter.clone_ref(py), counter.clone());
        let bytes = held.size();
        let work: Work = Box::new(move || {
            let length = measure(counter.as_ref());
            let out = on_units!(held.units(), t => splitter.get().split_native(t, length));
            Box::new(move |py| {
                let Ok(out) = out else {
                    return fallback.call1(py, (original,)); // LangChain's exact error
                };
                match PySplitter::text_list(held.bind(py), held.units(), check, &out) {
                    Ok(list) => pair(py, list.into_any(), out.oversized),
                    // A lone surrogate found on the way: the one-text path, as `split_text`.
                    Err(err) if err.is_instance_of::<PyUnicodeEncodeError>(py) => {
                        fallback.call1(py, (original,))
                    }
                    Err(err) => Err(err),
                }
            })
        });
        Ok((work, bytes))
    });
    PyBatchIter::start(Pipeline::new(
        vec![Some(texts)],
        &["texts"],
        prepare,
        threads,
    ))
}

fn pair(py: Python<'_>, list: Bound<'_, PyAny>, oversized: Vec<usize>) -> PyResult<Py<PyAny>> {
    let oversized = oversized.into_pyobject(py)?.into_any();
    Ok(PyTuple::new(py, [list, oversized])?.into_any().unbind())
}

/// `MarkdownChunker.split` over many documents: each result is the list of chunks; a `str`
/// text or id the native engine does not take (lone surrogates) gets
/// `fallback(text, metadata, id)`.
#[pyfunction]
#[pyo3(signature = (chunker, texts, metadatas, document_ids, fallback, length=None, embedding_text=false, parent_size=None, threads=None))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments
pub fn markdown_iter(
    chunker: Py<PyMarkdownChunker>,
    texts: Bound<'_, PyAny>,
    metadatas: Option<Bound<'_, PyAny>>,
    document_ids: Option<Bound<'_, PyAny>>,
    fallback: Py<PyAny>,
    length: Option<&Bound<'_, PyAny>>,
    embedding_text: bool,
    parent_size: Option<usize>,
    threads: Option<usize>,
) -> PyResult<PyBatchIter> {
    let counter = Counter::of(length)?;
    let prepare: Prepare = Box::new(move |item| {
        let py = item.text.py();
        let held = match held_of(&item, true) {
            Ok(held) => Some(held),
            // A `str` with lone surrogates: the fallback (another type: the error below).
            Err(_) if item.text.is_instance_of::<PyString>() => None,
            Err(err) => return Err(err),
        };
        // So is a document id with lone surrogates (the reference hashes it as it is).
        let id = match &item.extra[1] {
            Some(id) if !id.is_none() => match id.extract::<String>() {
                Ok(id) => Some(Some(id)),
                Err(_) if id.is_instance_of::<PyString>() => None,
                Err(_) => {
                    let message = format!("document_ids[{}] must be str or None", item.index);
                    return Err(PyTypeError::new_err(message));
                }
            },
            _ => Some(None),
        };
        let (Some(held), Some(id)) = (held, id) else {
            let args = (
                item.text.clone(),
                item.extra[0].clone(),
                item.extra[1].clone(),
            );
            let args = args.into_pyobject(py)?.unbind();
            let fallback = fallback.clone_ref(py);
            let build: Build = Box::new(move |py| fallback.call1(py, args.bind(py)));
            return Ok((Box::new(move || build) as Work, 0));
        };
        let meta = match &item.extra[0] {
            Some(meta) => meta.cast::<PyDict>()?.clone().unbind(),
            None => PyDict::new(py).unbind(),
        };
        let (chunker, counter, index) = (chunker.clone_ref(py), counter.clone(), item.index);
        let bytes = held.size();
        let work: Work = Box::new(move || {
            let text = HeldUtf8::new(held);
            let out =
                chunker
                    .get()
                    .compute(text.as_str(), id, parent_size, measure(counter.as_ref()));
            Box::new(move |py| {
                let computed = out.map_err(|e| at_index(py, index, e.into()))?;
                let hierarchy = parent_size.is_some();
                let (chunks, _) = PyMarkdownChunker::build_py(
                    text.held().bind(py),
                    text.as_str(),
                    &computed,
                    meta.bind(py),
                    embedding_text,
                    hierarchy,
                )?;
                Ok(chunks.into_pyobject(py)?.into_any().unbind())
            })
        });
        Ok((work, bytes))
    });
    let inputs = vec![Some(texts), metadatas, document_ids];
    let names = &["texts", "metadatas", "document_ids"];
    PyBatchIter::start(Pipeline::new(inputs, names, prepare, threads))
}

/// Token windows (`split_tokens`) over many documents: each result is the list of chunks.
#[pyfunction]
#[pyo3(signature = (encoder, texts, metadatas, size, overlap, threads=None))]
pub fn windows_iter(
    encoder: Py<PyEncoder>,
    texts: Bound<'_, PyAny>,
    metadatas: Option<Bound<'_, PyAny>>,
    size: usize,
    overlap: usize,
    threads: Option<usize>,
) -> PyResult<PyBatchIter> {
    let empty = empty_view(texts.py());
    let prepare: Prepare = Box::new(move |item| {
        let held = held_of(&item, true)?;
        let py = item.text.py();
        let meta = match &item.extra[0] {
            Some(meta) => meta.clone().unbind(),
            None => empty.clone_ref(py),
        };
        let (encoder, index) = (encoder.clone_ref(py), item.index);
        let bytes = held.size();
        let work: Work = Box::new(move || {
            let text = HeldUtf8::new(held);
            let out = encoder.get().window_spans(text.as_str(), size, overlap);
            Box::new(move |py| {
                let spans = out.map_err(|e| at_index(py, index, e.into()))?;
                Ok(
                    PyEncoder::window_list(py, text.as_str(), &spans, meta.bind(py))?
                        .into_any()
                        .unbind(),
                )
            })
        });
        Ok((work, bytes))
    });
    let inputs = vec![Some(texts), metadatas];
    PyBatchIter::start(Pipeline::new(
        inputs,
        &["texts", "metadatas"],
        prepare,
        threads,
    ))
}

/// The `TokenTextSplitter` drop-in's `split_text` over many texts: each result is the list of
/// windows (U+FFFD where one cuts a character); a text the native path does not take (not
/// a `str`, lone surrogates, a disallowed special token) gets `fallback(text)` in its turn.
#[pyfunction]
#[pyo3(signature = (encoder, texts, size, overlap, allowed, disallowed, fallback, threads=None))]
#[allow(clippy::too_many_arguments)] // mirrors the splitter's settings
#[allow(clippy::needless_pass_by_value)] // PyO3 extracts lists by value
pub fn lossy_iter(
    encoder: Py<PyEncoder>,
    texts: Bound<'_, PyAny>,
    size: usize,
    overlap: usize,
    allowed: Vec<String>,
    disallowed: Vec<String>,
    fallback: Py<PyAny>,
    threads: Option<usize>,
) -> PyResult<PyBatchIter> {
    let policy = Arc::new(encoder.get().policy(&allowed, &disallowed));
    let prepare: Prepare = Box::new(move |item| {
        let py = item.text.py();
        let original = item.text.clone().unbind();
        let fallback = fallback.clone_ref(py);
        // As `split_lossy`: read in place, converted to UTF-8 on the pool into a copy
        // dropped after (not one CPython would keep inside the string).
        let Ok(held) = held_of(&item, true) else {
            let build: Build = Box::new(move |py| fallback.call1(py, (original,)));
            return Ok((Box::new(move || build) as Work, 0));
        };
        let (encoder, policy) = (encoder.clone_ref(py), Arc::clone(&policy));
        let bytes = held.size();
        let work: Work = Box::new(move || {
            let inner = encoder.get().core();
            let text = utf8_of(held.units());
            let windows = inner
                .encode(&text, &policy)
                .and_then(|ids| window_parts(inner, &text, &ids, (size, overlap)));
            drop(text);
            Box::new(move |py| {
                let list = match windows {
                    Ok(windows) => window_list(py, held.units(), &windows).map(Bound::into_any),
                    Err(_) => fallback.bind(py).call1((original,)), // the one-text path's error
                };
                drop(held); // released with the GIL held, not queued by a pool thread
                Ok(list?.unbind())
            })
        });
        Ok((work, bytes))
    });
    PyBatchIter::start(Pipeline::new(
        vec![Some(texts)],
        &["texts"],
        prepare,
        threads,
    ))
}

/// The thread count `threads` stands for (`None`: environment, else the CPUs available).
#[pyfunction]
#[pyo3(signature = (threads=None))]
pub fn resolve_threads(threads: Option<usize>) -> PyResult<usize> {
    Ok(parallel::resolve(threads)?)
}

/// Forgets the thread pools after `fork` (registered with `os.register_at_fork`).
#[pyfunction]
pub fn after_fork() {
    parallel::pools::after_fork();
}
