"""Argument checks and the size warning of the native API, shared by both engines."""

from __future__ import annotations

import re
from typing import Any

from .patterns import min_width


def check_text(text: object) -> str:
    """``text`` if it is a ``str``, else a ``TypeError`` saying what was passed."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    return text


def check_encodable(text: str) -> None:
    """``ValueError`` naming the first lone surrogate of ``text`` (which has no UTF-8 form),
    in the words of :func:`ferrochunk.split`; nothing if it has none."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError(
            f"text has a lone surrogate {text[err.start]!r} at index {err.start}, which has "
            "no UTF-8 encoding; decode the input with errors='replace' or remove it"
        ) from None


def check_sizes(chunk_size: object, chunk_overlap: object) -> tuple[int, int]:
    """The sizes, checked by the native API's rules: ints, ``chunk_size > 0``,
    ``0 <= overlap <= size``."""
    for name, value in (("chunk_size", chunk_size), ("chunk_overlap", chunk_overlap)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    assert isinstance(chunk_size, int) and isinstance(chunk_overlap, int)
    if chunk_size <= 0:
        raise ValueError(f"chunk_size must be > 0, got {chunk_size}")
    if chunk_overlap < 0:
        raise ValueError(f"chunk_overlap must be >= 0, got {chunk_overlap}")
    if chunk_overlap > chunk_size:
        raise ValueError(
            f"chunk_overlap ({chunk_overlap}) must not exceed chunk_size ({chunk_size}); "
            "lower the overlap or raise the size"
        )
    return chunk_size, chunk_overlap


def metadata_dict(metadata: Any, name: str = "metadata") -> dict[str, Any]:
    """``dict(metadata)`` (a mapping or key-value pairs; ``None`` is empty), else a
    ``TypeError`` naming the argument."""
    if metadata is None:
        return {}
    try:
        return dict(metadata)
    except (TypeError, ValueError):
        raise TypeError(
            f"{name} must be a mapping such as {{'source': 'a.md'}} (or key-value pairs) or "
            f"None, got {type(metadata).__name__} {metadata!r:.40}"
        ) from None


def window_overlap(chunk_size: object, chunk_overlap: object) -> object:
    """The overlap a window chunker uses: ``chunk_overlap``, or for ``None`` (the default) a
    fifth of ``chunk_size``, which is valid for every size (200 for 1000, 0 below 5)."""
    if chunk_overlap is not None:
        return chunk_overlap
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int):
        raise TypeError(f"chunk_size must be an int, got {type(chunk_size).__name__}")
    return max(chunk_size, 0) // 5


def check_pattern(pattern: str) -> None:
    """A separator regex the native API can keep exact spans with, else ``ValueError``."""
    try:
        compiled = re.compile(pattern)
    except re.error as err:
        raise ValueError(f"invalid separator regex {pattern!r}: {err}") from None
    if compiled.groups:
        raise ValueError(
            f"separator regex {pattern!r} has capturing groups; use (?:...) instead so "
            "chunks stay exact spans of the text"
        )
    if _can_match_empty(pattern):
        raise ValueError(
            f"separator regex {pattern!r} can match the empty string; use '' to split "
            "into characters"
        )
    try:  # separators are kept, so they are matched inside a group as LangChain does it
        re.compile(f"({pattern})")
    except re.error as err:
        raise ValueError(
            f"invalid separator regex {pattern!r} inside a group: {err}; use scoped flags "
            "such as (?s:...) instead of global ones"
        ) from None


def _can_match_empty(pattern: str) -> bool:
    return bool(pattern) and min_width(pattern) == 0


def warn_oversized(oversized: list[int], chunk_size: int) -> None:
    """The native API's warning for each chunk longer than ``chunk_size`` (to the
    ``ferrochunk`` logger; ``logging`` is imported on the first warning, not at start-up)."""
    if not oversized:
        return
    import logging

    logger = logging.getLogger("ferrochunk")
    for total in oversized:
        logger.warning(
            "Created a chunk of size %d, which is longer than the specified %d",
            total,
            chunk_size,
        )
