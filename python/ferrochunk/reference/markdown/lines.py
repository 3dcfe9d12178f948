"""Line predicates of the Markdown block scanner (mirrors the line functions of
``rust/markdown/blocks.rs``): what a single line (or a line and its neighbours) opens,
closes or interrupts. :mod:`.blocks` walks the lines with them.
"""

from __future__ import annotations

import re
from typing import NamedTuple, Optional

HEADING, CODE, TABLE, LIST, QUOTE, HTML, PARAGRAPH, BREAK = (
    "heading", "code", "table", "list", "quote", "html", "paragraph", "break",
)  # fmt: skip
# A line glued to what follows it (an RST directive head, an AsciiDoc block title); the
# Markdown scanner makes none (rust/markdown/blocks.rs, Kind::Label).
LABEL = "label"

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
HTML_RES = [(re.compile(a), re.compile(b) if b else None, c) for a, b, c in HTML_KINDS]
_DELIM_CELL = re.compile("^:?-+:?$")
# A CommonMark link reference definition on one line (of a paragraph: any indent): label
# (not blank, brackets escaped), destination (<...>, or no spaces nor controls), then
# maybe a title after a space.
_LINK_DEFINITION = re.compile(
    r"^[ \t]*\[[ \t]*(?:[^\\\[\] \t]|\\.)(?:[^\\\[\]]|\\.)*\]:[ \t]*"
    r"(?:<(?:[^<>\\]|\\.)*>|[^< \t\x00-\x1f\x7f][^ \t\x00-\x1f\x7f]*)"
    r"""(?:[ \t]+(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?[ \t]*$"""
)


class Block(NamedTuple):
    """One block: what it is, where it is, and (headings) its level and title."""

    kind: str
    start: int
    end: int
    level: int = 0
    title: str = ""
    parts: int = 0  # a container: how many of the blocks right after it lie inside it
    head: int = 0  # a table whose header the scanner knows: the end of its header rows


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


def link_definition(s: str) -> bool:
    """Whether the line is a whole link reference definition (``[label]: url "title"``)."""
    return _LINK_DEFINITION.match(s) is not None


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
    for k, (start, _end, interrupts) in enumerate(HTML_RES):
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
