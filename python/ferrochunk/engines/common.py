"""What every subsystem's engine choice reads: the two stacks, the native lengths, the
chunk classes, separators in the core's syntax."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Callable, Optional

from .. import _native
from ..frontend.patterns import to_rust

NATIVE = "native"
REFERENCE = "reference"
NATIVE_LENGTHS = (_native.TokenCounter, _native.HfTokenCounter)


def is_native_length(length: object) -> bool:
    """Whether the core can measure with ``length`` off the GIL: none, or a native counter."""
    return length is None or isinstance(length, NATIVE_LENGTHS)


def chunk_type(stack: str) -> Callable[..., Any]:
    """The chunk class of a stack's ``Splitter`` and ``MarkdownChunker``."""
    if stack == REFERENCE:
        from ..reference.chunk import Chunk

        return Chunk
    return _native.Chunk


def rust_separators(
    specs: Iterable[tuple[Any, bool, Any]],
) -> Optional[list[tuple[str, bool, Any]]]:
    """``(text, is_regex, join)`` separators in the core's syntax (a regex translated by
    :func:`~ferrochunk.frontend.patterns.to_rust`), or ``None`` if one needs Python's ``re``
    (or is no ``str``: Python's ``re`` raises LangChain's exact ``TypeError`` for bytes)."""
    out = []
    for text, is_regex, join in specs:
        if not isinstance(text, str) or not isinstance(join, str):
            return None
        if is_regex and text:
            rust = to_rust(text)
            if rust is None:
                return None
            out.append((rust, True, join))
        else:
            out.append((text, False, join))
    return out


def counted(chunks: list[Any], length: Any) -> list[Any]:
    """``chunks`` with their ``token_count`` when a Python ``length`` counts tokens (marked
    ``counts_tokens``, as the reference reads it); Rust fills it for its own counters."""
    if getattr(length, "counts_tokens", False) is not True or is_native_length(length):
        return chunks
    chunk = _native.Chunk
    return [
        chunk(c.text, c.start, c.end, c.byte_start, c.byte_end, c.index, c.metadata, length(c.text))
        for c in chunks
    ]
