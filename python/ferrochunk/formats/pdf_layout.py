"""PDF lines to a Markdown rendition: lines joined into paragraphs, headings found by font
size and weight.

- **Furniture** (running headers, footers, page numbers): :mod:`.pdf_furniture`.
- **Headings**: larger or bold lines (:class:`Headings`); heading lines in a row with one
  style join.
- **Paragraphs**: lines join (with a space; a word hyphenated at a line end joined whole)
  until a gap wider than the body's line pitch, a change of size, an indented first line,
  a bullet, or a short line ending a sentence. At a page or column break the paragraph goes
  on unless its text ended a sentence, so one cut by a page break is one paragraph.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from statistics import median

from .pdf_lines import Line
from .rendition import Rendition, escape_block_start

_BULLET = re.compile(
    r"^[\u2022\u25e6\u25aa\u2023\u25cf\u25cb\u25a0\u25a1\u25b8\u25ba\u2013\u2014*]\s"
)
_LEADERS = re.compile(r"(\.\s?){4}")
_SENTENCE_END = re.compile(r"[.!?:;][\"'\u201d\u2019)\]]*$")


CODE = -1  # the level of a code block


@dataclass
class Block:
    """A heading (``level`` > 0), a paragraph (0) or a code block (:data:`CODE`)."""

    level: int
    lines: list[Line] = field(default_factory=list)
    size: float = 0.0
    margins: Margins | None = None  # for code: the column each line is in

    def add(self, line: Line) -> None:
        self.lines.append(line)

    def pieces(self) -> list[tuple[int, str]]:
        """``(page, text)``: the block's text in pieces, each from one page; code lines
        keep their indentation (in character widths) and their blank lines."""
        if self.level == CODE:
            return self._code()
        out: list[tuple[int, str]] = []
        for line in self.lines:
            if out and _hyphenated(out[-1][1], line.text):
                out[-1] = (out[-1][0], out[-1][1][:-1])  # the word joins whole
                out.append((line.page, line.text))
            else:
                out.append((line.page, (" " if out else "") + line.text))
        return out

    def _code(self) -> list[tuple[int, str]]:
        widths = sorted((ln.x1 - ln.x0) / len(ln.text) for ln in self.lines if len(ln.text) > 3)
        unit = widths[len(widths) // 2] if widths else 0.6 * self.size  # a character's width
        column = self.margins.left if self.margins else (lambda line: 0.0)
        base = min(ln.x0 - column(ln) for ln in self.lines)  # from the left of its column
        out: list[tuple[int, str]] = []
        for before, line in zip([None, *self.lines], self.lines):
            gap = ""
            if before is not None and before.page == line.page:
                blank = round((before.bottom - line.first_bottom) / (line.size * 1.2)) - 1
                gap = "\n" * max(0, min(blank, 2))
            offset = line.x0 - column(line) - base
            indent = " " * max(0, round(offset / unit)) if unit > 0 else ""
            out.append((line.page, ("\n" if out else "") + gap + indent + line.text))
        return out


def _hyphenated(before: str, after: str) -> bool:
    return (
        len(before) > 1 and before[-1] in "-\xad" and before[-2].isalpha() and after[:1].islower()
    )


def body_size(lines: Iterable[Line]) -> float:
    """The font size most characters not in code have."""
    sizes: Counter[float] = Counter()
    for line in lines:
        if not line.mono:  # code is often set smaller
            sizes[round(line.size * 2) / 2] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


class Headings:
    """Which lines are headings, and at which level.

    A heading is a line of at most 200 characters with three letters or more, no dot
    leaders (a table of contents), at the left edge of its column or centred, whose font
    is 1.3 times the body size or more, or bold and 1.15 times (LaTeX sets 12-point bold
    subsections, and a title page's 12-point names, over a 10-point body), or bold at body
    size (not ending in ``.,;``) when the body is not bold; not a table of contents' entry
    (its last word a number above its own page's). Its style (size, bold) gives its
    level: the styles that head two lines or more, larger first and bold before regular,
    take levels 1, 2, ...; a style seen once (a title page's) takes the level of the next
    frequent style no larger.
    """

    def __init__(self, lines: list[Line], body: float, margins: Margins) -> None:
        bold = Counter(line.bold for line in lines if abs(line.size - body) < 0.6)
        self.body, self.body_bold, self.margins = (
            body,
            bool(bold) and bold.most_common(1)[0][0],
            margins,
        )
        styles = Counter(_style(line) for line in lines if self._candidate(line))
        self.levels = _levels(styles)

    def level(self, line: Line) -> int:
        return self.levels.get(_style(line), 0) if self._candidate(line) else 0

    def _candidate(self, line: Line) -> bool:
        text, body = line.text, self.body
        if not (  # the style first: it rules out the body's lines at once
            line.size >= body * 1.3
            or (line.bold and line.size >= body * 1.15)
            or (
                line.bold
                and not self.body_bold
                and abs(line.size - body) < 0.6
                and text[-1] not in ".,;"
            )
        ):
            return False
        if len(text) > 200 or sum(c.isalpha() for c in text) < 3 or _LEADERS.search(text):
            return False
        last = text.rsplit(" ", 1)[-1]
        if last.isdigit() and int(last) > line.page + 2:  # a contents entry: "Intro 21"
            return False
        left = line.x0 - self.margins.left(line) <= 2 * body
        centred = abs((line.x0 + line.x1) - line.page_width) <= 4 * body
        return left or centred


def _style(line: Line) -> tuple[float, bool]:
    return round(line.size * 2) / 2, line.bold


def _levels(styles: Counter[tuple[float, bool]]) -> dict[tuple[float, bool], int]:
    def rank(style: tuple[float, bool]) -> tuple[float, bool]:
        return -style[0], not style[1]

    frequent = sorted((s for s, n in styles.items() if n >= 2), key=rank) or sorted(
        styles, key=rank
    )
    levels = {style: min(6, level) for level, style in enumerate(frequent, 1)}
    for style in styles:
        if style not in levels:
            below = [levels[f] for f in frequent if rank(f) >= rank(style)]
            levels[style] = below[0] if below else min(6, len(frequent) + 1)
    return levels


class Margins:
    """The left edges of a page's columns: the places where two or more of its body lines
    start, but those within five em of one to their left (indented first lines, list
    items); one for a page of one column, two for a paper's two."""

    def __init__(self, pages: list[list[Line]], body: float) -> None:
        self.edges: dict[int, list[float]] = {}
        for number, lines in enumerate(pages):
            starts = Counter(round(ln.x0) for ln in lines if abs(ln.size - body) < 0.6)
            edges: list[float] = []
            for x in sorted(x for x, n in starts.items() if n >= 2):
                if not edges or x - edges[-1] > 5 * body:  # not an indent: a column
                    edges.append(x)
            self.edges[number] = edges or [float(x) for x in sorted(starts)[:1]] or [0.0]

    def left(self, line: Line) -> float:
        """The left edge of the column ``line`` is in."""
        edges = self.edges.get(line.page) or [line.x0]
        return max((x for x in edges if x <= line.x0 + 2), default=edges[0])


def paragraphs(pages: list[list[Line]]) -> list[Block]:
    """Headings and paragraphs, in order."""
    lines = [line for page in pages for line in page]
    body = body_size(lines)
    pitch = _body_pitch(lines, body)
    margins = Margins(pages, body)
    headings = Headings(lines, body, margins)
    lengths = sorted(len(line.text) for line in lines if abs(line.size - body) < 0.6)
    width = lengths[len(lengths) * 3 // 4] if lengths else 0  # a full line's length
    blocks: list[Block] = []
    previous: Line | None = None
    for line in lines:
        level = CODE if line.mono else headings.level(line)
        if not blocks or _starts_block(previous, line, level, blocks[-1], pitch, margins, width):
            blocks.append(Block(level, size=line.size, margins=margins))
        blocks[-1].add(line)
        previous = line
    return blocks


def _body_pitch(lines: list[Line], body: float) -> float:
    pitches = [
        a.bottom - b.first_bottom
        for a, b in pairwise(lines)
        if a.page == b.page
        and abs(a.size - body) < 0.6
        and abs(b.size - body) < 0.6
        and 0 < a.bottom - b.first_bottom < 3 * body
    ]
    return median(pitches) if pitches else 1.5 * body


def _starts_block(
    prev: Line | None,
    line: Line,
    level: int,
    block: Block,
    pitch: float,
    margins: Margins,
    width: int,
) -> bool:
    if prev is None or level != block.level or abs(line.size - block.size) >= 0.6:
        return True
    if level == CODE:  # code goes on over blank lines and page breaks
        return prev.page == line.page and prev.bottom - line.first_bottom > 4 * line.size
    if level:  # a heading goes on over lines of one style set close together, to 200
        if sum(len(ln.text) + 1 for ln in block.lines) + len(line.text) > 200:
            return True
        return (
            not 0 < prev.bottom - line.first_bottom < 1.6 * line.size + 2 or prev.page != line.page
        )
    if _BULLET.match(line.text):
        return True
    indented = line.x0 - margins.left(line) > 0.9 * line.size
    step = prev.bottom - line.first_bottom
    ended = bool(_SENTENCE_END.search(prev.text))
    if prev.page != line.page or step <= 0:  # a page or column break
        return indented or (ended and len(prev.text) < 0.85 * width)
    if step > 1.3 * pitch + 0.5:
        return True
    if line.x0 - prev.x0 > 0.9 * line.size and not _BULLET.match(block.lines[0].text):
        return True
    return ended and len(prev.text) < 0.6 * width


def render(blocks: list[Block], pages: int) -> Rendition:
    """The rendition of the blocks, with where each of ``pages`` pages begins in it."""
    out: list[str] = []
    starts: list[int] = []
    offset = 0
    for block in blocks:
        pieces = block.pieces()
        text = "".join(piece for _, piece in pieces)
        if not text.strip():
            continue
        if block.level == CODE:
            fence = "`" * max(3, 1 + max(map(len, re.findall("`+", text)), default=0))
            head, tail = fence + "\n", "\n" + fence
        elif block.level:
            head, tail = "#" * block.level + " ", ""
        else:
            head, tail = escape_block_start(text)[: -len(text)], ""
        position = offset + len(head)
        for page, piece in pieces:
            while len(starts) <= page:
                starts.append(position + len(piece) - len(piece.lstrip()))
            position += len(piece)
        out.append(head + text + tail + "\n\n")
        offset += len(out[-1])
    while len(starts) < pages:
        starts.append(offset)
    return Rendition("".join(out), "pdf", tuple(starts))
