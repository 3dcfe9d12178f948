"""The engine of ``CodeChunker``: the Rust chunker, or the pure-Python reference."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import _native
from .common import REFERENCE, chunk_type


class NativeCodeEngine:
    """The Rust chunker; the reference engine for lengths that are not counts."""

    __slots__ = ("_chunker", "_fallback", "_length", "_native")

    def __init__(self, chunker: Any) -> None:
        self._chunker = chunker
        self._native = chunker._native_chunker
        self._length = chunker.length_function
        self._fallback: Any = None

    def split(self, text: str, metadata: Mapping[str, Any], embedding_text: bool) -> list[Any]:
        try:
            return self._native.split(text, metadata, self._length, embedding_text)
        except _native.Unsupported:  # lengths that are not counts: the reference engine
            if self._fallback is None:
                self._fallback = reference_engine(self._chunker)
            return self._fallback.split(text, metadata, embedding_text)


def reference_engine(chunker: Any) -> Any:
    from ..reference.code import ReferenceCodeEngine

    chunk = chunk_type(chunker._stack)
    return ReferenceCodeEngine(chunker.language, chunker.chunk_size, chunker.length_function, chunk)


def code_engine(chunker: Any) -> Any:
    """The engine of a ``CodeChunker``: ``split(text, metadata, embedding_text)``."""
    if chunker._stack == REFERENCE:
        return reference_engine(chunker)
    return NativeCodeEngine(chunker)
