"""Parent chunks over Markdown chunks (mirrors ``rust/markdown/parent.rs``).

Parents are runs of consecutive children, so every child lies in exactly one parent and a
parent is an exact span of the source (first child's start to last child's end). A parent
grows while it fits ``parent_size``; a change of heading path (a new section) closes it
once it has a quarter of that size, so parents follow sections without being tiny.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional

from .chunk import RawChunk


class Parent(NamedTuple):
    """A parent: span (code points) and the indices ``first:last`` of its children."""

    start: int
    end: int
    first: int
    last: int


def group(
    text: str, chunks: list[RawChunk], parent_size: int, length: Optional[Callable[[str], int]]
) -> list[Parent]:
    """Groups ``chunks`` into parents of at most ``parent_size`` (a larger child is alone)."""

    def size(a: int, b: int) -> int:
        return b - a if length is None else length(text[a:b])

    out: list[Parent] = []
    cur: Optional[Parent] = None
    for k, c in enumerate(chunks):
        if cur is not None:
            closes = chunks[k - 1].path != c.path and size(cur.start, cur.end) >= parent_size // 4
            if not closes and size(cur.start, c.end) <= parent_size:
                cur = cur._replace(end=c.end, last=k + 1)
                continue
            out.append(cur)
        cur = Parent(c.start, c.end, k, k + 1)
    if cur is not None:
        out.append(cur)
    return out
