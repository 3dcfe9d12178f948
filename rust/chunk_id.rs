//! Stable chunk identity: the same document, settings and span give the same id on every
//! run and machine.
//!
//! SHA-256 (the `sha2` crate) rather than a fast non-cryptographic hash: it is in Python's
//! standard library, so the pure-Python reference computes the same ids with no extra
//! package, and its output is fixed by a standard, unlike `DefaultHasher` or Python's
//! salted `hash()`. The cost is one SHA-256 pass over each document (about 1 GB/s with the
//! CPU's SHA extensions, which `sha2` detects at run time) and one short hash per chunk:
//! per-chunk ids are built on the stack ([`HexId`]) so that columns copy them without an
//! allocation.

use sha2::{Digest, Sha256};

const DIGITS: &[u8; 16] = b"0123456789abcdef";

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

/// A chunk id (32 hex digits) held on the stack: columns copy it without an allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexId([u8; 32]);

impl HexId {
    /// The id as text.
    pub fn as_str(&self) -> &str {
        // Hex digits only, so always UTF-8; the fallback is never taken.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

/// `"{start}:{end}"` in decimal, written into `buf`; returns the bytes used.
fn span_key(start: usize, end: usize, buf: &mut [u8; 41]) -> &[u8] {
    fn decimal(mut n: usize, out: &mut [u8], at: &mut usize) {
        let mut digits = [0u8; 20];
        let mut k = digits.len();
        loop {
            k -= 1;
            digits[k] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let used = digits.len() - k;
        out[*at..*at + used].copy_from_slice(&digits[k..]);
        *at += used;
    }
    let mut at = 0;
    decimal(start, buf, &mut at);
    buf[at] = b':';
    at += 1;
    decimal(end, buf, &mut at);
    &buf[..at]
}

/// SHA-256 of the UTF-8 text, as 64 hex digits.
pub fn text_digest(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

/// The id of the chunk `[start, end)` (code points) of a document: the first 32 hex
/// digits of SHA-256 over `"{document_id}\0{settings}\0{digest}\0{start}:{end}"`.
pub fn chunk_id(
    document_id: &str,
    settings: &str,
    digest: &str,
    start: usize,
    end: usize,
) -> String {
    Ids::new(document_id, settings, digest).id(start, end)
}

/// The ids of one document's chunks: the document part of the key (id, settings, digest)
/// absorbed into SHA-256 once, then only the span per chunk. The same ids as [`chunk_id`],
/// at about half the hashing, since most of a key is the part every chunk shares.
#[derive(Clone)]
pub struct Ids(Sha256);

impl Ids {
    /// The ids of document `doc` (its text's digest `digest`) under `settings`.
    pub fn new(doc: &str, settings: &str, digest: &str) -> Self {
        let mut h = Sha256::new();
        for part in [doc, "\0", settings, "\0", digest, "\0"] {
            h.update(part.as_bytes());
        }
        Self(h)
    }

    /// The id of the chunk `[start, end)` (code points).
    pub fn id(&self, start: usize, end: usize) -> String {
        self.hex(start, end).as_str().to_owned()
    }

    /// [`Ids::id`] without an allocation.
    pub fn hex(&self, start: usize, end: usize) -> HexId {
        let mut h = self.0.clone();
        h.update(span_key(start, end, &mut [0; 41]));
        let digest = h.finalize();
        let mut out = [0u8; 32];
        for (pair, &b) in out.chunks_exact_mut(2).zip(&digest[..16]) {
            pair[0] = DIGITS[usize::from(b >> 4)];
            pair[1] = DIGITS[usize::from(b & 15)];
        }
        HexId(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_keys_are_decimal() {
        let mut buf = [0; 41];
        for (a, b) in [(0, 0), (7, 10), (123, 4567), (usize::MAX, usize::MAX)] {
            assert_eq!(span_key(a, b, &mut buf), format!("{a}:{b}").as_bytes());
        }
    }

    #[test]
    fn known_sha256() {
        assert_eq!(
            text_digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let id = chunk_id("d", "s", &text_digest("abc"), 0, 3);
        assert_eq!(id.len(), 32);
        assert_ne!(id, chunk_id("d", "s", &text_digest("abc"), 0, 2));
    }

    /// Stored ids must never change: these were computed with Python's `hashlib` from the
    /// documented formula (`tests/test_chunk_id.py` pins whole chunkers' ids likewise).
    #[test]
    fn known_ids() {
        let id = chunk_id("d", "s", &text_digest("abc"), 0, 3);
        assert_eq!(id, "8496622905f336032b53df6dcd2d1c5d");
        let id = chunk_id(
            "doc-é",
            "markdown-v1|size=20",
            &text_digest("漢字 😀"),
            0,
            4,
        );
        assert_eq!(id, "a82b5093ae802ff1e57108f73092cabf");
    }
}
