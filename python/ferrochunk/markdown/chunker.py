"""Markdown-aware chunking on the Rust engine: ``ferrochunk.MarkdownChunker``.

The shared class of :mod:`ferrochunk.frontend.markdown` with the Rust engine. Separators
outside the regex syntax both engines share, and lengths that are not counts, run on the
pure-Python engine, so the output never differs, only the speed. Text with lone surrogates
is refused with the ``ValueError`` of :func:`ferrochunk.split`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any, Optional

from .. import _native
from ..frontend import markdown as front
from ..frontend.batch import drain
from ..frontend.markdown import RESERVED_KEYS, SEPARATOR_PRESETS, user_metadata
from ..frontend.patterns import to_rust
from ..reference.markdown.chunker import make_engine as reference_engine
from ..split.splitter import Chunk, counted, is_native_length

# The native sizes are Rust `usize`s. A larger size means what the largest one does (no
# text, and no length the native engine takes, is longer), so it is clamped, not refused;
# but a parent size is part of the parents' ids: past this, the reference engine runs.
NATIVE_MAX = 2 * sys.maxsize + 1


def native_size(size: int, most: int = NATIVE_MAX) -> int:
    """``size`` as the native engine takes it: at most ``most``."""
    return min(size, most)


def native_takes(options: front.Options) -> bool:
    """Whether Rust can take the call's document id (a lone surrogate has no UTF-8; the
    reference hashes it as it is) and parent size."""
    if options.parent_size is not None and options.parent_size > NATIVE_MAX:
        return False
    doc = options.document_id
    if doc is None or doc.isascii():
        return True
    try:
        doc.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class NativeMarkdownEngine:
    """The Rust chunker; the reference engine for inputs it cannot take."""

    __slots__ = ("_fallback", "_length", "_native")

    def __init__(self, native: Any, fallback: Any, length: Any) -> None:
        self._native = native
        self._fallback = fallback
        self._length = length

    def split(self, text: str, options: front.Options) -> tuple[list[Any], list[Any]]:
        if not native_takes(options):
            return self._fallback.split(text, options)
        try:
            chunks, parents = self._native.split(
                text,
                options.metadata,
                options.document_id,
                self._length,
                options.embedding_text,
                options.parent_size,
            )
        except _native.Unsupported:  # lengths that are not counts: the reference engine
            return self._fallback.split(text, options)
        return (chunks if self._length is None else counted(chunks, self._length)), parents


class MarkdownChunker(front.MarkdownChunker[Chunk]):
    __doc__ = front.MarkdownChunker.__doc__

    def _make_engine(self) -> Any:
        fallback = reference_engine(self)
        patterns = [to_rust(s) if s else "" for s in self.separators]
        if any(p is None for p in patterns):
            return fallback  # outside the syntax both engines read alike: stay on Python
        try:
            native = _native.MarkdownChunker(
                native_size(self.chunk_size),
                native_size(self.min_size),
                patterns,
                self.settings,
                native_size(self.chunk_overlap, NATIVE_MAX - 1),  # stays below the size
                self.format,
                self.sentence_cuts,
            )
        except (ValueError, UnicodeEncodeError):  # a pattern over the regex crate's size
            return fallback  # limit, or naming a surrogate: Python's re runs it alike
        return NativeMarkdownEngine(native, fallback, self.length_function)

    def _chunk_type(self) -> Any:
        return Chunk

    def _parallel(
        self,
        texts: Iterable[Any],
        metadatas: Optional[Iterable[Any]],
        document_ids: Optional[Iterable[Any]],
        threads: Optional[int],
    ) -> Optional[Iterator[list[Chunk]]]:
        engine = self._engine
        if not isinstance(engine, NativeMarkdownEngine) or not is_native_length(engine._length):
            return None
        if self.parent_size is not None and self.parent_size > NATIVE_MAX:
            return None  # one document at a time, on the reference engine
        texts = iter(texts)
        results = _native.markdown_iter(
            engine._native,
            texts,
            None if metadatas is None else _user_metadatas(metadatas),
            None if document_ids is None else iter(document_ids),
            self.split,  # texts the native engine does not take (lone surrogates)
            engine._length,
            self.embedding_text,
            self.parent_size,
            threads,
        )
        return drain(results, lambda chunks: chunks)


def _user_metadatas(metadatas: Iterable[Any]) -> Iterator[dict]:
    for index, metadata in enumerate(metadatas):
        try:
            yield user_metadata(metadata)
        except (TypeError, ValueError) as err:
            kind = TypeError if isinstance(err, TypeError) else ValueError
            raise kind(f"metadatas[{index}]: {err}") from err


__all__ = ["RESERVED_KEYS", "SEPARATOR_PRESETS", "MarkdownChunker"]
