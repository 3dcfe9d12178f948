"""Plain-text block scanner (mirrors ``rust/structure/plain.rs``): paragraphs, list items
as seams, underlined titles (levels in the order underline characters are first seen),
grid tables.
"""

from __future__ import annotations

from ..markdown.lines import HEADING, LIST, PARAGRAPH, Block
from .lines import Out, Region, adornment, grid_border, grid_table, list_marker, table


def scan(text: str) -> list[Block]:
    """The blocks of a plain text, in order."""
    r = Region.of(text)
    out = Out()
    styles: list[str] = []
    i = 0
    while i < len(r):
        i = i + 1 if r.blank(i) else block(out, r, i, styles)
    return out.blocks


def block(out: Out, r: Region, i: int, styles: list[str]) -> int:
    s = r.lines[i].lstrip(" \t")
    if grid_border(s):
        last, head = grid_table(r, i)
        table(out, r, i, last, head)
        return last + 1
    under = adornment(r.lines[i + 1].lstrip(" \t")) if i + 1 < len(r) else None
    if under is not None:
        c, n = under
        width = len(s.rstrip())
        if n >= 3 and n + 2 >= width and adornment(s) is None and list_marker(s) is None:
            if c not in styles:
                styles.append(c)
            out.add(r, HEADING, i, i + 1, styles.index(c) + 1, s.strip())
            return i + 2
    kind = LIST if list_marker(s) is not None else PARAGRAPH
    j = i
    while not r.blank(j + 1) and list_marker(r.lines[j + 1].lstrip(" \t")) is None:
        j += 1
    out.add(r, kind, i, j)
    return j + 1
