"""``Rendition``: a document rewritten as Markdown, the text every format chunker's chunk
offsets index into, with the page each part came from (PDF)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass


@dataclass(frozen=True)
class Rendition:
    """``text`` is the Markdown rendition of a document in ``format`` (``"html"``,
    ``"pdf"``); chunks are exact spans of it. ``page_starts[i]`` is the offset (in code
    points) in ``text`` where page ``i + 1`` begins; empty for formats without pages.

    >>> r = Rendition("# A\\n\\nOne.\\n\\nTwo.\\n", "pdf", (0, 10))
    >>> r.page_at(0), r.page_at(10)
    (1, 2)
    """

    text: str
    format: str
    page_starts: tuple[int, ...] = ()

    @property
    def pages(self) -> int:
        """How many pages the document has (0 for formats without pages)."""
        return len(self.page_starts)

    def page_at(self, offset: int) -> int:
        """The page (from 1) holding the code point at ``offset`` of ``text``."""
        if not self.page_starts:
            raise ValueError(f"a {self.format} rendition has no pages")
        return max(1, bisect_right(self.page_starts, offset))


# A paragraph starting like this would be read as another block: a backslash keeps it text.
_BLOCK_START = re.compile(
    r"#{1,6}(\s|$)|>|[-+*](\s|$)|\d{1,9}[.)](\s|$)|`{3}|~{3}|=+\s*$|"
    r"(?P<rule>[-*_])(\s*(?P=rule)){2,}\s*$"
)


def escape_block_start(paragraph: str) -> str:
    """``paragraph`` (one line) as Markdown that reads back as a paragraph of that text."""
    return "\\" + paragraph if _BLOCK_START.match(paragraph) else paragraph
