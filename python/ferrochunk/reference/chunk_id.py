"""Stable chunk ids (mirrors ``rust/chunk_id.rs``): the first 32 hex digits of SHA-256 over
the document id, the settings, the SHA-256 of the document text and the chunk's span.

SHA-256 because it is in Python's standard library (the reference needs no extra package)
and in a vetted crate (``sha2``) for Rust, and it is the same on every run, machine and
version, unlike ``hash()`` or Rust's ``DefaultHasher``. Collisions at 128 bits are not a
practical concern.
"""

from __future__ import annotations

import hashlib


def text_digest(text: str) -> str:
    """SHA-256 of the UTF-8 text, hex."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def chunk_id(document_id: str, settings: str, digest: str, start: int, end: int) -> str:
    """The stable id of the chunk ``[start, end)`` (code points) of a document."""
    key = f"{document_id}\0{settings}\0{digest}\0{start}:{end}"
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
