//! `_native.MarkdownChunker`: the core [`MarkdownChunker`] plus offsets, stable ids,
//! parents, and the finished `Chunk` objects (see [`super::build`]).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::build::{build, spans, Identity, Shared, Span};
use crate::chunk_id::text_digest;
use crate::error::Result;
use crate::length::Length;
use crate::markdown::parent::Parent;
use crate::markdown::{MarkdownChunker, MdChunk};
use crate::python::chunk::PyChunk;
use crate::python::length::PyLength;
use crate::split::scan::Separator;

/// A configured Markdown chunker; immutable and shareable across threads.
#[pyclass(frozen, name = "MarkdownChunker", module = "ferrochunk._native")]
pub struct PyMarkdownChunker {
    inner: MarkdownChunker,
    settings: String,
}

type Chunks = Vec<Py<PyChunk>>;

impl PyMarkdownChunker {
    fn chunk(
        &self,
        text: &str,
        parent_size: Option<usize>,
        length: Option<&dyn Length>,
    ) -> Result<(Vec<MdChunk>, Vec<Parent>)> {
        self.inner.chunk_grouped(text, length, parent_size)
    }
}

/// Children and parents as spans with ids (parent ids use their own settings string).
fn all_spans(
    text: &str,
    digest: &str,
    doc: &str,
    settings: &str,
    parent_size: Option<usize>,
    (chunks, parents): (Vec<MdChunk>, Vec<Parent>),
) -> (Vec<Span>, Vec<Span>) {
    let who = Identity {
        doc,
        settings,
        digest,
    };
    let mut kids = spans(
        text,
        &who,
        chunks
            .into_iter()
            .map(|c| (c.start, c.end, c.path, c.continuation, c.header)),
    );
    let parent_settings = format!("{settings}|parent={}", parent_size.unwrap_or(0));
    let who = Identity {
        settings: &parent_settings,
        ..who
    };
    let items = parents.iter().map(|p| {
        let first = &kids[p.children.start];
        (p.start, p.end, first.path.clone(), first.continuation, None)
    });
    let ups = spans(text, &who, items);
    for (k, p) in parents.iter().enumerate() {
        for kid in &mut kids[p.children.clone()] {
            kid.parent = Some(k);
        }
    }
    (kids, ups)
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
        length: Option<Bound<'py, PyAny>>,
        embedding_text: bool,
        parent_size: Option<usize>,
    ) -> PyResult<(Chunks, Chunks)> {
        let source = text.to_str()?;
        let out = match length {
            None => py.detach(|| self.chunk(source, parent_size, None))?,
            Some(func) => {
                let length = PyLength::new(func);
                let out = self.chunk(source, parent_size, Some(&length));
                length.finish(out)?
            }
        };
        let settings = &self.settings;
        let (doc, (kids, ups)) = py.detach(|| {
            // One digest serves the default document id and every chunk id.
            let digest = text_digest(source);
            let doc = document_id.unwrap_or_else(|| digest[..32].to_owned());
            let spans = all_spans(source, &digest, &doc, settings, parent_size, out);
            (doc, spans)
        });
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
