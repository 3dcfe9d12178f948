//! `_native.MarkdownChunker`: the core [`MarkdownChunker`] plus offsets, stable ids,
//! parents, and the finished `Chunk` objects (see [`super::build`]).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::build::{build, Shared};
use crate::chunk_id::text_digest;
use crate::error::Result;
use crate::length::Length;
use crate::markdown::chunk::MdCut;
use crate::markdown::chunker::Grouped;
use crate::markdown::ids::{all_spans, count_tokens, Identity, Span};
use crate::markdown::prose::Seam;
use crate::markdown::MarkdownChunker;
use crate::python::chunk::PyChunk;
use crate::python::ffi::{checked_utf8, collector_paused};
use crate::python::length::PyLength;
use crate::python::split::native_length;
use crate::split::scan::Separator;
use crate::structure::Markup;

/// A configured Markdown chunker; immutable and shareable across threads.
#[pyclass(frozen, name = "MarkdownChunker", module = "ferrochunk._native")]
pub struct PyMarkdownChunker {
    inner: MarkdownChunker,
    settings: String,
}

type Chunks = Vec<Py<PyChunk>>;

/// One document's chunks and parents as spans with ids: `split`'s native work.
pub struct Computed {
    doc: String,
    kids: Vec<Span>,
    ups: Vec<Span>,
}

impl PyMarkdownChunker {
    /// The core chunker and the settings string its ids are made with.
    pub fn core(&self) -> (&MarkdownChunker, &str) {
        (&self.inner, &self.settings)
    }

    /// Offsets, ids and (given a native `counter`) token counts for `out`; no Python
    /// objects, so any thread may run it.
    fn identify(
        &self,
        text: &str,
        document_id: Option<String>,
        parent_size: Option<usize>,
        out: Grouped,
        counter: Option<&dyn Length>,
    ) -> Result<Computed> {
        // One digest serves the default document id and every chunk id.
        let digest = text_digest(text);
        let doc = document_id.unwrap_or_else(|| digest[..32].to_owned());
        let who = Identity {
            doc: &doc,
            settings: &self.settings,
            digest: &digest,
        };
        let (mut kids, mut ups) = all_spans(text, Some(&who), parent_size, out);
        if let Some(count) = counter {
            count_tokens(text, &mut kids, count)?;
            count_tokens(text, &mut ups, count)?;
        }
        Ok(Computed { doc, kids, ups })
    }

    /// All of `split`'s native work, measured by a length that needs no GIL.
    pub fn compute(
        &self,
        text: &str,
        document_id: Option<String>,
        parent_size: Option<usize>,
        length: Option<&(dyn Length + Sync)>,
    ) -> Result<Computed> {
        let length = length.map(|l| l as &dyn Length);
        let out = self.inner.chunk_grouped(text, length, parent_size)?;
        self.identify(text, document_id, parent_size, out, length)
    }

    /// `split`'s `(chunks, parents)` as Python objects.
    pub fn build_py<'py>(
        text: &Bound<'py, PyString>,
        source: &str,
        computed: &Computed,
        metadata: &Bound<'py, PyDict>,
        embedding_text: bool,
        hierarchy: bool,
    ) -> PyResult<(Chunks, Chunks)> {
        let py = text.py();
        collector_paused(py, || {
            let mut shared = Shared {
                source,
                source_py: text,
                doc: PyString::new(py, &computed.doc),
                user: metadata,
                embedding: embedding_text,
                parent_ids: None,
            };
            let (parents, parent_ids) = build(py, &computed.ups, &shared, hierarchy)?;
            shared.parent_ids = Some(&parent_ids);
            let (chunks, _) = build(py, &computed.kids, &shared, hierarchy)?;
            Ok((chunks, parents))
        })
    }
}

#[pymethods]
impl PyMarkdownChunker {
    /// `separators` are regexes in the syntax Python's `re` and the `regex` crate share;
    /// `format` is the markup the texts are read as (`markdown`, `rst`, `asciidoc`, `plain`);
    /// `sentence_cuts` cuts inside blocks sentence-first (`rust/markdown/prose.rs`).
    #[new]
    #[pyo3(signature = (chunk_size, min_size, separators, settings, chunk_overlap=0, format="markdown", sentence_cuts=false))]
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts a list by value
    fn new(
        chunk_size: usize,
        min_size: usize,
        separators: Vec<String>,
        settings: String,
        chunk_overlap: usize,
        format: &str,
        sentence_cuts: bool,
    ) -> PyResult<Self> {
        let seps = separators
            .iter()
            .map(|s| Separator::regex(s))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            inner: MarkdownChunker::new(chunk_size, min_size, seps)
                .with_overlap(chunk_overlap)
                .with_format(Markup::from_name(format)?)
                .with_sentence_cuts(sentence_cuts),
            settings,
        })
    }

    /// `(chunks, parents)`: chunks carry `metadata` (the user's keys plus identity and
    /// structure); with `parent_size`, parents too, and each chunk has a `parent_id`.
    /// Why each chunk of `split(text)` ends where it does: `(reason, separator index)`, the
    /// index of the chunker's own separator for reason `separator` (else -1).
    #[pyo3(signature = (text, length=None))]
    fn cut_reasons(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyString>,
        length: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<(&'static str, i64)>> {
        let (_, utf8) = checked_utf8(py, text)?;
        let source: &str = &utf8;
        let chunks = match length {
            Some(func) if native_length(func).is_none() => {
                let length = PyLength::new(func.clone());
                let out = self.inner.chunk(source, Some(&length));
                length.finish(out)?
            }
            _ => {
                let native = length.and_then(native_length);
                py.detach(|| self.inner.chunk(source, native.map(|l| l as &dyn Length)))?
            }
        };
        Ok(chunks.iter().map(|c| reason_name(c.cut)).collect())
    }

    #[pyo3(signature = (text, metadata, document_id=None, length=None, embedding_text=false, parent_size=None))]
    #[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments
    fn split<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        metadata: &Bound<'py, PyDict>,
        document_id: Option<String>,
        length: Option<&Bound<'py, PyAny>>,
        embedding_text: bool,
        parent_size: Option<usize>,
    ) -> PyResult<(Chunks, Chunks)> {
        // The text's UTF-8: borrowed when ASCII, else converted here into a copy dropped
        // after (`to_str` would leave CPython's own inside the string, and make it slower).
        let (_, utf8) = checked_utf8(py, text)?;
        let source: &str = &utf8;
        // A ferrochunk or Hugging Face counter measures in Rust (no Python call, GIL
        // released) and its counts become the chunks' `token_count`.
        let counter = length.and_then(native_length);
        let computed = match (length, counter) {
            (None, _) => py.detach(|| self.compute(source, document_id, parent_size, None))?,
            (Some(_), Some(count)) => {
                py.detach(|| self.compute(source, document_id, parent_size, Some(count)))?
            }
            (Some(func), None) => {
                let length = PyLength::new(func.clone());
                let out = self.inner.chunk_grouped(source, Some(&length), parent_size);
                let out = length.finish(out)?;
                py.detach(|| self.identify(source, document_id, parent_size, out, None))?
            }
        };
        let hierarchy = parent_size.is_some();
        Self::build_py(text, source, &computed, metadata, embedding_text, hierarchy)
    }
}

/// A cut's name (`ferrochunk.frontend.cuts.REASONS`) and its separator's index, or -1.
fn reason_name(cut: MdCut) -> (&'static str, i64) {
    let name = match cut {
        MdCut::End => "end",
        MdCut::Heading => "heading",
        MdCut::Block => "block",
        MdCut::Atomic => "atomic",
        MdCut::Separator(i) => return ("separator", i64::try_from(i).unwrap_or(i64::MAX)),
        MdCut::Prose(seam) => match seam {
            Seam::Blank => "paragraph",
            Seam::Top => "statement",
            Seam::Sentence => "sentence",
            Seam::Clause => "clause",
            Seam::Line => "line",
            Seam::Word => "word",
            Seam::Char => "character",
        },
    };
    (name, -1)
}
