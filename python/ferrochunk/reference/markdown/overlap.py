"""Optional overlap for the Markdown chunker (mirrors ``rust/markdown/overlap.rs``).

A chunk may start with the tail of the chunk before it. The tail starts at a seam of the
separators, tried in order (sentence ends, then lines, clauses, words with the presets;
never mid-word, so the empty separator is skipped): the first kind of seam giving a tail
of at most ``overlap`` (and a chunk of at most ``max_size``) wins, and within it the
longest such tail. A tail never crosses a heading, never starts inside a code block or
table that is whole in one chunk, and starts inside a cut one only at a line start.
Chunks repeating a table header get no tail. Only starts move, so chunks stay exact
spans.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Callable, Optional

from .blocks import CODE, HEADING, TABLE, Block
from .chunk import RawChunk

Spans = list[tuple[int, int]]


def _code_and_tables(blocks: list[Block], chunks: list[RawChunk], cut: bool) -> Spans:
    """Code blocks and tables whole in one chunk (``cut`` false), or not (``cut`` true)."""
    out: Spans = []
    k = 0
    for b in blocks:
        if b.kind not in (CODE, TABLE):
            continue
        while k < len(chunks) and chunks[k].end <= b.start:
            k += 1
        whole = k < len(chunks) and chunks[k].start <= b.start and b.end <= chunks[k].end
        if whole != cut:
            out.append((b.start, b.end))
    return out


def _inside(spans: Spans, pos: int) -> Optional[tuple[int, int]]:
    """The span with ``pos`` strictly inside."""
    k = bisect_left(spans, (pos,))
    return spans[k - 1] if k and pos < spans[k - 1][1] else None


class Overlap:
    """What the tails are cut by (``seams``: regexes, ``""`` for characters) and sized to."""

    def __init__(
        self, text: str, blocks: list[Block], seams: list[str], overlap: int, max_size: int
    ):
        self.text = text
        self.blocks = blocks
        self.seams = seams
        self.overlap = overlap
        self.max = max_size

    def apply(
        self,
        chunks: list[RawChunk],
        fresh: Callable[[int], bool],
        size: Callable[[int, int], int],
    ) -> list[RawChunk]:
        """The chunks with their starts moved back over their predecessors' tails."""
        if self.overlap == 0:
            return chunks
        whole = _code_and_tables(self.blocks, chunks, False)
        cut = _code_and_tables(self.blocks, chunks, True)
        headings = [(b.start, b.end) for b in self.blocks if b.kind == HEADING]
        out = list(chunks)
        for k in range(1, len(chunks)):
            p, c = chunks[k - 1], chunks[k]
            if fresh(k) or c.header is not None:
                continue
            h = bisect_left(headings, (c.start,))
            if h < len(headings) and headings[h][0] == c.start:
                continue  # a chunk that opens a section
            lo = max(headings[h - 1][1], p.start) if h else p.start
            if lo >= p.end:
                continue
            q = self.tail(lo, p.end, c.end, lambda q: self.valid(q, whole, cut), size)
            if q is not None:
                out[k] = c._replace(start=q)
        return out

    def valid(self, q: int, whole: Spans, cut: Spans) -> bool:
        if _inside(whole, q) is not None:
            return False
        block = _inside(cut, q)
        if block is None:
            return True
        line = self.text.rfind("\n", 0, q) + 1
        return all(ch in " \t" for ch in self.text[max(line, block[0]) : q])

    def tail(
        self,
        lo: int,
        end: int,
        chunk_end: int,
        valid: Callable[[int], bool],
        size: Callable[[int, int], int],
    ) -> Optional[int]:
        """The start of the longest tail of ``text[lo:end]`` for the chunk ending at
        ``chunk_end``, at the first kind of seam that has one."""
        hay = self.text[lo:end]
        for pattern in filter(None, self.seams):  # never mid-word: no character seams
            seams: list[int] = []
            for e in (m.end() for m in re.finditer(pattern, hay)):
                q = self.skip_space(lo + e, end)
                if q < end and (not seams or seams[-1] != q) and valid(q):
                    seams.append(q)
            best = None
            for q in reversed(seams):
                if size(q, end) > self.overlap or size(q, chunk_end) > self.max:
                    break
                best = q
            if best is not None:
                return best
        return None

    def skip_space(self, pos: int, end: int) -> int:
        while pos < end and self.text[pos].isspace():
            pos += 1
        return pos
