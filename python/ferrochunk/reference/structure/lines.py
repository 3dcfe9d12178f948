"""What the reStructuredText, AsciiDoc and plain-text scanners share (mirrors
``rust/structure/lines.rs``): regions of lines (nested bodies dedented, with each line's
start offset so spans stay exact) and the emitter that turns line ranges into blocks,
containers and their parts included.
"""

from __future__ import annotations

import string
from typing import Optional

from ..markdown.lines import TABLE, Block, indent, is_blank, split_lines

_PUNCT = frozenset(string.punctuation)


class Region:
    """Lines of the source (or of a nested body), each with its start offset."""

    def __init__(self, lines: list[str], starts: list[int]) -> None:
        self.lines = lines
        self.starts = starts

    @classmethod
    def of(cls, text: str) -> Region:
        return cls(*split_lines(text))

    def __len__(self) -> int:
        return len(self.lines)

    def blank(self, i: int) -> bool:
        """Whether line ``i`` is blank; past the end counts as blank."""
        return i >= len(self.lines) or is_blank(self.lines[i])

    def cols(self, i: int) -> int:
        return indent(self.lines[i])[0]

    def body(self, first: int, last: int, cols: int, skip: int) -> Region:
        """Lines ``first..=last`` without their first ``cols`` columns (all of their
        indentation when less), line ``first`` also without its first ``skip`` characters."""
        lines, starts = [], []
        for i in range(first, last + 1):
            s = self.lines[i]
            cut = skip if i == first and skip > 0 else _dedent(s, cols)
            lines.append(s[cut:])
            starts.append(self.starts[i] + cut)
        return Region(lines, starts)


def _dedent(s: str, cols: int) -> int:
    col = n = 0
    for c in s:
        if col >= cols or c not in " \t":
            break
        col += 4 - col % 4 if c == "\t" else 1
        n += 1
    return n


class Out:
    """The blocks found so far, in order (a container before its parts)."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []

    def add(
        self, r: Region, kind: str, first: int, last: int, level: int = 0, title: str = ""
    ) -> Optional[int]:
        """Lines ``first..=last`` as a block, from the first non-blank character to the end
        of the last non-blank line; its index (``None`` if all blank)."""
        last = min(last, len(r) - 1)
        while first < last and r.blank(first):
            first += 1
        while last > first and r.blank(last):
            last -= 1
        start = r.starts[first] + indent(r.lines[first])[1]
        end = r.starts[last] + len(r.lines[last].rstrip())
        if end <= start:
            return None
        self.blocks.append(Block(kind, start, end, level, title))
        return len(self.blocks) - 1

    def close(self, k: int) -> None:
        """Every block added since container ``k`` is a part of it; the first part starts
        and the last ends where it does; with one part, that part stands for it."""
        blocks = self.blocks
        parts = len(blocks) - k - 1
        start, end = blocks[k].start, blocks[k].end
        if parts == 0:
            return
        j = k + 1
        while True:
            blocks[j] = blocks[j]._replace(start=start)
            if blocks[j].parts == 0:
                break
            j += 1
        last = len(blocks) - 1
        for j in range(k + 1, last + 1):
            if j + blocks[j].parts == last:
                blocks[j] = blocks[j]._replace(end=end)
        if parts == 1:
            del blocks[k]
        else:
            blocks[k] = blocks[k]._replace(parts=parts)


def adornment(s: str) -> Optional[tuple[str, int]]:
    """``(character, run)`` when ``s`` is one ASCII punctuation character repeated."""
    t = s.rstrip(" \t")
    if not t or t[0] not in _PUNCT or t.count(t[0]) != len(t):
        return None
    return t[0], len(t)


def grid_border(s: str) -> bool:
    """``+`` then runs of ``-`` or ``=`` separated by ``+``, ending with ``+``."""
    t = s.rstrip(" \t")
    return (
        len(t) >= 3
        and t[0] == "+"
        and t[-1] == "+"
        and t[1] in "-="
        and all(c in "+-=:" for c in t)
    )


def grid_table(r: Region, i: int) -> tuple[int, Optional[int]]:
    """``(last line, header's last line)`` of a grid table whose top border is line ``i``."""
    j, head = i, None
    while j + 1 < len(r):
        nxt = r.lines[j + 1].lstrip(" \t")
        if not (nxt.startswith("+") or nxt.startswith("|")):
            break
        j += 1
        if head is None and grid_border(nxt) and nxt[1] == "=":
            head = j
    while j > i and not grid_border(r.lines[j].lstrip(" \t")):
        j -= 1
    return j, head if head is not None and head < j else None


def table(out: Out, r: Region, first: int, last: int, head: Optional[int]) -> None:
    k = out.add(r, TABLE, first, last)
    if k is not None and head is not None:
        end = r.starts[head] + len(r.lines[head].rstrip())
        out.blocks[k] = out.blocks[k]._replace(head=end)


def list_marker(s: str) -> Optional[tuple[int, int]]:
    """``(columns of the text after the marker, marker characters with the spaces)`` of a
    bullet or enumerator followed by a space at the start of ``s``."""
    marker = 0
    for bullet in ("-", "*", "+", "\u2022", "\u2023", "\u2043"):
        if s.startswith(bullet):
            marker = len(bullet)
    if marker == 0:
        marker = _enumerator(s) or 0
        if marker == 0:
            return None
    rest = s[marker:]
    if not rest.startswith((" ", "\t")) or is_blank(rest):
        return None
    pad = indent(rest)
    return marker + pad[0], marker + pad[1]


def _enumerator(s: str) -> Optional[int]:
    opened = 1 if s.startswith("(") else 0
    body = 0
    while opened + body < len(s) and (_alnum(s[opened + body]) or s[opened + body] == "#"):
        body += 1
    word = s[opened : opened + body]
    if body == 0:
        ok = False
    elif body == 1:
        ok = True
    else:
        ok = (
            all(c.isascii() and c.isdigit() for c in word)
            or all(c in "ivxlcdm" for c in word)
            or all(c in "IVXLCDM" for c in word)
        )
    if not ok or (body > 1 and (len(word) > 9 or "#" in word)):
        return None
    if opened + body >= len(s):
        return None
    close = s[opened + body]
    fits = close == ")" if opened else close in ".)"
    return opened + body + 1 if fits else None


def _alnum(c: str) -> bool:
    return c.isascii() and c.isalnum()
