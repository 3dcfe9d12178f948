"""Text primitives (mirrors ``rust/text.rs``): Python's own ``str.strip`` semantics."""

from __future__ import annotations


def strip_range(text: str, start: int, end: int) -> tuple[int, int]:
    """The ``(start, end)`` of ``text[start:end]`` left after ``str.strip()``."""
    piece = text[start:end]
    stripped = piece.lstrip()
    lead = len(piece) - len(stripped)
    return start + lead, start + lead + len(stripped.rstrip())


def utf8_len(text: str) -> int:
    """Bytes ``text`` takes in UTF-8."""
    return len(text.encode("utf-8"))
