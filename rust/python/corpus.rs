//! `_native.CorpusJob`: the CLI's corpus job (`crate::corpus`), fed inputs by a Python
//! iterator and read as an iterator of outputs, in input order, with the GIL released
//! while the pool works.

use std::fs::File;
use std::path::PathBuf;
use std::sync::Mutex;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyIterator, PyTuple};

use super::markdown::chunker::PyMarkdownChunker;
use super::split::PySplitter;
use super::tokens::tokenizer::{PyEncoder, PyTokenCounter};
use crate::corpus::source::Input;
use crate::corpus::{
    Columns, CorpusChunker, Engine, Fields, Format, Ints, Job, Output, Payload, Settings, Strings,
};

/// Inputs pulled at a time while the job has room (one group of small files; rows count
/// by their bytes).
const QUEUE_INPUTS: usize = 256;
const QUEUE_ROW_BYTES: u64 = 16 << 20;

/// A running corpus job.
#[pyclass(name = "CorpusJob", module = "ferrochunk._native")]
pub struct PyCorpusJob {
    state: Mutex<State>,
}

struct State {
    job: Job,
    inputs: Option<Py<PyIterator>>,
}

/// The chunker a job runs, from the native object the Python side configured.
fn chunker(
    engine: &Bound<'_, PyAny>,
    settings: String,
    separators: Option<Vec<(String, bool)>>,
    length: Option<&Bound<'_, PyAny>>,
    window: (usize, usize),
) -> PyResult<CorpusChunker> {
    let length = match length {
        None => None,
        Some(l) => Some(
            l.cast::<PyTokenCounter>()
                .map_err(|_| PyTypeError::new_err("length must be a TokenCounter"))?
                .get()
                .length()
                .clone(),
        ),
    };
    let engine = if let Ok(s) = engine.cast::<PySplitter>() {
        Engine::Recursive {
            splitter: s.get().core().clone(),
            separators: separators.unwrap_or_default(),
        }
    } else if let Ok(m) = engine.cast::<PyMarkdownChunker>() {
        Engine::Markdown(m.get().core().0.clone())
    } else if let Ok(e) = engine.cast::<PyEncoder>() {
        Engine::Tokens {
            tokenizer: *e.get().core(),
            size: window.0,
            overlap: window.1,
        }
    } else {
        return Err(PyTypeError::new_err(
            "engine must be a native Splitter, MarkdownChunker or Encoder",
        ));
    };
    Ok(CorpusChunker {
        engine,
        length,
        settings,
    })
}

/// One input tuple from the Python side (see `ferrochunk/cli/inputs.py`).
fn input(item: &Bound<'_, PyAny>) -> PyResult<Input> {
    let tuple = item.cast::<PyTuple>()?;
    let kind: String = tuple.get_item(0)?.extract()?;
    let name = |k: usize| -> PyResult<std::sync::Arc<str>> {
        Ok(std::sync::Arc::from(
            tuple.get_item(k)?.extract::<String>()?,
        ))
    };
    Ok(match kind.as_str() {
        "text" | "jsonl" => {
            // A `PathBuf`, not a `String`: a name that is not UTF-8 (lone surrogates from
            // `os.fsdecode`) goes back to its bytes; `name` is its printable form.
            let path: PathBuf = tuple.get_item(1)?.extract()?;
            let (name, size) = (name(2)?, tuple.get_item(3)?.extract()?);
            if kind == "text" {
                Input::Text { path, name, size }
            } else {
                Input::Jsonl { path, name, size }
            }
        }
        "stdin" => Input::Stdin {
            jsonl: tuple.get_item(1)?.extract()?,
        },
        "rows" => Input::Rows {
            name: name(1)?,
            first_row: tuple.get_item(2)?.extract()?,
            texts: tuple.get_item(3)?.extract()?,
            ids: tuple.get_item(4)?.extract()?,
            size: tuple.get_item(5)?.extract()?,
        },
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown input kind {kind:?}"
            )))
        }
    })
}

fn strings<'py>(py: Python<'py>, s: &Strings) -> PyResult<Bound<'py, PyTuple>> {
    let offsets: Vec<u8> = s.offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    let validity = s.validity.as_ref().map(|v| PyBytes::new(py, v));
    (
        PyBytes::new(py, &offsets),
        PyBytes::new(py, &s.data),
        validity,
    )
        .into_pyobject(py)
}

fn ints<'py>(py: Python<'py>, i: &Ints) -> PyResult<Bound<'py, PyTuple>> {
    let values: Vec<u8> = i.values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let validity = i.validity.as_ref().map(|v| PyBytes::new(py, v));
    (PyBytes::new(py, &values), validity).into_pyobject(py)
}

/// Columns as `{name: buffers}` for `ferrochunk/cli/outputs.py` to wrap in Arrow arrays.
fn columns<'py>(py: Python<'py>, c: &Columns) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("len", c.len)?;
    d.set_item("markdown", c.markdown)?;
    d.set_item("source", strings(py, &c.source)?)?;
    d.set_item("row", ints(py, &c.row)?)?;
    d.set_item("document_id", strings(py, &c.document_id)?)?;
    let names = ["index", "start", "end", "byte_start", "byte_end"];
    for (name, column) in names.iter().zip(&c.numbers) {
        d.set_item(*name, ints(py, column)?)?;
    }
    d.set_item("text", strings(py, &c.text)?)?;
    d.set_item("chunk_id", strings(py, &c.chunk_id)?)?;
    d.set_item("token_count", ints(py, &c.token_count)?)?;
    if c.markdown {
        let offsets: Vec<u8> = c
            .path_offsets
            .iter()
            .flat_map(|o| o.to_le_bytes())
            .collect();
        d.set_item(
            "heading_path",
            (PyBytes::new(py, &offsets), strings(py, &c.path_titles)?),
        )?;
        d.set_item("continuation", PyBytes::new(py, &c.continuation))?;
        d.set_item("table_header", strings(py, &c.table_header)?)?;
    }
    Ok(d)
}

/// `(payload, documents, chunks, bytes, text_bytes, skipped, parts)` for Python; `parts`
/// is `None` unless tracked, else `([(name, end, chunks, documents, text_bytes)], ids)`.
fn convert<'py>(py: Python<'py>, out: &Output) -> PyResult<Bound<'py, PyTuple>> {
    let payload = match &out.payload {
        Payload::Jsonl(j) => PyBytes::new(py, &j.bytes).into_any(),
        Payload::Columns(c) => columns(py, c)?.into_any(),
    };
    let parts = match (&out.parts, &out.payload) {
        (Some(parts), Payload::Jsonl(j)) => {
            let list: Vec<(&str, usize, usize, usize, u64)> = parts
                .iter()
                .map(|p| (&*p.name, p.end, p.chunks, p.documents, p.text_bytes))
                .collect();
            let ids = PyBytes::new(py, j.ids.as_deref().unwrap_or_default());
            Some((list, ids))
        }
        _ => None,
    };
    (
        payload,
        out.documents,
        out.chunks,
        out.bytes,
        out.text_bytes,
        out.skipped.clone(),
        parts,
    )
        .into_pyobject(py)
}

#[pymethods]
impl PyCorpusJob {
    #[new]
    #[pyo3(signature = (engine, inputs, *, settings, format="jsonl", threads=None, separators=None, length=None, size=0, overlap=0, text_field="text".to_owned(), id_field=None, stream_above=32 << 20, output=None, parts=false, group_bytes=4 << 20))]
    #[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments
    fn new(
        engine: &Bound<'_, PyAny>,
        inputs: &Bound<'_, PyAny>,
        settings: String,
        format: &str,
        threads: Option<usize>,
        separators: Option<Vec<(String, bool)>>,
        length: Option<&Bound<'_, PyAny>>,
        size: usize,
        overlap: usize,
        text_field: String,
        id_field: Option<String>,
        stream_above: u64,
        output: Option<PathBuf>,
        parts: bool,
        group_bytes: u64,
    ) -> PyResult<Self> {
        let format = match format {
            "jsonl" => Format::Jsonl,
            "columns" => Format::Columns,
            _ => return Err(PyValueError::new_err("format must be 'jsonl' or 'columns'")),
        };
        if parts && (format != Format::Jsonl || output.is_some()) {
            return Err(PyValueError::new_err(
                "parts=True needs format='jsonl' and no output= (the rows come back)",
            ));
        }
        let settings = Settings {
            chunker: chunker(engine, settings, separators, length, (size, overlap))?,
            format,
            fields: Fields {
                text: text_field,
                id: id_field,
            },
            stream_above,
            parts,
        };
        let mut job = Job::new(settings, threads)?;
        job.group_bytes(group_bytes);
        match output {
            // JSON Lines go straight to the file, written by the pool (no Python `bytes`).
            Some(path) if format == Format::Jsonl => job.write_to(File::create(path)?),
            Some(_) => return Err(PyValueError::new_err("output= is for JSON Lines only")),
            None => {}
        }
        Ok(Self {
            state: Mutex::new(State {
                job,
                inputs: Some(inputs.try_iter()?.unbind()),
            }),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next output in input order: `(payload, documents, chunks, bytes, text_bytes,
    /// skipped, parts)`, `bytes` the input covered on disk, `text_bytes` the UTF-8 bytes of
    /// the text chunked, `parts` each input's rows when `parts=True`.
    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let mut guard = self
            .state
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this job is in use by another thread"))?;
        let state = &mut *guard;
        // `hungry` may run tasks (all of them, with one thread): without the GIL.
        while state.inputs.is_some() && py.detach(|| state.job.hungry()) {
            while state.job.queued().0 < QUEUE_INPUTS && state.job.queued().1 < QUEUE_ROW_BYTES {
                let Some(inputs) = &state.inputs else { break };
                match inputs.bind(py).clone().next() {
                    Some(item) => state.job.push(input(&item?)?),
                    None => state.inputs = None,
                }
            }
        }
        let job = &mut state.job;
        let next = py.detach(|| -> std::io::Result<Option<Output>> {
            let Some(out) = job.next_output() else {
                job.finish_file()?;
                return Ok(None);
            };
            job.file_error().map_or(Ok(Some(out)), Err)
        })?;
        next.map(|out| convert(py, &out)).transpose()
    }
}
