"""Which engine gives a chunker's ``spans`` / ``spans_batch``: the Rust functions of
``rust/python/spans.rs`` when they reproduce ``split`` exactly (a native engine measured by
code points or a native token counter), else the chunks of ``split`` itself, made into the
same arrays (the reference engines, a Python ``length_function``)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, Callable, NamedTuple, Optional

from .. import _native
from ..frontend.batch import one_at_a_time
from ..frontend.checks import check_encodable, warn_oversized
from ..frontend.spans import check_unit, from_chunk_lists, from_chunks, numpy, text_list
from .common import is_native_length
from .markdown import NATIVE_MAX, NativeMarkdownEngine


class Route(NamedTuple):
    """The Rust functions for one text and for a batch, their leading arguments, and what
    to do with the sizes they report (``Splitter``'s warning)."""

    one: Callable[..., Any]
    many: Callable[..., Any]
    args: tuple[Any, ...]
    warn: Callable[[list[int]], None]


def _no_warning(oversized: list[int]) -> None:
    pass


def cached(chunker: Any, make: Callable[[Any], Optional[Route]]) -> Optional[Route]:
    """``make(chunker)``, kept on the chunker (immutable, so it never changes): building a
    route was a visible part of a short text's ``spans``."""
    try:
        return chunker._spans_route  # type: ignore[no-any-return]
    except AttributeError:
        route = chunker._spans_route = make(chunker)
        return route


def splitter_route(splitter: Any) -> Optional[Route]:
    """A ``Splitter``'s Rust route: a native engine measured natively, else ``None``."""
    engine, length = splitter._engine, splitter._args["length_function"]
    if not isinstance(engine, _native.Splitter) or not is_native_length(length):
        return None
    warn = functools.partial(warn_oversized, chunk_size=splitter._args["chunk_size"])
    return Route(_native.splitter_spans, _native.splitter_spans_batch, (engine, length), warn)


def markdown_route(chunker: Any) -> Optional[Route]:
    """A ``MarkdownChunker``'s (``TextChunker``'s) Rust route, on the rows of
    :func:`ferrochunk.engines.markdown.markdown_batch`."""
    engine = chunker._engine
    if not isinstance(engine, NativeMarkdownEngine) or not is_native_length(engine._length):
        return None
    if chunker.parent_size is not None and chunker.parent_size > NATIVE_MAX:
        return None
    args = (engine._native, engine._length, chunker.parent_size)
    return Route(_native.markdown_spans, _native.markdown_spans_batch, args, _no_warning)


def window_route(encoder: Any, size: int, overlap: int) -> Route:
    """A ``TokenSplitter``'s Rust route (always native), given its native sizes."""
    args = (encoder, size, overlap)
    return Route(_native.window_spans, _native.window_spans_batch, args, _no_warning)


def spans(chunker: Any, text: Any, unit: str, route: Optional[Route]) -> Any:
    """``chunker.split(text)``'s spans as an ``(n, 2)`` int64 array, by ``route`` (else
    from the chunks)."""
    check_unit(unit)
    if route is None or not isinstance(text, str):  # split() raises for a non-str
        return from_chunks(chunker.split(text), unit)
    try:
        array, oversized = route.one(*route.args, text, unit)
    except UnicodeEncodeError:
        check_encodable(text)  # split()'s ValueError, naming the lone surrogate
        raise
    except ImportError:  # Rust imports numpy for the first array: say how to get it
        numpy()
        raise
    route.warn(oversized)
    return array


def spans_batch(
    chunker: Any,
    texts: Iterable[Any],
    threads: Optional[int],
    unit: str,
    route: Optional[Route],
) -> tuple[Any, Any]:
    """``(flat, offsets)``: every text's spans in one ``(N, 2)`` array, text ``i``'s in rows
    ``offsets[i]:offsets[i + 1]``; the Rust route splits them all with the GIL released."""
    check_unit(unit)
    texts = text_list(texts)
    if route is None:
        rows = ((i, text) for i, text in enumerate(texts))
        return from_chunk_lists(one_at_a_time(chunker.split, rows), unit)
    try:
        flat, offsets, oversized = route.many(*route.args, texts, unit, threads)
    except ImportError:
        numpy()
        raise
    route.warn(oversized)
    return flat, offsets


__all__ = [
    "Route",
    "cached",
    "markdown_route",
    "spans",
    "spans_batch",
    "splitter_route",
    "window_route",
]
