"""Which heading path each part of the text sits under (mirrors
``rust/markdown/sections.rs``).

A section runs from a heading's first character to the next heading (the text before the
first heading is the section of the empty path); its path is the titles of the headings in
force there. A chunk covers the sections its span overlaps; the main one holds the most code
points of the chunk (the earlier on a tie).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import NamedTuple

from .blocks import HEADING, Block

Path = tuple[str, ...]


class Coverage(NamedTuple):
    """Every heading path a span overlaps, in order, and the index of the main one."""

    paths: tuple[Path, ...]
    main: int


class Sections:
    """The sections of one text, from its blocks: every heading opens one."""

    def __init__(self, blocks: list[Block]) -> None:
        self.starts = [0]
        self.paths: list[Path] = [()]
        stack: list[tuple[int, str]] = []
        for block in blocks:
            if block.kind != HEADING:
                continue
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, block.title))
            self.starts.append(block.start)
            self.paths.append(tuple(t for _, t in stack))

    def heading_paths(self) -> list[Path]:
        """Paths of the headings in document order."""
        return self.paths[1:]

    def coverage(self, start: int, end: int) -> Coverage:
        """The sections ``text[start:end]`` overlaps, and the one holding most of it."""
        first = max(bisect_right(self.starts, start) - 1, 0)
        last = max(bisect_left(self.starts, end), first + 1)
        paths: list[Path] = []
        main = most = 0
        for k in range(first, last):
            a = max(self.starts[k], start)
            b = min(self.starts[k + 1], end) if k + 1 < len(self.starts) else end
            if b <= a and last - first > 1:
                continue
            if b - a > most:
                main, most = len(paths), b - a
            paths.append(self.paths[k])
        return Coverage(tuple(paths), main)
