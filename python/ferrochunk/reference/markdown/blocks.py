"""Markdown block scanner (mirrors ``rust/markdown/blocks.rs``; line predicates are in
:mod:`.lines`).

A line-based reading of the CommonMark block structure, enough to chunk without cutting
things: top-level ATX and setext headings, fenced code (``` and ~~~, longer fences nest
shorter ones, an unclosed fence runs to the end as CommonMark says), indented code, GFM
tables (header, delimiter row with matching column count, rows), list items and block
quotes (split into parts at blank lines and around fences inside them, so a fence in a
list item is atomic too), HTML blocks (CommonMark's seven kinds), thematic breaks and
paragraphs. Headings inside containers are content, not section headings.

Blocks are ``(kind, start, end, level, title)`` with code-point offsets; ``start`` is the
first non-blank character of the first line (the line start for indented code), ``end``
the end of the last line without trailing whitespace.
"""

from __future__ import annotations

from typing import Optional

from .lines import (
    BREAK,
    CODE,
    HEADING,
    HTML,
    HTML_RES,
    LIST,
    PARAGRAPH,
    QUOTE,
    TABLE,
    Block,
    atx,
    fence_close,
    fence_open,
    html_kind,
    indent,
    interrupts,
    is_blank,
    list_marker,
    quote_start,
    setext_level,
    split_lines,
    table_start,
    thematic_break,
)

__all__ = [
    "BREAK",
    "CODE",
    "HEADING",
    "HTML",
    "LIST",
    "PARAGRAPH",
    "QUOTE",
    "TABLE",
    "Block",
    "scan",
]


class Scanner:
    """One pass over the lines of a text, emitting blocks in order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines, self.starts = split_lines(text)
        self.blocks: list[Block] = []

    def span(self, first: int, last: int, keep_indent: bool = False) -> tuple[int, int]:
        """Offsets of lines ``first..=last``: from the first non-blank character (or the
        line start) to the end of the last line without trailing whitespace."""
        start = self.starts[first] + (0 if keep_indent else indent(self.lines[first])[1])
        while last > first and is_blank(self.lines[last]):
            last -= 1
        line = self.lines[last]
        return start, self.starts[last] + len(line.rstrip())

    def add(self, kind: str, first: int, last: int, level: int = 0, title: str = "") -> None:
        start, end = self.span(first, last, keep_indent=kind == CODE and level < 0)
        if end > start:
            self.blocks.append(Block(kind, start, end, max(level, 0), title))

    def scan(self) -> list[Block]:
        i, n = 0, len(self.lines)
        while i < n:
            i = self.block(i) if not is_blank(self.lines[i]) else i + 1
        return self.blocks

    def block(self, i: int) -> int:
        """Reads the block starting at line ``i``; returns the line after it."""
        lines = self.lines
        s = lines[i]
        if indent(s)[0] > 3:
            return self.indented_code(i)
        if table_start(lines, i):
            return self.table(i)
        fence = fence_open(s)
        if fence:
            j = i + 1
            while j < len(lines) and not fence_close(lines[j], fence):
                j += 1
            self.add(CODE, i, min(j, len(lines) - 1))
            return j + 1
        if quote_start(s):
            return self.container(i, QUOTE, 0)
        if thematic_break(s):
            self.add(BREAK, i, i)
            return i + 1
        marker = list_marker(s)
        if marker:
            return self.container(i, LIST, marker[0])
        kind = html_kind(s, False)
        if kind >= 0:
            return self.html(i, kind)
        heading = atx(s)
        if heading:
            self.add(HEADING, i, i, *heading)
            return i + 1
        return self.paragraph(i)

    def indented_code(self, i: int) -> int:
        j = last = i
        while j < len(self.lines) and (is_blank(self.lines[j]) or indent(self.lines[j])[0] > 3):
            if not is_blank(self.lines[j]):
                last = j
            j += 1
        self.add(CODE, i, last, level=-1)
        return last + 1

    def table(self, i: int) -> int:
        j = i + 2
        while j < len(self.lines):
            s = self.lines[j]
            if is_blank(s) or indent(s)[0] > 3 or interrupts(self.lines, j):
                break
            j += 1
        self.add(TABLE, i, j - 1)
        return j

    def html(self, i: int, kind: int) -> int:
        end = HTML_RES[kind][1]
        j = i
        if end is None:
            while j + 1 < len(self.lines) and not is_blank(self.lines[j + 1]):
                j += 1
        else:
            while j + 1 < len(self.lines) and not end.search(self.lines[j]):
                j += 1
        self.add(HTML, i, j)
        return j + 1

    def paragraph(self, i: int) -> int:
        lines = self.lines
        j = i + 1
        while j < len(lines) and not is_blank(lines[j]):
            if indent(lines[j])[0] <= 3:
                level = setext_level(lines[j])
                if level:
                    title = " ".join(lines[k].strip(" \t") for k in range(i, j)).strip(" \t")
                    self.add(HEADING, i, j, level, title)
                    return j + 1
                if interrupts(lines, j):
                    break
            j += 1
        self.add(PARAGRAPH, i, j - 1)
        return j

    def container(self, i: int, kind: str, width: int) -> int:
        """A list item (content at ``width`` columns) or a block quote (``width`` 0): its
        lines, then its parts: runs of lines split at blank lines and around fences."""
        lines = self.lines
        inner = [self.inner(i, kind, width, first=True)]
        j = i + 1
        blank_before = False
        fence = fence_open(inner[0])
        while j < len(lines):
            s = lines[j]
            if kind == QUOTE:
                if is_blank(s) or not (quote_start(s) or (not fence and not interrupts(lines, j))):
                    break
            elif is_blank(s):
                blank_before = True
                inner.append("")
                j += 1
                continue
            elif indent(s)[0] < width and (blank_before or fence or interrupts(lines, j)):
                break
            elif indent(s)[0] < width and list_marker(s):
                break
            content = self.inner(j, kind, width, first=False)
            fence = self.track(fence, content)
            inner.append(content)
            blank_before = False
            j += 1
        while inner and is_blank(lines[i + len(inner) - 1]):
            inner.pop()  # a quote's bare ">" lines are text: only truly blank lines go
        self.parts(i, inner, kind)
        return i + len(inner)

    @staticmethod
    def track(fence: Optional[tuple[str, int]], content: str) -> Optional[tuple[str, int]]:
        if fence:
            return None if fence_close(content, fence) else fence
        return fence_open(content)

    def inner(self, j: int, kind: str, width: int, first: bool) -> str:
        """Line ``j`` without its container prefix (quote marker, or list indentation)."""
        s = self.lines[j]
        cols, n = indent(s)
        if kind == QUOTE:
            if not quote_start(s):
                return s
            rest = s[n + 1 :]
            return rest[1:] if rest[:1] == " " else rest
        if first:
            return s[len(s) - len(s.lstrip(" \t-+*0123456789.)")) :] if cols <= 3 else s
        if cols >= width:
            k, col = 0, 0
            while k < len(s) and col < width and s[k] in " \t":
                col += 4 - col % 4 if s[k] == "\t" else 1
                k += 1
            return s[k:]
        return s

    def parts(self, i: int, inner: list[str], kind: str) -> None:
        """Emits the container's parts: fenced code inside it is a part of its own."""
        first = i
        fence = None
        for k, content in enumerate(inner):
            line = i + k
            if fence is None:
                opened = fence_open(content)
                if opened:
                    if line > first:
                        self.add(kind, first, line - 1)
                    fence, first = opened, line
                elif is_blank(self.lines[line]):
                    if line > first:
                        self.add(kind, first, line - 1)
                    first = line + 1
            elif fence_close(content, fence):
                self.add(CODE, first, line)
                fence, first = None, line + 1
        if first < i + len(inner):
            self.add(CODE if fence else kind, first, i + len(inner) - 1)


def scan(text: str) -> list[Block]:
    """The blocks of a Markdown text, in order."""
    return Scanner(text).scan()
