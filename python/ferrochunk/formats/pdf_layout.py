"""PDF lines to a Markdown rendition: page furniture dropped, lines joined into paragraphs,
headings found by font size and weight.

- **Furniture**: a line in the top or bottom eighth of a page is a running header or footer
  when the same text (digits aside) is there on at least half the pages (two at least), and
  a page number when it is only a number (``7``, ``- 7 -``, ``Page 7``, ``7 / 20``, ``vii``).
- **Headings**: a short line whose font is a fifth larger than the body's (the size most
  characters have), or bold at body size when the body is not; each heading size a level,
  larger first, bold body-size headings last. Heading lines in a row with one style join.
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

MARGIN = 1 / 8  # the share of the page height at top and bottom where furniture lives
_PAGE_NUMBER = re.compile(
    r"(?i)^(page\s+)?[-\u2013\u2014(\[]?\s*(\d{1,4}|[ivxlcdm]{1,7})\s*[-\u2013\u2014)\]]?"
    r"(\s*(/|of)\s*\d{1,4})?$"
)
_BULLET = re.compile(
    r"^[\u2022\u25e6\u25aa\u2023\u25cf\u25cb\u25a0\u25a1\u25b8\u25ba\u2013\u2014*]\s"
)
_SENTENCE_END = re.compile(r"[.!?:;][\"'\u201d\u2019)\]]*$")


@dataclass
class Block:
    """A heading (``level`` > 0) or a paragraph: its lines' texts and pages."""

    level: int
    parts: list[tuple[int, str]] = field(default_factory=list)  # (page, text) per line
    size: float = 0.0

    def add(self, line: Line) -> None:
        if self.parts and _hyphenated(self.parts[-1][1], line.text):
            page, text = self.parts[-1]
            self.parts[-1] = (page, text[:-1])
            self.parts.append((line.page, "\x00" + line.text))  # NUL: join with no space
        else:
            self.parts.append((line.page, line.text))

    @property
    def text(self) -> str:
        return " ".join(text for _, text in self.parts).replace(" \x00", "")


def _hyphenated(before: str, after: str) -> bool:
    return (
        len(before) > 1 and before[-1] in "-\xad" and before[-2].isalpha() and after[:1].islower()
    )


# A line's place and text (size, height band, text): a running header's repeats.
Key = tuple[int, int, str]


def drop_furniture(pages: list[list[Line]]) -> list[list[Line]]:
    """The pages without running headers, footers and page numbers."""
    outer = [_outer(lines) for lines in pages]
    seen: Counter[Key] = Counter()
    for lines in outer:
        seen.update({key for line in lines for key in _keys(line)})
    threshold = max(2, (len(pages) + 1) // 2)

    def furniture(line: Line) -> bool:
        return bool(_PAGE_NUMBER.match(line.text)) or any(
            seen[key] >= threshold for key in _keys(line)
        )

    return [
        [line for line in lines if not (id(line) in edge and furniture(line))]
        for lines, edge in zip(pages, ({id(line) for line in o} for o in outer))
    ]


def _outer(lines: list[Line]) -> list[Line]:
    """The two top and two bottom lines of a page, when they are in its margins."""
    by_height = sorted(lines, key=lambda line: -line.top)
    ends = by_height[:2] + by_height[-2:]
    edge = MARGIN * (lines[0].page_height if lines else 0)
    return [line for line in ends if line.top > line.page_height - edge or line.bottom < edge]


def _keys(line: Line) -> tuple[Key, Key]:
    """Where a line is and what it says: as written, and with each number made relative
    to the page's (a running header's ``page 7`` on page 7 reads as ``page #+0``)."""
    where = (round(line.size), round(line.top / 6))
    number = line.page + 1
    relative = re.sub(r"\d+", lambda m: f"#{int(m.group()) - number:+d}", line.text.lower())
    return (*where, line.text), (*where, relative)


def body_size(lines: Iterable[Line]) -> float:
    """The font size most characters have."""
    sizes: Counter[float] = Counter()
    for line in lines:
        sizes[round(line.size * 2) / 2] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def heading_levels(
    lines: list[Line], body: float, body_bold: bool
) -> dict[tuple[float, bool], int]:
    """``(size, bold) -> level`` of the heading styles: larger sizes first, then bold at
    body size."""
    styles = {
        (round(line.size * 2) / 2, line.bold)
        for line in lines
        if _heading_style(line, body, body_bold)
    }
    order = sorted(styles, key=lambda style: (-style[0], not style[1]))
    return {style: min(6, level) for level, style in enumerate(order, 1)}


def _heading_style(line: Line, body: float, body_bold: bool) -> bool:
    if len(line.text) > 200 or not any(c.isalpha() for c in line.text):
        return False
    if line.size >= body * 1.2:
        return True
    return (
        line.bold and not body_bold and abs(line.size - body) < 0.6 and line.text[-1] not in ".,;"
    )


def paragraphs(pages: list[list[Line]]) -> list[Block]:
    """Headings and paragraphs, in order."""
    lines = [line for page in pages for line in page]
    body = body_size(lines)
    body_bold = Counter(line.bold for line in lines if abs(line.size - body) < 0.6).most_common(1)
    levels = heading_levels(lines, body, bool(body_bold and body_bold[0][0]))
    pitch = _body_pitch(lines, body)
    margins: dict[int, float] = {}  # the left edge of each page's text
    for line in lines:
        margins[line.page] = min(line.x0, margins.get(line.page, line.x0))
    lengths = sorted(len(line.text) for line in lines if abs(line.size - body) < 0.6)
    width = lengths[len(lengths) * 3 // 4] if lengths else 0  # a full line's length
    blocks: list[Block] = []
    previous: Line | None = None
    for line in lines:
        level = levels.get((round(line.size * 2) / 2, line.bold), 0)
        if not blocks or _starts_block(previous, line, level, blocks[-1], pitch, margins, width):
            blocks.append(Block(level, size=line.size))
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
    margins: dict[int, float],
    width: int,
) -> bool:
    if prev is None or level != block.level or abs(line.size - block.size) >= 0.6:
        return True
    if level:  # a heading goes on over lines of one style set close together
        return (
            not 0 < prev.bottom - line.first_bottom < 1.6 * line.size + 2 or prev.page != line.page
        )
    if _BULLET.match(line.text):
        return True
    indented = line.x0 - margins.get(line.page, line.x0) > 0.9 * line.size
    step = prev.bottom - line.first_bottom
    if prev.page != line.page or step <= 0:  # a page or column break
        ended = _SENTENCE_END.search(prev.text) and len(prev.text) < 0.85 * width
        return indented or bool(ended)
    if step > 1.3 * pitch + 0.5:
        return True
    if line.x0 - prev.x0 > 0.9 * line.size and not _BULLET.match(block.parts[0][1]):
        return True
    mark = _SENTENCE_END.search(prev.text)
    return bool(mark) and len(prev.text) < 0.6 * width


def render(blocks: list[Block], pages: int) -> Rendition:
    """The rendition of the blocks, with where each of ``pages`` pages begins in it."""
    out: list[str] = []
    starts: list[int] = []
    offset = 0
    for block in blocks:
        text = block.text
        if not text:
            continue
        head = "#" * block.level + " " if block.level else ""
        if not block.level:
            escaped = escape_block_start(text)
            head, text = escaped[: len(escaped) - len(text)], text
        position = offset + len(head)
        for i, (page, part) in enumerate(block.parts):
            if i and not part.startswith("\x00"):
                position += 1  # the space joining it to the line before
            while len(starts) <= page:
                starts.append(position)
            position += len(part.lstrip("\x00"))
        out.append(head + text + "\n\n")
        offset += len(out[-1])
    while len(starts) < pages:
        starts.append(offset)
    return Rendition("".join(out), "pdf", tuple(starts))
