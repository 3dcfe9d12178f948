"""Merging pieces into chunks with overlap (mirrors ``rust/split/merge.rs``).

LangChain's ``_merge_splits`` written on lengths: which consecutive pieces form each chunk,
and the running totals LangChain warns about.
"""

from __future__ import annotations


def merge(
    lengths: list[int], sep_len: int, size: int, overlap: int
) -> tuple[list[tuple[int, int]], list[int]]:
    """Return ``(groups, oversized)``: half-open piece-index ranges per chunk, and the size of
    every chunk emitted while longer than ``size``."""
    groups: list[tuple[int, int]] = []
    oversized: list[int] = []
    current: list[int] = []  # indices of the pieces in the chunk being built
    total = 0
    for i, length in enumerate(lengths):
        sep = sep_len if current else 0
        if total + length + sep > size:
            if total > size:
                oversized.append(total)
            if current:
                groups.append((current[0], current[-1] + 1))
                # Keep popping while the kept part is larger than the overlap, or the next
                # piece still would not fit.
                while total > overlap or (
                    total + length + (sep_len if current else 0) > size and total > 0
                ):
                    total -= lengths[current[0]] + (sep_len if len(current) > 1 else 0)
                    current.pop(0)
        current.append(i)
        total += length + (sep_len if len(current) > 1 else 0)
    if current:
        groups.append((current[0], current[-1] + 1))
    return groups, oversized
