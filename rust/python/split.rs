//! `_native.Splitter`: the core [`Splitter`] behind the drop-in classes and `ferrochunk.split`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use super::chunk::PyChunk;
use super::length::PyLength;
use super::strings::chunk_string;
use super::tokens::huggingface::PyHfCounter;
use super::tokens::tokenizer::PyTokenCounter;
use crate::error::Result;
use crate::length::Length;
use crate::split::scan::{KeepSeparator, Separator};
use crate::split::{SplitConfig, SplitOutput, Splitter};

/// A configured splitter; immutable and shareable across threads.
#[pyclass(frozen, name = "Splitter", module = "ferrochunk._native")]
pub struct PySplitter {
    inner: Splitter,
}

fn keep_from(name: &str) -> PyResult<KeepSeparator> {
    match name {
        "drop" => Ok(KeepSeparator::Drop),
        "start" => Ok(KeepSeparator::Start),
        "end" => Ok(KeepSeparator::End),
        _ => Err(PyValueError::new_err(format!(
            "keep must be 'drop', 'start' or 'end', got {name:?}"
        ))),
    }
}

/// `(pattern, is_regex, join_text)` to a core separator.
fn separator((pattern, is_regex, join): (String, bool, String)) -> Result<Separator> {
    let sep = if is_regex {
        Separator::regex(&pattern)?
    } else {
        Separator::literal(&pattern)
    };
    Ok(sep.with_join_text(&join))
}

/// Chunks of one document and, when a native counter sized them, their token counts.
pub type Computed = (SplitOutput, Option<Vec<usize>>);

/// The core length behind a native counter (bundled BPE or Hugging Face), if `func` is one:
/// the splitter then measures in Rust with the GIL released.
pub(crate) fn native_length<'a>(func: &'a Bound<'_, PyAny>) -> Option<&'a (dyn Length + Sync)> {
    if let Ok(counter) = func.cast::<PyTokenCounter>() {
        return Some(counter.get().length());
    }
    func.cast::<PyHfCounter>()
        .ok()
        .map(|c| c.get().length() as _)
}

impl PySplitter {
    /// The core splitter, for other native functions.
    pub fn core(&self) -> &Splitter {
        &self.inner
    }

    /// The native work of `split` (no Python objects, so any thread may run it): the chunks,
    /// and each one's token count when a native counter measures.
    pub fn compute(&self, text: &str, length: Option<&(dyn Length + Sync)>) -> Result<Computed> {
        let out = self.inner.split(text, length.map(|l| l as &dyn Length))?;
        let counts = match length {
            Some(length) => Some(
                out.chunks
                    .iter()
                    .map(|c| length.length(c.text(text)))
                    .collect::<Result<Vec<_>>>()?,
            ),
            None => None,
        };
        Ok((out, counts))
    }

    /// `split_text`'s list of chunk strings for `out`, split from `text` (UTF-8: `source`).
    pub fn text_list<'py>(
        text: &Bound<'py, PyString>,
        source: &str,
        out: &SplitOutput,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = text.py();
        let strings = out
            .chunks
            .iter()
            .map(|chunk| match &chunk.joined {
                Some(joined) => Ok(PyString::new(py, joined)),
                None => chunk_string(text, source, chunk),
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, strings)
    }

    /// `split`'s `Chunk` objects for `computed`, split from `text` (UTF-8: `source`).
    pub fn chunk_list<'py>(
        text: &Bound<'py, PyString>,
        source: &str,
        (out, counts): &Computed,
        metadata: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = text.py();
        let list = PyList::empty(py);
        for (index, c) in out.chunks.iter().enumerate() {
            if c.joined.is_some() {
                // Only LangChain's drop-separator mode re-joins text, and the native API
                // does not offer it; refuse rather than return a chunk that is not a span.
                return Err(PyValueError::new_err(
                    "split() needs keep='start' or 'end' so chunks are source spans",
                ));
            }
            let chunk = PyChunk::new(
                chunk_string(text, source, c)?.unbind(),
                c.char_start,
                c.char_end,
                c.byte_start,
                c.byte_end,
                index,
                metadata.clone().unbind(),
                counts.as_ref().map(|counts| counts[index]),
            );
            list.append(Bound::new(py, chunk)?)?;
        }
        Ok(list)
    }

    /// Runs the core with the GIL released, or holding it when a Python callable measures.
    fn run(
        &self,
        py: Python<'_>,
        text: &str,
        length: Option<Bound<'_, PyAny>>,
    ) -> PyResult<SplitOutput> {
        match length {
            None => {
                let inner = &self.inner;
                Ok(py.detach(move || inner.split(text, None))?)
            }
            Some(func) => {
                if let Some(length) = native_length(&func) {
                    // Token counts in Rust: no Python call per piece, GIL released.
                    let inner = &self.inner;
                    return Ok(py.detach(move || inner.split(text, Some(length)))?);
                }
                let length = PyLength::new(func);
                let out = self.inner.split(text, Some(&length));
                length.finish(out)
            }
        }
    }
}

#[pymethods]
impl PySplitter {
    #[new]
    #[pyo3(signature = (chunk_size, chunk_overlap, separators, keep, strip_whitespace, recursive))]
    fn new(
        chunk_size: i64,
        chunk_overlap: i64,
        separators: Vec<(String, bool, String)>,
        keep: &str,
        strip_whitespace: bool,
        recursive: bool,
    ) -> PyResult<Self> {
        let config = SplitConfig::new(chunk_size, chunk_overlap)?
            .keep(keep_from(keep)?)
            .strip(strip_whitespace);
        let mut separators = separators
            .into_iter()
            .map(separator)
            .collect::<Result<Vec<_>>>()?;
        let inner = if recursive {
            Splitter::recursive(config, separators)
        } else {
            let sep = separators.pop().unwrap_or_else(|| Separator::literal(""));
            Splitter::single(config, sep)
        };
        Ok(Self { inner })
    }

    /// The chunk texts as LangChain returns them; `warn(size, chunk_size)` is called for
    /// every chunk LangChain would warn about (a callback, so the common case allocates
    /// nothing but the list: every tracked allocation brings the next GC pass closer).
    #[pyo3(signature = (text, length=None, warn=None))]
    fn split_text<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        length: Option<Bound<'py, PyAny>>,
        warn: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let source = text.to_str()?;
        let out = self.run(py, source, length)?;
        let strings = Self::text_list(text, source, &out)?;
        if let Some(warn) = warn {
            for total in &out.oversized {
                warn.call1((*total, self.inner.config().chunk_size))?;
            }
        }
        Ok(strings)
    }

    /// Chunks with code-point and byte offsets, each carrying `metadata`; and the warnings.
    #[pyo3(signature = (text, metadata, length=None))]
    fn split<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        metadata: &Bound<'py, PyAny>,
        length: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyList>, Vec<usize>)> {
        let source = text.to_str()?;
        let computed = match length.map(|f| (f, native_length(f))) {
            // Token counts in Rust: no Python call per piece, GIL released.
            Some((_, Some(length))) => py.detach(|| self.compute(source, Some(length)))?,
            Some((func, None)) => (self.run(py, source, Some(func.clone()))?, None),
            None => py.detach(|| self.compute(source, None))?,
        };
        let list = Self::chunk_list(text, source, &computed, metadata)?;
        Ok((list, computed.0.oversized))
    }
}
