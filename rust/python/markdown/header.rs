//! `_native.HeaderSplitter`: the core [`HeaderSplitter`] behind `MarkdownHeaderTextSplitter`,
//! and Python's own `str.isprintable` for the characters the line scan drops.

use std::sync::OnceLock;

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::markdown::header::{HeaderRule, HeaderSplitter, NonPrintable};

/// Pages of 256 code points; a page's bits say which of its code points Python's
/// `str.isprintable` rejects. Filled once per page per process, from Python itself (the
/// answer follows the running Python's Unicode version, and never changes within it), so
/// the scan can then run without the GIL and without asking again.
const PAGES: usize = 0x11_0000 >> 8;
static NON_PRINTABLE: [OnceLock<[u64; 4]>; PAGES] = [const { OnceLock::new() }; PAGES];

/// Asks Python about every code point of `page` (surrogates never reach us: `&str`).
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

/// The code point starting at `bytes[i]` (a lead byte of valid UTF-8) and its length.
fn decode(bytes: &[u8], i: usize) -> (usize, usize) {
    let tail = |k: usize| usize::from(bytes.get(i + k).map_or(0, |b| b & 0x3f));
    let lead = usize::from(bytes[i]);
    match lead {
        0..=0x7f => (lead, 1),
        0xc0..=0xdf => ((lead & 0x1f) << 6 | tail(1), 2),
        0xe0..=0xef => ((lead & 0x0f) << 12 | tail(1) << 6 | tail(2), 3),
        _ => (
            (lead & 0x07) << 18 | tail(1) << 12 | tail(2) << 6 | tail(3),
            4,
        ),
    }
}

/// Makes sure the pages of every non-ASCII character of `text` are known; says whether one
/// of them is non-printable (rare: then lines are checked character by character). Runs of
/// ASCII are skipped eight bytes at a time; each page's bits are fetched once per call.
fn load_pages(py: Python<'_>, text: &str) -> PyResult<bool> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const CLEAN: u16 = u16::MAX; // a page without non-printable characters
    let bytes = text.as_bytes();
    let mut slot = vec![0u16; PAGES]; // 0: not seen yet; k: bits[k - 1]
    let mut bits: Vec<[u64; 4]> = Vec::new();
    let mut any = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii() {
            i += 1;
            while let Some(word) = bytes.get(i..i + 8) {
                let word = u64::from_le_bytes(word.try_into().unwrap_or([0x80; 8]));
                if word & HIGH != 0 {
                    break;
                }
                i += 8;
            }
            continue;
        }
        let (cp, len) = decode(bytes, i);
        i += len;
        let page = cp >> 8;
        if slot[page] == CLEAN {
            continue; // printable throughout
        }
        if slot[page] == 0 {
            let known = if let Some(known) = NON_PRINTABLE[page].get() {
                *known
            } else {
                let loaded = load_page(py, page)?;
                let _ = NON_PRINTABLE[page].set(loaded); // another thread may have too
                loaded
            };
            if known == [0; 4] {
                slot[page] = CLEAN;
                continue;
            }
            bits.push(known);
            slot[page] = u16::try_from(bits.len()).unwrap_or(CLEAN - 1); // < PAGES pages
        }
        if !any {
            let page_bits = &bits[usize::from(slot[page]) - 1];
            any = page_bits[(cp & 255) >> 6] >> (cp & 63) & 1 == 1;
        }
    }
    Ok(any)
}

/// Python's answer for a non-ASCII character whose page [`load_pages`] loaded.
fn non_printable(c: char) -> bool {
    let cp = c as usize;
    NON_PRINTABLE[cp >> 8]
        .get()
        .is_some_and(|bits| bits[(cp & 255) >> 6] >> (cp & 63) & 1 == 1)
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

    /// `[(content, metadata), ...]`, the metadata a new dict `{names[id]: text}` per block.
    fn split<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        names: &Bound<'py, PyList>,
    ) -> PyResult<Bound<'py, PyList>> {
        let source = text.to_str()?;
        let rare: Option<NonPrintable<'_>> = load_pages(py, source)?.then_some(&non_printable);
        let inner = &self.inner;
        let blocks = py.detach(|| inner.split(source, rare))?;
        let out = PyList::empty(py);
        for block in blocks {
            let meta = PyDict::new(py);
            for (id, value) in block.metadata.iter() {
                meta.set_item(names.get_item(*id)?, value)?;
            }
            out.append((block.content, meta))?;
        }
        Ok(out)
    }
}
