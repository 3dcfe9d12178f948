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
    link_definition,
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
                    first = i
                    while first < j and link_definition(lines[first]):
                        first += 1
                    if first < j:
                        return self.setext(i, first, j, level)
                    if thematic_break(lines[j]):
                        break  # definitions only: no heading, and `---` is a break
                elif interrupts(lines, j):
                    break
            j += 1
        self.add(PARAGRAPH, i, j - 1)
        return j

    def setext(self, i: int, first: int, j: int, level: int) -> int:
        """A setext heading on lines ``first..=j``; the link reference definitions before
        it (lines ``i..first``) are no part of its title (CommonMark): a paragraph."""
        if first > i:
            self.add(PARAGRAPH, i, first - 1)
        title = " ".join(self.lines[k].strip(" \t") for k in range(first, j)).strip(" \t")
        self.add(HEADING, first, j, level, title)
        return j + 1

    def container(self, i: int, kind: str, width: int) -> int:
        """A list item (content at ``width`` columns) or a block quote: its lines without
        the container's prefix, then its parts: runs of lines split at blank lines and
        around fences."""
        inner = item(self.lines, i, width, 0) if kind == LIST else unnest(self.quote(i), 0)
        self.parts(i, inner, kind)
        return i + len(inner)

    def quote(self, i: int) -> list[str]:
        """The lines of the block quote at line ``i``, without their ``>`` markers."""
        lines = self.lines
        inner = [quote_inner(lines[i])]
        fence = fence_open(inner[0])
        j = i + 1
        while j < len(lines):
            s = lines[j]
            if is_blank(s) or not (quote_start(s) or (not fence and not interrupts(lines, j))):
                break
            content = quote_inner(s)
            fence = track(fence, content)
            inner.append(content)
            j += 1
        return inner

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


def track(fence: Optional[tuple[str, int]], content: str) -> Optional[tuple[str, int]]:
    if fence:
        return None if fence_close(content, fence) else fence
    return fence_open(content)


def quote_inner(s: str) -> str:
    """A quote line without its ``>`` marker (and one space after it); a lazy line as is."""
    if not quote_start(s):
        return s
    rest = s[indent(s)[1] + 1 :]
    return rest[1:] if rest[:1] == " " else rest


def item_inner(s: str, width: int, first: bool) -> str:
    """A list item's line without its marker (first line) or its ``width`` columns of
    indentation (a lazy line, less indented, as is)."""
    cols, _ = indent(s)
    if first:
        return s[len(s) - len(s.lstrip(" \t-+*0123456789.)")) :] if cols <= 3 else s
    if cols < width:
        return s
    k = col = 0
    while k < len(s) and col < width and s[k] in " \t":
        col += 4 - col % 4 if s[k] == "\t" else 1
        k += 1
    return s[k:]


def ends_paragraph(content: str, in_paragraph: bool) -> bool:
    """Whether after this line of a container no paragraph is open (it is blank, an ATX
    heading, indented code, an HTML block start): only a paragraph takes a lazy line."""
    if is_blank(content) or atx(content) is not None:
        return True
    return (indent(content)[0] > 3 and not in_paragraph) or html_kind(content, in_paragraph) >= 0


# Lists nested deeper than this keep their indentation: it bounds the recursion
# (markdown-it's commonmark preset stops nesting at 20 levels).
MAX_NESTING = 16


def item(lines: list[str], i: int, width: int, depth: int) -> list[str]:
    """The lines of the list item at ``lines[i]`` (content at ``width`` columns), each
    without the item's indentation, and those of the items nested in it too."""
    inner = [item_inner(lines[i], width, True)]
    fence = fence_open(inner[0])
    closed = ends_paragraph(inner[0], False)  # no paragraph open for a lazy line
    j = i + 1
    while j < len(lines):
        s = lines[j]
        if is_blank(s):
            closed = True
            inner.append("")
        elif indent(s)[0] < width and (closed or fence or interrupts(lines, j) or list_marker(s)):
            break
        else:
            content = item_inner(s, width, False)
            closed = fence is not None or ends_paragraph(content, not closed)
            fence = track(fence, content)
            inner.append(content)
        j += 1
    while len(inner) > 1 and is_blank(inner[-1]):
        inner.pop()
    return unnest(inner, depth + 1)


def unnest(inner: list[str], depth: int) -> list[str]:
    """A container's lines with the list items in it read from their own content column,
    as CommonMark does, so that a fence in a nested item is seen as one."""
    if depth > MAX_NESTING:
        return inner
    out: list[str] = []
    fence = None
    may_start = True  # an item that cannot interrupt a paragraph may start here
    k = 0
    while k < len(inner):
        s = inner[k]
        marker = None if fence else list_marker(s)
        if marker and (marker[1] or may_start):
            nested = item(inner, k, marker[0], depth)
            out += nested
            k += len(nested)
            may_start = True  # the next item of the same list
            continue
        fence = track(fence, s)
        may_start = is_blank(s)
        out.append(s)
        k += 1
    return out


def scan(text: str) -> list[Block]:
    """The blocks of a Markdown text, in order."""
    return Scanner(text).scan()
