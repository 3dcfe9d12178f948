"""Running headers, footers and page numbers: the lines of a page that belong to the page,
not to the text.

A candidate is one of the two top or two bottom lines of a page that lies in its top or
bottom eighth, taken from the edge of the page inwards up to the first that is not
furniture. It is furniture when the same line (its text with every number as ``#``, its
font size) stands at the same height (within 3 points) on at least half the pages, two at
least: ``Draft - page 16`` on page 16 and ``Draft - page 17`` on page 17 are one running
header. So is a line at the same height on half the pages whose first or last word is a
number that keeps one offset from the page's place in the file: a printed page number,
whatever text is around it (``Chapter 4: Drawing commands 16``, then ``Chapter 5: Bezier
curves 22``). A candidate that is only a page number (``7``, ``- 7 -``, ``Page 7``,
``7 / 20``, ``vii``) is furniture on its own.
"""

from __future__ import annotations

import re
from collections import defaultdict
from statistics import median

from .pdf_lines import Line

# What makes a line the same on another page: ("text", its text with numbers as #, its
# size) or ("page", a number in it less the page's, its size).
Key = tuple[str, str | int, int]
MARGIN = 1 / 8  # the share of the page height at top and bottom where furniture lives
TOLERANCE = 3.0  # points: how far the same header may move from page to page
PAGE_NUMBER = re.compile(
    r"(?i)^(page\s+)?[-\u2013\u2014(\[]?\s*(\d{1,4}|[ivxlcdm]{1,7})\s*[-\u2013\u2014)\]]?"
    r"(\s*(/|of)\s*\d{1,4})?$"
)


def drop_furniture(pages: list[list[Line]]) -> list[list[Line]]:
    """The pages without running headers, footers and page numbers."""
    ends = [_ends(lines) for lines in pages]
    tops: defaultdict[Key, dict[int, float]] = defaultdict(dict)
    for top, bottom in ends:
        for line in top + bottom:
            for key in _keys(line):
                tops[key].setdefault(line.page, line.top)
    threshold = max(2, (len(pages) + 1) // 2)

    def repeated(line: Line, key: Key) -> bool:
        seen = tops[key]
        if len(seen) < threshold:
            return False
        height = median(seen.values())
        near = sum(abs(top - height) <= TOLERANCE for top in seen.values())
        return near >= threshold and abs(line.top - height) <= TOLERANCE

    def furniture(line: Line) -> bool:
        return bool(PAGE_NUMBER.match(line.text)) or any(repeated(line, k) for k in _keys(line))

    dropped = set()
    for end in (lines for pair in ends for lines in pair):
        for line in end:  # from the edge inwards, up to the first line of text
            if not furniture(line):
                break
            dropped.add(id(line))
    return [[line for line in lines if id(line) not in dropped] for lines in pages]


def _ends(lines: list[Line]) -> tuple[list[Line], list[Line]]:
    """The two top and the two bottom lines of a page that lie in its margins, each from
    the edge of the page inwards."""
    by_height = sorted(lines, key=lambda line: -line.top)
    top = [ln for ln in by_height[:2] if ln.top > ln.page_height * (1 - MARGIN)]
    bottom = [ln for ln in by_height[::-1][:2] if ln.bottom < ln.page_height * MARGIN]
    return top, bottom


def _keys(line: Line) -> list[Key]:
    """What makes a line the same on another page: its text with every number as ``#``
    and its size; and for a number that is its first or last word, that number less the
    page's (a printed page number keeps one offset from the page's place in the file,
    whatever the text around it)."""
    size = round(line.size)
    page = line.page + 1
    words = line.text.split()
    numbers = [int(w) for w in {words[0], words[-1]} if w.isdigit() and len(w) <= 4]
    return [
        ("text", re.sub(r"\d+", "#", line.text.lower()), size),
        *(("page", n - page, size) for n in numbers),
    ]
