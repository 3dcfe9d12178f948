"""Markdown-aware chunking on the Rust engine: ``ferrochunk.MarkdownChunker``.

The shared class of :mod:`ferrochunk.frontend.markdown` with the Rust engine. Separators
outside the regex syntax both engines share, and lengths that are not counts, run on the
pure-Python engine, so the output never differs, only the speed. Text with lone surrogates
is refused with the ``ValueError`` of :func:`ferrochunk.split`.
"""

from __future__ import annotations

from typing import Any

from .. import _native
from ..frontend import markdown as front
from ..frontend.markdown import RESERVED_KEYS, SEPARATOR_PRESETS
from ..frontend.patterns import to_rust
from ..reference.markdown.chunker import make_engine as reference_engine
from ..split.splitter import Chunk, gc_paused


class NativeMarkdownEngine:
    """The Rust chunker; the reference engine for inputs it cannot take."""

    __slots__ = ("_fallback", "_length", "_native")

    def __init__(self, native: Any, fallback: Any, length: Any) -> None:
        self._native = native
        self._fallback = fallback
        self._length = length

    def split(self, text: str, options: front.Options) -> tuple[list[Any], list[Any]]:
        try:
            with gc_paused():
                return self._native.split(
                    text,
                    options.metadata,
                    options.document_id,
                    self._length,
                    options.embedding_text,
                    options.parent_size,
                )
        except _native.Unsupported:  # lengths that are not counts: the reference engine
            return self._fallback.split(text, options)


class MarkdownChunker(front.MarkdownChunker):
    __doc__ = front.MarkdownChunker.__doc__

    def _make_engine(self) -> Any:
        fallback = reference_engine(self)
        patterns = [to_rust(s) if s else "" for s in self.separators]
        if any(p is None for p in patterns):
            return fallback  # outside the syntax both engines read alike: stay on Python
        native = _native.MarkdownChunker(
            self.chunk_size, self.min_size, patterns, self.settings, self.chunk_overlap
        )
        return NativeMarkdownEngine(native, fallback, self.length_function)

    def _chunk_type(self) -> Any:
        return Chunk


__all__ = ["RESERVED_KEYS", "SEPARATOR_PRESETS", "MarkdownChunker"]
