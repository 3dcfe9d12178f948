"""The engines of ``MarkdownChunker`` / ``TextChunker`` and of LangChain's
``MarkdownHeaderTextSplitter``, with the per-call fallbacks of their native engines."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any, Callable, Optional, Protocol

from .. import _native
from ..frontend.batch import drain
from ..frontend.hooks import HEADER_HOOKS, overridden_hooks
from ..frontend.markdown import Options, user_metadata
from .common import REFERENCE, counted, is_native_length, rust_separators

# The module defining the class whose hooks a subclass may override.
HEADER_MODULE = "ferrochunk.markdown.header"


# -- MarkdownChunker and TextChunker --------------------------------------------------------

# The native sizes are Rust `usize`s. A larger size means what the largest one does (no
# text, and no length the native engine takes, is longer), so it is clamped, not refused;
# but a parent size is part of the parents' ids: past this, the reference engine runs.
NATIVE_MAX = 2 * sys.maxsize + 1


def native_size(size: int, most: int = NATIVE_MAX) -> int:
    """``size`` as the native engine takes it: at most ``most``."""
    return min(size, most)


def native_takes(options: Options) -> bool:
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


class MarkdownEngine(Protocol):
    """What a ``MarkdownChunker`` asks of its engine (native or reference)."""

    def split(self, text: str, options: Options) -> tuple[list[Any], list[Any]]:
        """``(chunks, parents)`` of ``text``."""


class NativeMarkdownEngine:
    """The Rust chunker; the reference engine for the calls it cannot take."""

    __slots__ = ("_fallback", "_length", "_native")

    def __init__(
        self,
        native: _native.MarkdownChunker,
        fallback: MarkdownEngine,
        length: Optional[Callable[[str], int]],
    ) -> None:
        self._native = native
        self._fallback = fallback
        self._length = length

    def split(self, text: str, options: Options) -> tuple[list[Any], list[Any]]:
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


def markdown_cuts(engine: Any, text: str) -> list[tuple[str, int]]:
    """Per chunk of ``engine.split(text, ...)``: its cut reason and separator index (see
    ``_native.MarkdownChunker.cut_reasons``), from the engine that splits it: the
    reference for the lengths the native one cannot measure."""
    if isinstance(engine, NativeMarkdownEngine):
        try:
            return list(engine._native.cut_reasons(text, engine._length))
        except _native.Unsupported:  # lengths that are not counts, as in split()
            engine = engine._fallback
    cuts: list[tuple[str, int]] = engine.cuts(text)
    return cuts


def markdown_engine(chunker: Any) -> MarkdownEngine:
    """The engine of a ``MarkdownChunker`` / ``TextChunker``: ``split(text, options)``."""
    from ..reference.markdown.chunker import make_engine

    fallback = make_engine(chunker)
    if chunker._stack == REFERENCE:
        return fallback
    seps = rust_separators((s, True, s) for s in chunker.separators)
    if seps is None:
        return fallback  # outside the syntax both engines read alike: stay on Python
    try:
        native = _native.MarkdownChunker(
            native_size(chunker.chunk_size),
            native_size(chunker.min_size),
            [pattern for pattern, _, _ in seps],
            chunker.settings,
            native_size(chunker.chunk_overlap, NATIVE_MAX - 1),  # stays below the size
            chunker.format,
            chunker.sentence_cuts,
        )
    except (ValueError, UnicodeEncodeError):  # a pattern over the regex crate's size
        return fallback  # limit, or naming a surrogate: Python's re runs it alike
    return NativeMarkdownEngine(native, fallback, chunker.length_function)


def markdown_batch(
    chunker: Any,
    texts: Iterable[Any],
    metadatas: Optional[Iterable[Any]],
    document_ids: Optional[Iterable[Any]],
    threads: Optional[int],
) -> Optional[Iterator[list[Any]]]:
    """A ``MarkdownChunker``'s batch on the pool, or ``None`` for one document at a time."""
    engine = chunker._engine
    if not isinstance(engine, NativeMarkdownEngine) or not is_native_length(engine._length):
        return None
    if chunker.parent_size is not None and chunker.parent_size > NATIVE_MAX:
        return None  # one document at a time, on the reference engine
    results = _native.markdown_iter(
        engine._native,
        iter(texts),
        None if metadatas is None else _user_metadatas(metadatas),
        None if document_ids is None else iter(document_ids),
        chunker.split,  # texts the native engine does not take (lone surrogates)
        engine._length,
        chunker.embedding_text,
        chunker.parent_size,
        threads,
    )
    return drain(results, lambda chunks: chunks)


def _user_metadatas(metadatas: Iterable[Any]) -> Iterator[dict[str, Any]]:
    for index, metadata in enumerate(metadatas):
        try:
            yield user_metadata(metadata)
        except (TypeError, ValueError) as err:
            kind = TypeError if isinstance(err, TypeError) else ValueError
            raise kind(f"metadatas[{index}]: {err}") from err


# -- MarkdownHeaderTextSplitter -------------------------------------------------------------

_I64 = (-(2**63), 2**63 - 1)


class HeaderEngine(Protocol):
    """What a ``MarkdownHeaderTextSplitter`` asks of its line scan (native or reference)."""

    def split(self, text: str, names: list[Any]) -> list[Any]:
        """The documents of ``text``, metadata keyed by the header names."""


class NativeHeaderEngine:
    """The Rust line scan, with the reference engine for text it cannot encode."""

    __slots__ = ("_fallback", "_make", "_native")

    def __init__(
        self,
        native: _native.HeaderSplitter,
        fallback: HeaderEngine,
        make: Callable[[str, dict[str, Any]], Any],
    ) -> None:

        self._native = native
        self._fallback = fallback
        self._make = make  # the document maker: Rust's when exact for this Document

    def split(self, text: str, names: list[Any]) -> list[Any]:
        """The documents, metadata keyed by header name, made in Rust where they can be."""
        if not isinstance(text, str):  # LangChain's error, from `text.split`, as given
            return self._fallback.split(text, names)
        try:
            if isinstance(self._make, _native.DocumentMaker):
                return self._native.split(text, names, self._make)
            return [self._make(c, m) for c, m in self._native.split(text, names)]
        except UnicodeEncodeError:
            return self._fallback.split(text, names)


def header_engine(splitter: Any, rules: list[Any]) -> HeaderEngine:
    """The line scan of a ``MarkdownHeaderTextSplitter``: ``split(text, names)``."""
    from ..documents import make_document
    from ..reference.markdown.header import HeaderEngine, HookedHeaderEngine

    if overridden_hooks(splitter, HEADER_MODULE, HEADER_HOOKS):
        return HookedHeaderEngine(splitter, rules)
    fallback = HeaderEngine(rules, bool(splitter.return_each_line), bool(splitter.strip_headers))
    if splitter._stack == REFERENCE:
        return fallback
    if not all(type(r.level) is int and _I64[0] <= r.level <= _I64[1] for r in rules):
        return fallback
    if not all(isinstance(r.sep, str) for r in rules):
        return fallback
    native = _native.HeaderSplitter(
        [tuple(r) for r in rules], bool(splitter.return_each_line), bool(splitter.strip_headers)
    )
    return NativeHeaderEngine(native, fallback, make_document)
