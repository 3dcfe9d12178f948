//! `_native.HeaderSplitter`: the core [`HeaderSplitter`] behind `MarkdownHeaderTextSplitter`,
//! and Python's own `str.isprintable` for the characters the line scan drops.

use std::sync::OnceLock;

use pyo3::exceptions::PyRuntimeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::markdown::header::{Block, HeaderRule, HeaderSplitter, Piece, Scan, Stop};
use crate::python::documents::PyDocumentMaker;
use crate::python::ffi::{collector_paused, new_str, on_units, text_of};
use crate::units::Unit;

/// Pages of 256 code points; a page's bits say which of its code points Python's
/// `str.isprintable` rejects. Filled once per page per process, from Python itself (the
/// answer follows the running Python's Unicode version, and never changes within it), so
/// the scan can then run without the GIL and without asking again.
const PAGES: usize = 0x11_0000 >> 8;
static NON_PRINTABLE: [OnceLock<[u64; 4]>; PAGES] = [const { OnceLock::new() }; PAGES];

/// Asks Python about every code point of `page` (surrogates are skipped: no text that
/// reaches the scan holds one).
fn load_page(py: Python<'_>, page: usize) -> PyResult<[u64; 4]> {
    let mut bits = [0u64; 4];
    for low in 0..256u32 {
        let Some(c) = char::from_u32(((page as u32) << 8) | low) else {
            continue;
        };
        let mut buf = [0u8; 4];
        let s = PyString::new(py, c.encode_utf8(&mut buf));
        let printable: bool = s.call_method0(intern!(py, "isprintable"))?.extract()?;
        if !printable {
            bits[(low >> 6) as usize] |= 1 << (low & 63);
        }
    }
    Ok(bits)
}

/// Whether the page of code point `c` is known.
fn page_of(c: u32) -> Option<&'static [u64; 4]> {
    NON_PRINTABLE.get((c >> 8) as usize)?.get()
}

/// Asks Python about the pages of every non-ASCII character of `text` not known yet.
fn load_pages<U: Unit>(py: Python<'_>, text: &[U]) -> PyResult<()> {
    for &u in text {
        let c: u32 = u.into();
        if c >= 0x80 && page_of(c).is_none() {
            let page = (c >> 8) as usize;
            if page < PAGES {
                let bits = load_page(py, page)?;
                let _ = NON_PRINTABLE[page].set(bits); // another thread may have too
            }
        }
    }
    Ok(())
}

/// Python's answer for a non-ASCII character, if its page is known.
#[inline]
fn non_printable(c: u32) -> Option<bool> {
    page_of(c).map(|bits| bits[((c & 255) >> 6) as usize] >> (c & 63) & 1 == 1)
}

/// A `str` of the content of `block`: cut from the text in one copy when it is one span,
/// else joined in `scratch` first.
fn content<'py, U: Unit>(
    py: Python<'py>,
    text: &[U],
    scan: &Scan<U>,
    block: &Block,
    scratch: &mut Vec<U>,
) -> PyResult<Bound<'py, PyString>> {
    let pieces = &scan.pieces[block.pieces.clone()];
    if let [Piece::Text(span)] = pieces {
        return new_str(py, scan.slice(text, *span));
    }
    scratch.clear();
    for piece in pieces {
        match *piece {
            Piece::Text(part) => scratch.extend_from_slice(scan.slice(text, part)),
            Piece::Newline => scratch.push(U::from_ascii(b'\n')),
            Piece::Break => scratch.extend([b' ', b' ', b'\n'].map(U::from_ascii)),
        }
    }
    new_str(py, scratch)
}

/// The metadata dicts of a scan, one fresh dict per block: each distinct metadata is built
/// once, then copied for all but its last block, which takes it.
struct Dicts<'py> {
    built: Vec<Option<Bound<'py, PyDict>>>,
    uses: Vec<usize>,
}

impl<'py> Dicts<'py> {
    fn new<U>(scan: &Scan<U>) -> Self {
        let mut uses = vec![0; scan.metas.len()];
        for block in &scan.blocks {
            uses[block.meta] += 1;
        }
        Self {
            built: vec![None; scan.metas.len()],
            uses,
        }
    }

    fn take<U: Unit>(
        &mut self,
        text: &[U],
        scan: &Scan<U>,
        names: &Bound<'py, PyList>,
        meta: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let dict = if let Some(dict) = self.built[meta].take() {
            dict
        } else {
            let dict = PyDict::new(names.py());
            for &(id, title) in &scan.metas[meta] {
                let title = new_str(names.py(), scan.slice(text, title))?;
                dict.set_item(names.get_item(id)?, title)?;
            }
            dict
        };
        self.uses[meta] -= 1;
        if self.uses[meta] > 0 {
            self.built[meta] = Some(dict.copy()?);
        }
        Ok(dict)
    }
}

/// A configured header splitter; immutable and shareable across threads.
#[pyclass(frozen, name = "HeaderSplitter", module = "ferrochunk._native")]
pub struct PyHeaderSplitter {
    inner: HeaderSplitter,
}

#[pymethods]
impl PyHeaderSplitter {
    /// `rules` are `(sep, name_id or None, level, custom)`, longest `sep` first.
    #[new]
    #[pyo3(signature = (rules, return_each_line, strip_headers))]
    fn new(
        rules: Vec<(String, Option<usize>, i64, bool)>,
        return_each_line: bool,
        strip_headers: bool,
    ) -> Self {
        let rules = rules
            .into_iter()
            .map(|(sep, name, level, custom)| HeaderRule {
                sep,
                name,
                level,
                custom,
            })
            .collect();
        Self {
            inner: HeaderSplitter::new(rules, return_each_line, strip_headers),
        }
    }

    /// The documents `make(content, metadata)`, or `[(content, metadata), ...]` without
    /// `make`; the metadata a new dict `{names[id]: text}` per block. A text with a lone
    /// surrogate raises `UnicodeEncodeError` (the caller falls back to Python).
    #[pyo3(signature = (text, names, make=None))]
    fn split<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        names: &Bound<'py, PyList>,
        make: Option<&Bound<'py, PyDocumentMaker>>,
    ) -> PyResult<Bound<'py, PyList>> {
        on_units!(text_of(text, true)?, t => self.split_units(py, t.units(), names, make))
    }
}

impl PyHeaderSplitter {
    fn split_units<'py, U: Unit>(
        &self,
        py: Python<'py>,
        text: &[U],
        names: &Bound<'py, PyList>,
        make: Option<&Bound<'py, PyDocumentMaker>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let scan = self.scan(py, text)?;
        let mut dicts = Dicts::new(&scan);
        let mut scratch = Vec::new();
        let mut out = Vec::with_capacity(scan.blocks.len());
        let build = || {
            for block in &scan.blocks {
                let content = content(py, text, &scan, block, &mut scratch)?;
                let meta = dicts.take(text, &scan, names, block.meta)?;
                out.push(match make {
                    Some(make) => make.get().make(content, meta)?,
                    None => (content, meta).into_pyobject(py)?.into_any(),
                });
            }
            PyList::new(py, out)
        };
        // Each document is four new objects the collector tracks, none of them garbage. Names
        // that are not plain `str` could run Python code as dict keys: then no pause.
        if names
            .iter()
            .all(|name| name.is_exact_instance_of::<PyString>())
        {
            collector_paused(py, build)
        } else {
            build()
        }
    }

    /// The scan, without the GIL; if it meets characters whose printability is not known
    /// yet, Python is asked about them all, once per process, and the scan runs again.
    fn scan<U: Unit>(&self, py: Python<'_>, text: &[U]) -> PyResult<Scan<U>> {
        let inner = &self.inner;
        let mut loaded = false;
        loop {
            match py.detach(|| inner.scan(text, non_printable)) {
                Ok(scan) => return Ok(scan),
                Err(Stop::Error(err)) => return Err(err.into()),
                Err(Stop::Unknown) if !loaded => load_pages(py, text)?,
                Err(Stop::Unknown) => {
                    return Err(PyRuntimeError::new_err("a character has no printability"))
                }
            }
            loaded = true;
        }
    }
}
