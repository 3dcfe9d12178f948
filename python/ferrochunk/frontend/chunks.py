"""Chunk objects from ``(text, start)`` pieces: offsets tracked, never searched for.

Shared by the reference engines and by the native classes' fallback to them; ``make`` is the
chunk type (the native ``Chunk`` or the reference dataclass).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Callable, Optional

from .checks import metadata_dict

Piece = tuple[str, Optional[int]]


def length_name(fn: Optional[Callable[[str], int]]) -> str:
    """How a chunker's settings string (part of every ``chunk_id``) names its length:
    ``chars``, a token counter's encoding (``cl100k_base``: the same in both stacks), else the
    function's name, so chunks sized another way get other ids."""
    if fn is None:
        return "chars"
    name = getattr(fn, "name", None)
    if isinstance(name, str) and getattr(fn, "counts_tokens", False) is True:
        return name
    return str(getattr(fn, "__qualname__", type(fn).__qualname__))


def utf8_len(text: str) -> int:
    """Bytes ``text`` takes in UTF-8."""
    return len(text.encode("utf-8"))


def to_chunks(
    source: str,
    pieces: Sequence[Piece],
    metadata: Optional[Mapping[str, Any]] = None,
    *,
    make: Callable[..., Any],
    length: Optional[Callable[[str], int]] = None,
) -> list[Any]:
    """Attach code-point and byte offsets (tracked, never searched for) and metadata, and
    each chunk's ``token_count`` when ``length`` counts tokens (has ``counts_tokens``)."""
    counts = getattr(length, "counts_tokens", False) is True
    meta = MappingProxyType(metadata_dict(metadata or None))
    chunks = []
    char_pos = byte_pos = 0
    for index, (text, start) in enumerate(pieces):
        if start is None:
            raise ValueError("chunk is not a slice of the source")  # guarded by callers
        byte_pos += _utf8_delta(source, char_pos, start)
        char_pos = start
        byte_start = byte_pos
        byte_end = byte_start + utf8_len(text)
        tokens = length(text) if counts and length is not None else None
        chunks.append(
            make(text, start, start + len(text), byte_start, byte_end, index, meta, tokens)
        )
    return chunks


def _utf8_delta(source: str, a: int, b: int) -> int:
    return utf8_len(source[a:b]) if b >= a else -utf8_len(source[b:a])
