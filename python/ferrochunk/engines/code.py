"""The engine of ``CodeChunker``: the Rust chunker, or the pure-Python reference."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Optional

from .. import _native
from ..frontend.batch import one_at_a_time
from .common import REFERENCE, chunk_type, is_native_length


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
            chunks: list[Any] = self._native.split(text, metadata, self._length, embedding_text)
            return chunks
        except _native.Unsupported:  # lengths that are not counts: the reference engine
            if self._fallback is None:
                self._fallback = reference_engine(self._chunker)
            chunks = self._fallback.split(text, metadata, embedding_text)
            return chunks

    def cuts(self, text: str) -> list[str]:
        """Why each chunk of ``split`` ends where it does, from the engine that splits it."""
        try:
            reasons: list[str] = self._native.cut_reasons(text, self._length)
            return reasons
        except _native.Unsupported:  # lengths that are not counts, as in split()
            if self._fallback is None:
                self._fallback = reference_engine(self._chunker)
            reasons = self._fallback.cuts(text)
            return reasons


def reference_engine(chunker: Any) -> Any:
    from ..reference.code import ReferenceCodeEngine

    chunk = chunk_type(chunker._stack)
    return ReferenceCodeEngine(chunker.language, chunker.chunk_size, chunker.length_function, chunk)


def code_engine(chunker: Any) -> Any:
    """The engine of a ``CodeChunker``: ``split(text, metadata, embedding_text)``."""
    if chunker._stack == REFERENCE:
        return reference_engine(chunker)
    return NativeCodeEngine(chunker)


def code_batch(
    chunker: Any, rows: Iterator[tuple[Any, ...]], threads: Optional[int]
) -> Iterator[list[Any]]:
    """A ``CodeChunker`` batch: on the pool with the GIL released (native stack, sizes in
    code points or by a native counter), else one document at a time."""
    length = chunker.length_function
    if chunker._stack == REFERENCE or not is_native_length(length):
        return one_at_a_time(chunker.split, rows)
    texts, metas = [], []
    for index, text, metadata in rows:
        try:
            metas.append(chunker._checked(text, metadata))
        except (TypeError, ValueError) as err:
            raise type(err)(f"texts[{index}]: {err}") from None
        texts.append(text)
    native = chunker._native_chunker
    return iter(native.split_batch(texts, metas, length, chunker.embedding_text, threads))
