"""reStructuredText block scanner (mirrors ``rust/structure/rst.rs``, which says what it
reads): titles and transitions, literal blocks after ``::``, directives (code, tables,
containers of head and body, labels), grid and simple tables, doctest blocks, list, field,
definition and footnote items, block quotes, line blocks, paragraphs.
"""

from __future__ import annotations

from typing import Optional

from ..markdown.lines import BREAK, CODE, HEADING, LABEL, LIST, PARAGRAPH, QUOTE, TABLE, Block
from .lines import Out, Region, adornment, grid_border, grid_table, list_marker, table

CODE_DIRECTIVES = frozenset(
    "code code-block sourcecode literalinclude highlight math doctest testcode testoutput "
    "testsetup testcleanup raw parsed-literal productionlist graphviz graph digraph plantuml "
    "uml mermaid ipython jupyter-execute code-cell prompt".split()
)
TABLE_DIRECTIVES = frozenset(("table", "csv-table", "list-table"))
# Bodyless directives that set up what follows (glued to it); other bodyless ones are content.
LABEL_DIRECTIVES = frozenset(
    "index rubric module currentmodule py:module py:currentmodule default-role default-domain "
    "sectionauthor moduleauthor tabularcolumns".split()
)
# Directives whose head is body text: a head ending with "::" introduces a literal block.
TEXT_DIRECTIVES = frozenset(
    "note warning tip hint important caution danger error attention admonition seealso "
    "versionadded versionchanged deprecated todo".split()
)
_NAME = frozenset("-_:+.")


def scan(text: str) -> list[Block]:
    """The blocks of a reStructuredText text, in order."""
    scanner = Scanner()
    scanner.region(Region.of(text), True)
    return scanner.out.blocks


def indented_end(r: Region, i: int) -> int:
    """The last non-blank line of the run from ``i`` of blank or indented lines."""
    last, j = i - 1, i
    while j < len(r) and (r.blank(j) or r.cols(j) > 0):
        if not r.blank(j):
            last = j
        j += 1
    return last


def literal_after_head(r: Region, first: int, head: int, last: int) -> Optional[tuple[int, int]]:
    """The literal block an admonition's head ending with ``::`` opens (first, last line);
    the directive's own ``::`` (``.. note::``) opens none."""
    t = r.lines[head].rstrip()
    if not t.endswith("::") or (head == first and t.count("::") < 2):
        return None
    base = r.cols(head)
    code = next((j for j in range(head + 1, last + 1) if not r.blank(j)), None)
    if code is None:
        return None
    end = None
    for j in range(code, last + 1):
        if r.blank(j):
            continue
        if r.cols(j) <= base:
            break
        end = j
    return None if end is None else (code, end)


def margin(r: Region, first: int, last: int) -> int:
    cols = [r.cols(j) for j in range(first, last + 1) if not r.blank(j)]
    return min(cols) if cols else 0


def directive(s: str) -> Optional[str]:
    """The (lowercase) directive name of ``.. name:: args``."""
    if not s.startswith(".. "):
        return None
    rest = s[3:].lstrip(" ")
    n = 0
    while n < len(rest) and ((rest[n].isascii() and rest[n].isalnum()) or rest[n] in _NAME):
        n += 1
    name = rest[:n].rstrip(":")
    after = rest[len(name) :]
    if not after.startswith("::"):
        return None
    after = after[2:]
    if name and (after == "" or after.startswith((" ", "\t"))):
        return name.lower()
    return None


def field_marker(s: str) -> Optional[int]:
    """Characters of a field marker ``:name:`` and the spaces after it."""
    if not s.startswith(":"):
        return None
    rest = s[1:]
    if rest.startswith((" ", "\t", ":")):
        return None
    close = rest.find(":")
    if close <= 0:
        return None
    name, after = rest[:close], rest[close + 1 :]
    if name.endswith((" ", "\t")) or "`" in name:
        return None
    if not (after == "" or after.startswith((" ", "\t"))):
        return None
    return 1 + close + 1 + len(after) - len(after.lstrip(" \t"))


def simple_border(s: str) -> bool:
    t = s.rstrip(" \t")
    return (
        t.startswith("=") and all(c in "= " for c in t) and len([w for w in t.split(" ") if w]) >= 2
    )


def simple_table(r: Region, i: int) -> Optional[tuple[int, Optional[int]]]:
    head = None
    for j in range(i + 1, len(r)):
        if simple_border(r.lines[j]):
            if r.blank(j + 1):
                return j, head
            if head is None:
                head = j
    return None


class Scanner:
    def __init__(self) -> None:
        self.out = Out()
        self.styles: list[tuple[str, bool]] = []

    def region(self, r: Region, top: bool) -> None:
        i = 0
        while i < len(r):
            i = i + 1 if r.blank(i) else self.block(r, i, top)

    def block(self, r: Region, i: int, top: bool) -> int:
        s = r.lines[i]
        if r.cols(i) > 0:
            return self.container(r, QUOTE, i, indented_end(r, i), None)
        nxt = self.title(r, i, top)
        if nxt is not None:
            return nxt
        if grid_border(s):
            last, head = grid_table(r, i)
            table(self.out, r, i, last, head)
            return last + 1
        if simple_border(s):
            found = simple_table(r, i)
            if found is not None:
                table(self.out, r, i, found[0], found[1])
                return found[0] + 1
        if s == ".." or s.startswith(".. "):
            return self.explicit(r, i)
        if s.startswith("__ "):  # an anonymous link definition: content
            last = max(indented_end(r, i + 1), i)
            self.out.add(r, PARAGRAPH, i, last)
            return last + 1
        if s.startswith(">>>"):
            return self.until_blank(r, i, CODE)
        if s == "|" or s.startswith("| "):
            return self.until_blank(r, i, PARAGRAPH)
        marker = list_marker(s)
        if marker is not None:
            return self.item(r, i, marker[1])
        field = field_marker(s)
        if field is not None:
            return self.item(r, i, field)
        return self.paragraph(r, i)

    def until_blank(self, r: Region, i: int, kind: str) -> int:
        j = i
        while not r.blank(j + 1):
            j += 1
        self.out.add(r, kind, i, j)
        return j + 1

    def title(self, r: Region, i: int, top: bool) -> Optional[int]:
        s = r.lines[i]
        adorned = adornment(s)
        if adorned is not None:
            c, n = adorned
            over = (
                top
                and not r.blank(i + 1)
                and adornment(r.lines[i + 1]) is None
                and i + 2 < len(r)
                and adornment(r.lines[i + 2]) == (c, n)
                and len(r.lines[i + 1].strip()) <= n
            )
            if over:
                self.heading(r, i, i + 2, (c, True), r.lines[i + 1])
                return i + 3
            if n >= 4 and r.blank(i + 1):
                self.out.add(r, BREAK, i, i)
                return i + 1
            return None
        if i + 1 >= len(r):
            return None
        under = adornment(r.lines[i + 1])
        if under is None:
            return None
        c, n = under
        width = len(s.rstrip())
        if not top or r.cols(i + 1) > 0 or (n < width and n < 4):
            return None
        self.heading(r, i, i + 1, (c, False), s)
        return i + 2

    def heading(
        self, r: Region, first: int, last: int, style: tuple[str, bool], title: str
    ) -> None:
        if style not in self.styles:
            self.styles.append(style)
        level = self.styles.index(style) + 1
        self.out.add(r, HEADING, first, last, level, title.strip())

    def explicit(self, r: Region, i: int) -> int:
        last = max(indented_end(r, i + 1), i)
        s = r.lines[i]
        name = directive(s)
        if name is None:
            # A footnote is an item; an internal target (``.. _name:``) belongs to what
            # follows; link definitions, substitutions and comments are content.
            internal = s.startswith(".. _") and last == i and s.rstrip().endswith(":")
            kind = LIST if s.startswith(".. [") else LABEL if internal else PARAGRAPH
            self.out.add(r, kind, i, last)
            return last + 1
        if name in CODE_DIRECTIVES:
            self.out.add(r, CODE, i, last)
        elif name in TABLE_DIRECTIVES and name != "list-table":
            self.out.add(r, TABLE, i, last)
        else:
            head = i
            while head < last and not r.blank(head + 1):
                head += 1
            if head == last:
                options = all(r.lines[j].lstrip().startswith(":") for j in range(i + 1, last + 1))
                kind = LABEL if options and name in LABEL_DIRECTIVES else QUOTE
                self.out.add(r, kind, i, last)
            else:
                # A list table is a container of its rows (literal blocks in cells stay whole).
                self.container(r, TABLE if name == "list-table" else QUOTE, i, last, head)
        return last + 1

    def container(self, r: Region, kind: str, first: int, last: int, head: Optional[int]) -> int:
        k = self.out.add(r, kind, first, last)
        if k is None:
            return last + 1
        start = first
        if head is not None:
            self.out.add(r, LABEL, first, head)
            start = head + 1
            text = directive(r.lines[first]) in TEXT_DIRECTIVES
            literal = literal_after_head(r, first, head, last) if text else None
            if literal is not None:
                self.out.add(r, CODE, literal[0], literal[1])
                start = literal[1] + 1
        if start <= last:
            self.region(r.body(start, last, margin(r, start, last), 0), False)
        self.out.close(k)
        return last + 1

    def item(self, r: Region, i: int, skip: int) -> int:
        last = max(indented_end(r, i + 1), i)
        k = self.out.add(r, LIST, i, last)
        if k is None:
            return last + 1
        cols = margin(r, i + 1, last) if last > i else 0
        self.region(r.body(i, last, cols, skip), False)
        self.out.close(k)
        return last + 1

    def paragraph(self, r: Region, i: int) -> int:
        j = i
        while not r.blank(j + 1) and r.cols(j + 1) == 0:
            j += 1
        if not r.blank(j + 1):  # a definition list item: its terms, then the definition
            last = indented_end(r, j + 1)
            k = self.out.add(r, LIST, i, last)
            if k is None:
                return last + 1
            self.out.add(r, LABEL, i, j)
            self.region(r.body(j + 1, last, margin(r, j + 1, last), 0), False)
            self.out.close(k)
            return last + 1
        self.out.add(r, PARAGRAPH, i, j)
        if r.lines[j].rstrip().endswith("::"):
            k = j + 1
            while k < len(r) and r.blank(k):
                k += 1
            if k > j + 1 and k < len(r) and r.cols(k) > 0:
                last = indented_end(r, k)
                self.out.add(r, CODE, k, last)
                return last + 1
        return j + 1
