"""Markdown block scanner (mirrors ``rust/markdown_blocks.rs``).

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

import re
from typing import NamedTuple, Optional

HEADING, CODE, TABLE, LIST, QUOTE, HTML, PARAGRAPH, BREAK = (
    "heading", "code", "table", "list", "quote", "html", "paragraph", "break",
)  # fmt: skip

_BLOCK_NAMES = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|"
    "details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|"
    "h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|"
    "noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|"
    "thead|title|tr|track|ul"
)
_WS = "[ \\t\\x0b\\x0c]"
_ATTR = (
    f"(?:{_WS}+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:{_WS}*={_WS}*"
    "(?:[^\"'=<>`\\x00-\\x20]+|'[^']*'|\"[^\"]*\"))?)"
)
_TAG7 = f"^(?:<[A-Za-z][A-Za-z0-9-]*{_ATTR}*{_WS}*/?>|</[A-Za-z][A-Za-z0-9-]*{_WS}*>){_WS}*$"
# (start, end, can interrupt a paragraph); an end of None means "until a blank line".
# The patterns use the syntax Python's re and Rust's regex crate share, to mean the same.
HTML_KINDS: list[tuple[str, Optional[str], bool]] = [
    (
        "(?i)^<(?:script|pre|style|textarea)(?:[ \\t>]|$)",
        "(?i)</(?:script|pre|style|textarea)>",
        True,
    ),
    ("^<!--", "-->", True),
    ("^<\\?", "\\?>", True),
    ("^<![A-Za-z]", ">", True),
    ("^<!\\[CDATA\\[", "\\]\\]>", True),
    (f"(?i)^</?(?:{_BLOCK_NAMES})(?:[ \\t>]|/>|$)", None, True),
    (_TAG7, None, False),
]  # fmt: skip
_HTML = [(re.compile(a), b and re.compile(b), c) for a, b, c in HTML_KINDS]
_DELIM_CELL = re.compile("^:?-+:?$")


class Block(NamedTuple):
    """One block: what it is, where it is, and (headings) its level and title."""

    kind: str
    start: int
    end: int
    level: int = 0
    title: str = ""


def indent(s: str) -> tuple[int, int]:
    """``(columns, characters)`` of leading spaces and tabs (tabs to the next stop of 4)."""
    cols = n = 0
    for c in s:
        if c == " ":
            cols += 1
        elif c == "\t":
            cols += 4 - cols % 4
        else:
            break
        n += 1
    return cols, n


def is_blank(s: str) -> bool:
    return all(c in " \t" for c in s)


def fence_open(s: str) -> Optional[tuple[str, int]]:
    """``(char, length)`` of an opening code fence."""
    cols, n = indent(s)
    if cols > 3:
        return None
    rest = s[n:]
    ch = rest[:1]
    if ch not in ("`", "~"):
        return None
    run = len(rest) - len(rest.lstrip(ch))
    if run < 3 or (ch == "`" and "`" in rest[run:]):
        return None
    return ch, run


def fence_close(s: str, fence: tuple[str, int]) -> bool:
    cols, n = indent(s)
    rest = s[n:]
    run = len(rest) - len(rest.lstrip(fence[0]))
    return cols <= 3 and run >= fence[1] and is_blank(rest[run:])


def atx(s: str) -> Optional[tuple[int, str]]:
    """``(level, title)`` of an ATX heading, the title as CommonMark reads it."""
    cols, n = indent(s)
    if cols > 3:
        return None
    rest = s[n:]
    level = len(rest) - len(rest.lstrip("#"))
    if not 1 <= level <= 6 or (len(rest) > level and rest[level] not in " \t"):
        return None
    body = rest[level:].rstrip(" \t")
    hashes = len(body) - len(body.rstrip("#"))
    if hashes and (hashes == len(body) or body[-hashes - 1] in " \t"):
        body = body[:-hashes]
    return level, body.strip(" \t")


def thematic_break(s: str) -> bool:
    cols, n = indent(s)
    rest = s[n:].replace(" ", "").replace("\t", "")
    return cols <= 3 and len(rest) >= 3 and rest[0] in "-*_" and rest == rest[0] * len(rest)


def setext_level(s: str) -> int:
    """1 or 2 for a setext underline (``===`` or ``---``), else 0."""
    cols, n = indent(s)
    rest = s[n:].rstrip(" \t")
    if cols > 3 or not rest or rest[0] not in "=-" or rest != rest[0] * len(rest):
        return 0
    return 1 if rest[0] == "=" else 2


def quote_start(s: str) -> bool:
    cols, n = indent(s)
    return cols <= 3 and s[n:].startswith(">")


def list_marker(s: str) -> Optional[tuple[int, bool, bool]]:
    """``(content indent in columns, interrupts a paragraph, item is blank)``."""
    cols, n = indent(s)
    if cols > 3:
        return None
    rest = s[n:]
    if rest[:1] in ("-", "+", "*"):
        width, ordered_one = 1, True
    else:
        digits = len(rest) - len(rest.lstrip("0123456789"))
        if not 1 <= digits <= 9 or rest[digits : digits + 1] not in (".", ")"):
            return None
        width, ordered_one = digits + 1, int(rest[:digits]) == 1
    after = rest[width:]
    if after and after[0] not in " \t":
        return None
    blank = is_blank(after)
    spaces, _ = indent(after)  # columns are counted from the marker's end, near enough
    pad = 1 if blank or spaces > 4 else spaces
    return cols + width + pad, ordered_one and not blank, blank


def html_kind(s: str, in_paragraph: bool) -> int:
    """The CommonMark HTML block kind (0-6 here) starting on this line, or -1."""
    cols, n = indent(s)
    if cols > 3:
        return -1
    rest = s[n:]
    for k, (start, _end, interrupts) in enumerate(_HTML):
        if start.search(rest):
            return k if interrupts or not in_paragraph else -1
    return -1


def table_start(lines: list[str], i: int) -> bool:
    """Whether a GFM table (markdown-it's reading) starts at line ``i``."""
    if i + 1 >= len(lines) or indent(lines[i])[0] > 3 or indent(lines[i + 1])[0] > 3:
        return False
    delim = lines[i + 1].strip(" \t")
    if len(delim) < 2 or delim[0] not in "|-:" or (delim[1] not in "|-: \t"):
        return False
    if (delim[0] == "-" and delim[1] in " \t") or any(c not in "|-: \t" for c in delim):
        return False
    cells = delim.split("|")
    aligns = 0
    for k, cell in enumerate(cells):
        cell = cell.strip(" \t")
        if not cell:
            if k in (0, len(cells) - 1):
                continue
            return False
        if not _DELIM_CELL.match(cell):
            return False
        aligns += 1
    header = lines[i].strip(" \t")
    if "|" not in header:
        return False
    columns = re.split(r"(?<!\\)\|", header)
    if columns and columns[0] == "":
        columns.pop(0)
    if columns and columns[-1] == "":
        columns.pop()
    return 0 < len(columns) == aligns


def interrupts(lines: list[str], j: int) -> bool:
    """Whether line ``j`` starts a block that ends a paragraph (or lazy continuation)."""
    s = lines[j]
    if indent(s)[0] > 3:
        return False
    marker = list_marker(s)
    return (
        atx(s) is not None
        or fence_open(s) is not None
        or thematic_break(s)
        or quote_start(s)
        or (marker is not None and marker[1])
        or html_kind(s, True) >= 0
        or table_start(lines, j)
    )


def split_lines(text: str) -> tuple[list[str], list[int]]:
    """Lines without their ``\\n`` (or ``\\r\\n``), and each line's start offset."""
    lines, starts = [], []
    pos = 0
    for raw in text.split("\n"):
        starts.append(pos)
        pos += len(raw) + 1
        lines.append(raw[:-1] if raw.endswith("\r") else raw)
    return lines, starts


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
        end = _HTML[kind][1]
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
