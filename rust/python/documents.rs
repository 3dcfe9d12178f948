//! `_native.DocumentMaker`: LangChain `Document`s made in Rust, laid out as the pydantic
//! constructor lays them out, for drop-ins that return many of them.
//!
//! Constructing a pydantic `Document` validates its fields in Python (about 2.5 µs); laying
//! one out directly (`object.__new__`, then `__dict__` and pydantic's three slots set with
//! `object.__setattr__`) costs about 1 µs in Python; here the same C functions are called
//! without argument tuples ([`PlainClass`]). Python
//! checks, once per process, that what this makes is indistinguishable from a constructed
//! `Document` (`ferrochunk.documents`) before using it.

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PySet, PyString, PyType};

use super::ffi::{collector_paused, PlainClass};

/// Makes `Document(page_content=text, metadata=metadata)` for a fresh `str` and `dict`.
#[pyclass(frozen, name = "DocumentMaker", module = "ferrochunk._native")]
pub struct PyDocumentMaker {
    /// The class; set with `object.__setattr__`, as pydantic's own `__setattr__` validates.
    cls: PlainClass,
    /// The instance dict every document starts from: `id`, `metadata`, `page_content`,
    /// `type` in that (the constructor's) order.
    fields: Py<PyDict>,
}

impl PyDocumentMaker {
    /// A new document of `text` and `metadata` (both fresh: the document keeps them).
    pub fn make<'py>(
        &self,
        text: Bound<'py, PyString>,
        metadata: Bound<'py, PyDict>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = text.py();
        let fields = self.fields.bind(py).copy()?;
        fields.set_item(intern!(py, "metadata"), metadata)?;
        fields.set_item(intern!(py, "page_content"), text)?;
        let set = PySet::new(py, [intern!(py, "page_content"), intern!(py, "metadata")])?;
        let none = py.None().into_bound(py);
        self.cls.instance(
            py,
            &[
                (intern!(py, "__dict__"), fields.as_any()),
                (intern!(py, "__pydantic_fields_set__"), set.as_any()),
                (intern!(py, "__pydantic_extra__"), &none),
                (intern!(py, "__pydantic_private__"), &none),
            ],
        )
    }
}

#[pymethods]
impl PyDocumentMaker {
    /// A maker of `cls` documents whose `type` field is `kind`.
    #[new]
    fn py_new(cls: &Bound<'_, PyType>, kind: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = cls.py();
        let fields = PyDict::new(py);
        fields.set_item("id", py.None())?;
        fields.set_item("metadata", py.None())?;
        fields.set_item("page_content", "")?;
        fields.set_item("type", kind)?;
        Ok(Self {
            cls: PlainClass::new(cls)?,
            fields: fields.unbind(),
        })
    }

    /// `create_documents`' loop for one text: a `Document` per chunk of `texts`, each with
    /// its own `metadata.copy()` holding `start_index` from `starts` when given, made with
    /// the cyclic collector paused (four tracked objects each, none of them garbage). The
    /// caller passes a plain `dict` of `str`, number, `bytes` and `None` keys and values, so
    /// no Python code runs while the collector is off.
    #[pyo3(signature = (texts, metadata, starts=None))]
    fn many<'py>(
        &self,
        texts: &Bound<'py, PyList>,
        metadata: &Bound<'py, PyDict>,
        starts: Option<Vec<i64>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = texts.py();
        if starts.as_ref().is_some_and(|s| s.len() != texts.len()) {
            return Err(PyValueError::new_err(
                "starts needs one start index per text, or None",
            ));
        }
        let key = intern!(py, "start_index");
        let mut starts = starts.map(Vec::into_iter);
        collector_paused(py, || {
            let mut out = Vec::with_capacity(texts.len());
            for text in texts.iter() {
                let meta = metadata.copy()?;
                if let Some(start) = starts.as_mut().and_then(Iterator::next) {
                    meta.set_item(key, start)?;
                }
                out.push(self.make(text.cast_into::<PyString>()?, meta)?);
            }
            PyList::new(py, out)
        })
    }

    /// Whether the first `count` of `metadatas` (a list) are plain: `dict`s whose keys and
    /// values are all `str`, `int`, `float`, `bool`, `bytes` or `None` (exactly those
    /// types), so that `copy.deepcopy` of one is `dict.copy` and no Python code runs in
    /// copying it. False when the list is shorter.
    #[staticmethod]
    fn plain(metadatas: &Bound<'_, PyList>, count: usize) -> bool {
        metadatas.len() >= count && metadatas.iter().take(count).all(|m| plain_dict(&m))
    }

    /// `create_documents`' loop over all its texts: for each list of chunks in
    /// `chunk_lists`, a `Document` per chunk with its own copy of the text's metadata
    /// (`metadatas`, plain: see [`Self::plain`]) holding `start_index` from `starts` when
    /// given (a list of lists), in one call with the cyclic collector paused: made text by
    /// text, each text's documents set off collections that walked all those made before.
    #[pyo3(signature = (chunk_lists, metadatas, starts=None))]
    fn batch<'py>(
        &self,
        chunk_lists: &Bound<'py, PyList>,
        metadatas: &Bound<'py, PyList>,
        starts: Option<&Bound<'py, PyList>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = chunk_lists.py();
        let count = chunk_lists.len();
        if !Self::plain(metadatas, count) || starts.is_some_and(|s| s.len() != count) {
            return Err(PyValueError::new_err(
                "batch needs a plain metadata dict per chunk list, and starts for each or None",
            ));
        }
        let key = intern!(py, "start_index");
        collector_paused(py, || {
            let mut out = Vec::new();
            for (i, chunks) in chunk_lists.iter().enumerate() {
                let chunks = chunks.cast_into::<PyList>()?;
                let metadata = metadatas.get_item(i)?.cast_into::<PyDict>()?;
                let starts = match starts {
                    Some(starts) => Some(starts.get_item(i)?.cast_into::<PyList>()?),
                    None => None,
                };
                for (k, text) in chunks.iter().enumerate() {
                    let meta = metadata.copy()?;
                    if let Some(starts) = &starts {
                        meta.set_item(key, starts.get_item(k)?)?;
                    }
                    out.push(self.make(text.cast_into::<PyString>()?, meta)?);
                }
            }
            PyList::new(py, out)
        })
    }

    /// `Document(page_content=page_content, metadata=metadata)`.
    fn __call__<'py>(
        &self,
        page_content: Bound<'py, PyString>,
        metadata: Bound<'py, PyDict>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.make(page_content, metadata)
    }
}

/// A `dict` (exactly) of atomic keys and values (see [`PyDocumentMaker::plain`]).
fn plain_dict(metadata: &Bound<'_, PyAny>) -> bool {
    let atomic = |o: &Bound<'_, PyAny>| {
        o.is_none()
            || o.is_exact_instance_of::<PyString>()
            || o.is_exact_instance_of::<PyInt>()
            || o.is_exact_instance_of::<PyFloat>()
            || o.is_exact_instance_of::<PyBool>()
            || o.is_exact_instance_of::<PyBytes>()
    };
    metadata.is_exact_instance_of::<PyDict>()
        && metadata
            .cast::<PyDict>()
            .is_ok_and(|d| d.iter().all(|(k, v)| atomic(&k) && atomic(&v)))
}
