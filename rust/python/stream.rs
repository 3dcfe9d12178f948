//! `_native.FileSplitter`: the engine of `Splitter.split_file`. The Python side reads the
//! file and feeds bytes, first to choose the top separator (a first pass), then to split;
//! chunks come back with offsets into the whole file (see `crate::stream`).

use std::sync::Mutex;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use super::chunk::PyChunk;
use super::ffi::collector_paused;
use super::length::PyLength;
use super::split::native_length;
use crate::error::Result;
use crate::length::Length;
use crate::split::{KeepSeparator, Separator, SplitConfig};
use crate::stream::rules::Rule;
use crate::stream::{Chooser, Emitted, StreamSplitter, Utf8Stream};

/// A file (or stream) being split: choosing its top separator, then splitting it.
#[pyclass(name = "FileSplitter", module = "ferrochunk._native")]
pub struct PyFileSplitter {
    state: Mutex<State>,
}

struct State {
    config: SplitConfig,
    seps: Vec<Separator>,
    rules: Vec<Rule>,
    chooser: Chooser,
    utf8: Utf8Stream,
    stream: Option<StreamSplitter>,
    index: usize,
}

impl PyFileSplitter {
    fn with<T>(&self, f: impl FnOnce(&mut State) -> PyResult<T>) -> PyResult<T> {
        let mut state = self.state.try_lock().map_err(|_| {
            PyRuntimeError::new_err("this file splitter is in use by another thread")
        })?;
        f(&mut state)
    }
}

impl State {
    fn stream(&mut self) -> PyResult<&mut StreamSplitter> {
        self.stream
            .as_mut()
            .ok_or_else(|| PyRuntimeError::new_err("start() must be called before feed()"))
    }

    /// Runs `step` on the stream with the user's length, then builds the chunks.
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        metadata: &Bound<'py, PyAny>,
        length: Option<&Bound<'py, PyAny>>,
        step: impl FnOnce(&mut StreamSplitter, Option<&dyn Length>) -> Result<Emitted> + Send,
    ) -> PyResult<(Bound<'py, PyList>, Vec<usize>)> {
        let stream = self.stream()?;
        let native = length.and_then(native_length);
        let emitted = match (length, native) {
            (None, _) => py.detach(|| step(stream, None))?,
            (Some(_), Some(native)) => py.detach(|| step(stream, Some(native)))?,
            (Some(func), None) => {
                let length = PyLength::new(func.clone());
                let out = step(stream, Some(&length));
                length.finish(out)?
            }
        };
        collector_paused(py, || {
            let list = PyList::empty(py);
            for c in &emitted.chunks {
                let text = stream_text(self.stream.as_ref(), c);
                let count = match native {
                    Some(native) => Some(native.length(text)?),
                    None => None,
                };
                let chunk = PyChunk::new(
                    PyString::new(py, text).unbind(),
                    c.char_start,
                    c.char_end,
                    c.byte_start,
                    c.byte_end,
                    self.index,
                    metadata.clone().unbind(),
                    count,
                );
                self.index += 1;
                list.append(chunk.into_object(py)?)?;
            }
            Ok((list, emitted.oversized))
        })
    }
}

fn stream_text<'a>(stream: Option<&'a StreamSplitter>, chunk: &crate::split::Chunk) -> &'a str {
    stream.map_or("", |s| s.text(chunk))
}

#[pymethods]
impl PyFileSplitter {
    /// Separators as `(pattern, is_regex)` in the core's syntax, kept at the `keep` end.
    #[new]
    #[pyo3(signature = (chunk_size, chunk_overlap, separators, keep, strip_whitespace))]
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts a list by value
    fn new(
        chunk_size: i64,
        chunk_overlap: i64,
        separators: Vec<(String, bool)>,
        keep: &str,
        strip_whitespace: bool,
    ) -> PyResult<Self> {
        let keep = match keep {
            "start" => KeepSeparator::Start,
            "end" => KeepSeparator::End,
            _ => return Err(PyValueError::new_err("keep must be 'start' or 'end'")),
        };
        let config = SplitConfig::new(chunk_size, chunk_overlap)?
            .keep(keep)
            .strip(strip_whitespace);
        let seps = separators
            .iter()
            .map(|(p, re)| {
                if *re {
                    Separator::regex(p)
                } else {
                    Ok(Separator::literal(p))
                }
            })
            .collect::<Result<Vec<_>>>()?;
        let rules: Vec<Rule> = separators.iter().map(|(p, re)| Rule::of(p, *re)).collect();
        let chooser = Chooser::new(seps.clone(), rules.clone());
        Ok(Self {
            state: Mutex::new(State {
                config,
                seps,
                rules,
                chooser,
                utf8: Utf8Stream::default(),
                stream: None,
                index: 0,
            }),
        })
    }

    /// First pass: reads bytes; `True` once the top separator is known without more.
    fn choose(&self, py: Python<'_>, data: &[u8]) -> PyResult<bool> {
        self.with(|s| {
            py.detach(|| {
                let mut text = String::with_capacity(data.len());
                s.utf8.push(data, &mut text)?;
                s.chooser.feed(&text);
                Ok::<_, crate::error::Error>(s.chooser.decided())
            })
            .map_err(PyErr::from)
        })
    }

    /// Ends the first pass; the index of the top separator.
    fn start(&self) -> PyResult<usize> {
        self.with(|s| {
            if !s.chooser.decided() {
                s.utf8.finish()?;
            }
            let top = s.chooser.finish();
            let rule = s.rules[top].clone();
            s.stream = Some(StreamSplitter::new(s.config, s.seps.clone(), rule, top));
            Ok(top)
        })
    }

    /// Second pass: the next bytes; the chunks now final and the sizes to warn about.
    #[pyo3(signature = (data, metadata, length=None))]
    fn feed<'py>(
        &self,
        py: Python<'py>,
        data: &[u8],
        metadata: &Bound<'py, PyAny>,
        length: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyList>, Vec<usize>)> {
        self.with(|s| s.run(py, metadata, length, |stream, len| stream.feed(data, len)))
    }

    /// Ends the text: the remaining chunks.
    #[pyo3(signature = (metadata, length=None))]
    fn finish<'py>(
        &self,
        py: Python<'py>,
        metadata: &Bound<'py, PyAny>,
        length: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyList>, Vec<usize>)> {
        self.with(|s| s.run(py, metadata, length, |stream, len| stream.finish(len)))
    }
}
