"""Chunk spans as numpy arrays, shared by every chunker's ``spans`` / ``spans_batch``.

The native chunkers make their arrays in Rust (``rust/python/spans.rs``); this module checks
the arguments and gives the same arrays from chunks, for the reference engines and for the
settings the Rust path does not take (a Python ``length_function``): ``(start, end)`` of
each chunk, in code points (``unit="char"``) or UTF-8 bytes (``unit="byte"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

UNITS = ("char", "byte")


def numpy() -> Any:
    """The numpy module, or an ``ImportError`` saying how to get it."""
    try:
        import numpy
    except ImportError:
        raise ImportError(
            "spans() returns numpy arrays: pip install 'ferrochunk[spans]' (or numpy)"
        ) from None
    return numpy


def check_unit(unit: object) -> str:
    """``unit`` if it is ``"char"`` or ``"byte"``, else a ``ValueError``."""
    if not isinstance(unit, str) or unit not in UNITS:
        raise ValueError(
            f"unit must be 'char' (code-point offsets) or 'byte' (UTF-8 offsets), got {unit!r}"
        )
    return unit


def text_list(texts: Iterable[Any]) -> list[Any]:
    """The texts of a batch as a list (a batch's spans are one array: it is read whole)."""
    return texts if isinstance(texts, list) else list(texts)


def pairs(chunks: Sequence[Any], unit: str) -> list[tuple[int, int]]:
    """Each chunk's ``(start, end)`` in ``unit``."""
    if unit == "byte":
        return [(c.byte_start, c.byte_end) for c in chunks]
    return [(c.start, c.end) for c in chunks]


def from_chunks(chunks: Sequence[Any], unit: str) -> Any:
    """The ``(n, 2)`` int64 array of ``chunks``' spans."""
    np = numpy()
    return np.array(pairs(chunks, unit), dtype=np.int64).reshape(-1, 2)


def from_chunk_lists(lists: Iterable[Sequence[Any]], unit: str) -> tuple[Any, Any]:
    """``(flat, offsets)`` of many documents' chunks: every span in one ``(N, 2)`` array,
    document ``i``'s in rows ``offsets[i]:offsets[i + 1]``."""
    np = numpy()
    flat: list[tuple[int, int]] = []
    offsets = [0]
    for chunks in lists:
        flat.extend(pairs(chunks, unit))
        offsets.append(len(flat))
    return np.array(flat, dtype=np.int64).reshape(-1, 2), np.array(offsets, dtype=np.int64)


__all__ = ["UNITS", "check_unit", "from_chunk_lists", "from_chunks", "numpy", "text_list"]
