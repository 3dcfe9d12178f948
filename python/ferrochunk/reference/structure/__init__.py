"""Block scanners beyond Markdown (mirrors ``rust/structure/``): reStructuredText,
AsciiDoc and plain text, read into the blocks the Markdown chunker packs."""

from __future__ import annotations

from typing import Callable

from ..markdown.blocks import scan as markdown_scan
from ..markdown.lines import Block
from . import asciidoc, plain, rst

SCANNERS: dict[str, Callable[[str], list[Block]]] = {
    "markdown": markdown_scan,
    "rst": rst.scan,
    "asciidoc": asciidoc.scan,
    "plain": plain.scan,
}


def scan(fmt: str, text: str) -> list[Block]:
    """The blocks of ``text`` read as ``fmt`` (``markdown``, ``rst``, ``asciidoc``, ``plain``)."""
    return SCANNERS[fmt](text)


__all__ = ["SCANNERS", "scan"]
