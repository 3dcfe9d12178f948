//! `_native.MarkdownChunker`: the core [`MarkdownChunker`] plus offsets, stable ids,
//! parents, and the finished `Chunk` objects (see [`super::build`]).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::build::{build, spans, Identity, Shared, Span};
use crate::chunk_id::text_digest;
use crate::error::Result;
use crate::length::Length;
use crate::markdown::chunker::Grouped;
use crate::markdown::MarkdownChunker;
use crate::python::chunk::PyChunk;
use crate::python::length::PyLength;
use crate::python::split::native_length;
use crate::split::scan::Separator;

/// A configured Markdown chunker; immutable and shareable across threads.
#[pyclass(frozen, name = "MarkdownChunker", module = "ferrochunk._native")]
pub struct PyMarkdownChunker {
    inner: MarkdownChunker,
    settings: String,
}

type Chunks = Vec<Py<PyChunk>>;

/// Children and parents as spans with ids (parent ids use their own settings string), and
/// what each covers.
fn all_spans(
    text: &str,
    digest: &str,
    doc: &str,
    settings: &str,
    parent_size: Option<usize>,
    grouped: Grouped,
) -> (Vec<Span>, Vec<Span>) {
    let Grouped {
        chunks,
        parents,
        sections,
    } = grouped;
    let who = Identity {
        doc,
        settings,
        digest,
    };
    let items = chunks.into_iter().map(|c| {
        let coverage = sections.coverage(text, c.start, c.end);
        (c.start, c.end, c.path, c.continuation, c.header, coverage)
    });
    let mut kids = spans(text, &who, items);
    let parent_settings = format!("{settings}|parent={}", parent_size.unwrap_or(0));
    let who = Identity {
        settings: &parent_settings,
        ..who
    };
    let items = parents.iter().map(|p| {
        let first = &kids[p.children.start];
        let coverage = sections.coverage(text, p.start, p.end);
        (
            p.start,
            p.end,
            first.path.clone(),
            first.continuation,
            None,
            coverage,
        )
    });
    let ups = spans(text, &who, items);
    for (k, p) in parents.iter().enumerate() {
        for kid in &mut kids[p.children.clone()] {
            kid.parent = Some(k);
        }
    }
    (kids, ups)
}

/// Each span's size in tokens, counted by `length`.
fn count_tokens(text: &str, spans: &mut [Span], length: &dyn Length) -> Result<()> {
    for s in spans {
        s.tokens = Some(length.length(&text[s.start..s.end])?);
    }
    Ok(())
}

#[pymethods]
impl PyMarkdownChunker {
    /// `separators` are regexes in the syntax Python's `re` and the `regex` crate share.
    #[new]
    #[pyo3(signature = (chunk_size, min_size, separators, settings, chunk_overlap=0))]
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts a list by value
    fn new(
        chunk_size: usize,
        min_size: usize,
        separators: Vec<String>,
        settings: String,
        chunk_overlap: usize,
    ) -> PyResult<Self> {
        let seps = separators
            .iter()
            .map(|s| Separator::regex(s))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            inner: MarkdownChunker::new(chunk_size, min_size, seps).with_overlap(chunk_overlap),
            settings,
        })
    }

    /// `(chunks, parents)`: chunks carry `metadata` (the user's keys plus identity and
    /// structure); with `parent_size`, parents too, and each chunk has a `parent_id`.
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
        let source = text.to_str()?;
        let inner = &self.inner;
        // A ferrochunk or Hugging Face counter measures in Rust (no Python call, GIL
        // released) and its counts become the chunks' `token_count`.
        let counter = length.and_then(native_length);
        let out = match (length, counter) {
            (None, _) => py.detach(|| inner.chunk_grouped(source, None, parent_size))?,
            (Some(_), Some(count)) => {
                py.detach(|| inner.chunk_grouped(source, Some(count), parent_size))?
            }
            (Some(func), None) => {
                let length = PyLength::new(func.clone());
                let out = inner.chunk_grouped(source, Some(&length), parent_size);
                length.finish(out)?
            }
        };
        let settings = &self.settings;
        let (doc, (kids, ups)) = py.detach(|| -> Result<_> {
            // One digest serves the default document id and every chunk id.
            let digest = text_digest(source);
            let doc = document_id.unwrap_or_else(|| digest[..32].to_owned());
            let (mut kids, mut ups) = all_spans(source, &digest, &doc, settings, parent_size, out);
            if let Some(count) = counter {
                count_tokens(source, &mut kids, count)?;
                count_tokens(source, &mut ups, count)?;
            }
            Ok((doc, (kids, ups)))
        })?;
        let hierarchy = parent_size.is_some();
        let mut shared = Shared {
            source,
            source_py: text,
            doc: PyString::new(py, &doc),
            user: metadata,
            embedding: embedding_text,
            parent_ids: None,
        };
        let (parents, parent_ids) = build(py, &ups, &shared, hierarchy)?;
        shared.parent_ids = Some(&parent_ids);
        let (chunks, _) = build(py, &kids, &shared, hierarchy)?;
        Ok((chunks, parents))
    }
}
