"""AsciiDoc block scanner (mirrors ``rust/structure/asciidoc.rs``, which says what it
reads): titles, delimited blocks (code, tables, containers), labels (block titles,
attribute lines, attribute entries, comments), list and description-list items, literal
paragraphs, breaks, paragraphs.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..markdown.lines import BREAK, CODE, HEADING, LABEL, LIST, PARAGRAPH, QUOTE, Block
from .lines import _PUNCT, Out, Region, adornment, table

_CODE, _TABLE, _CONTAINER = "code", "table", "container"


def scan(text: str) -> list[Block]:
    """The blocks of an AsciiDoc text, in order."""
    out = Out()
    region(out, Region.of(text), True)
    return out.blocks


def conditional(s: str) -> bool:
    """Whether a line opens a preprocessor conditional (``ifdef::x[]`` ...)."""
    t = s.rstrip()
    for head in ("ifdef::", "ifndef::"):
        if t.startswith(head):
            rest = t[len(head) :]
            if rest.endswith("[]") and not any(c.isspace() for c in rest):
                return True
    return t.startswith("ifeval::[") and t.endswith("]")


def title_at(r: Region, i: int) -> bool:
    """Whether line ``i`` of ``r`` starts a section title."""
    if i >= len(r):
        return False
    s = r.lines[i]
    two = i + 1 < len(r) and two_line_level(s, r.lines[i + 1]) is not None
    return one_line_title(s) is not None or two


def delimiter(s: str) -> Optional[str]:
    t = s.rstrip(" \t")
    if t == "--":
        return _CONTAINER
    if t.startswith("```"):
        return _CODE
    if len(t) >= 4 and t[0] in "|,:!" and all(c == "=" for c in t[1:]):
        return _TABLE
    adorned = adornment(t)
    if adorned is None or adorned[1] < 4:
        return None
    if adorned[0] in "-.+/":
        return _CODE
    if adorned[0] in "=*_":
        return _CONTAINER
    return None


def one_line_title(s: str) -> Optional[tuple[int, str]]:
    if not s or s[0] not in "=#":
        return None
    c = s[0]
    level = len(s) - len(s.lstrip(c))
    rest = s[level:]
    if level > 6 or not rest.startswith((" ", "\t")) or not rest.strip():
        return None
    return level, rest.strip().rstrip(c).rstrip()


def two_line_level(s: str, u: str) -> Optional[int]:
    adorned = adornment(u)
    if adorned is None or adorned[0] not in "=-~^+":
        return None
    c, n = adorned
    width = len(s.rstrip())
    starts_block = s.startswith((".", "[", "/", ":", "*", "-", "<", " ", "\t", "|"))
    wordy = any(not c.isspace() and c not in _PUNCT for c in s)  # `+` over `--` is no title
    if n >= 3 and wordy and abs(width - n) <= 2 and not starts_block and delimiter(s) is None:
        return "=-~^+".index(c) + 1
    return None


def label(s: str) -> bool:
    t = s.rstrip()
    title = len(t) > 1 and t.startswith(".") and not t[1:].startswith((".", " ", "\t"))
    attrs = t.startswith("[") and t.endswith("]")
    return title or attrs or attribute_entry(t)


def attribute_entry(s: str) -> bool:
    if not s.startswith(":"):
        return False
    rest = s[1:]
    name = 0
    while name < len(rest) and (
        (rest[name].isascii() and rest[name].isalnum()) or rest[name] in "_-!"
    ):
        name += 1
    after = rest[name:]
    return (
        name > 0
        and after.startswith(":")
        and (len(after) == 1 or after[1:].startswith((" ", "\t")))
    )


def item_start(s: str) -> bool:
    if not s:
        return False
    c = s[0]
    if c in "*.":
        marker = min(len(s) - len(s.lstrip(c)), 6)
    elif c == "-":
        marker = 1
    elif c == "<":
        marker = s.find(">") + 1
    else:
        k = 0
        while k < len(s) and s[k].isascii() and s[k].isalnum():
            k += 1
        num = k > 0 and (k == 1 or all(x.isdigit() for x in s[:k]))
        marker = k + 1 if num and s[k : k + 1] == "." else 0
    bullet = (
        marker > 0
        and s[marker:].startswith((" ", "\t"))
        and bool(s[marker:].strip())
        and (c != "<" or all(x.isdigit() or x == "." for x in s[1 : marker - 1]))
    )
    return bullet or description_term(s)


def description_term(s: str) -> bool:
    for mark in ("::::", ":::", "::", ";;"):
        k = s.find(mark)
        if k >= 0:
            after, term = s[k + len(mark) :], s[:k]
            if (
                term.strip()
                and not term.endswith((":", ";"))
                and (after == "" or after.startswith((" ", "\t")))
            ):
                return True
    return False


def region(out: Out, r: Region, top: bool) -> None:
    i = 0
    while i < len(r):
        i = i + 1 if r.blank(i) else block(out, r, i, top)


def block(out: Out, r: Region, i: int, top: bool) -> int:
    s = r.lines[i]
    kind = delimiter(s)
    if kind is not None:
        return delimited(out, r, i, kind)
    if s.startswith("//"):
        j = i
        while (
            j + 1 < len(r) and r.lines[j + 1].startswith("//") and delimiter(r.lines[j + 1]) is None
        ):
            j += 1
        out.add(r, LABEL, i, j)
        return j + 1
    if top and conditional(s) and title_at(r, i + 1):
        out.add(r, LABEL, i, i)  # a title follows: read it as one
        return i + 1
    if top:
        titled = one_line_title(s)
        if titled is not None:
            out.add(r, HEADING, i, i, titled[0], titled[1])
            return i + 1
        level = two_line_level(s, r.lines[i + 1]) if i + 1 < len(r) else None
        if level is not None:
            out.add(r, HEADING, i, i + 1, level, s.strip())
            return i + 2
    if label(s):
        out.add(r, LABEL, i, i)
        return i + 1
    if s.rstrip() in ("'''", "<<<"):
        out.add(r, BREAK, i, i)
        return i + 1
    if r.cols(i) > 0:
        return until(out, r, i, CODE, lambda _: False)
    if s.rstrip() == "+":
        out.add(r, LABEL, i, i)  # a list continuation: what follows belongs to the item
        return i + 1
    if description_term(s) and i + 1 < len(r) and description_term(r.lines[i + 1]):
        out.add(r, LABEL, i, i)  # one of several terms sharing the body below them
        return i + 1
    if item_start(s):
        return until(out, r, i, LIST, lambda line: item_start(line) or line.rstrip() == "+")
    return until(out, r, i, PARAGRAPH, lambda _: False)


def until(out: Out, r: Region, i: int, kind: str, stop: Callable[[str], bool]) -> int:
    j = i
    while not r.blank(j + 1) and delimiter(r.lines[j + 1]) is None and not stop(r.lines[j + 1]):
        j += 1
    out.add(r, kind, i, j)
    return j + 1


def delimited(out: Out, r: Region, i: int, kind: str) -> int:
    opening = r.lines[i].rstrip(" \t")
    fence = opening.startswith("```")

    def closes(line: str) -> bool:
        line = line.rstrip(" \t")
        return line == "```" if fence else line == opening

    close = next((j for j in range(i + 1, len(r)) if closes(r.lines[j])), len(r) - 1)
    if kind == _CODE:
        out.add(r, CODE, i, close)
    elif kind == _TABLE:
        head = i + 1 if i + 2 < close and not r.blank(i + 1) and r.blank(i + 2) else None
        table(out, r, i, close, head)
    else:
        k = out.add(r, QUOTE, i, close)
        if k is not None:
            out.add(r, LABEL, i, i)
            if close > i + 1:
                region(out, r.body(i + 1, close - 1, 0, 0), False)
            out.close(k)
    return close + 1
