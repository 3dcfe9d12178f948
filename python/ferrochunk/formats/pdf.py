"""``PdfChunker``: a PDF's text layer chunked by its paragraphs and headings, with pages."""

from __future__ import annotations

import os
from typing import Union, cast

from ..split import Chunk
from .chunker import RenderingChunker, source_bytes
from .extras import require
from .pdf_furniture import drop_furniture
from .pdf_layout import paragraphs, render
from .pdf_lines import read_lines
from .rendition import Rendition

PAGE_KEYS = ("page_start", "page_end")


class PdfChunker(RenderingChunker):
    """PDF chunked by its paragraphs and headings, never by page.

    pypdfium2 reads the text layer (``pip install 'ferrochunk[pdf]'``); :meth:`render`
    drops running headers, footers and page numbers, joins lines into paragraphs (words
    hyphenated at a line end whole again, a paragraph cut by a page break whole), finds
    headings by font size and weight, and writes it all as Markdown (docs/formats.md),
    which :class:`~ferrochunk.MarkdownChunker` cuts: every chunk has its ``heading_path``,
    a paragraph that fits is never cut, and ``metadata["page_start"]`` and
    ``["page_end"]`` (from 1) are the pages of its first and last character. Offsets index
    into ``render(source).text``. A source is a path or the bytes of a PDF. A PDF without
    a text layer (scanned pages) raises ``ValueError``: OCR it first.

    >>> from ferrochunk import PdfChunker
    >>> chunker = PdfChunker(500)
    >>> chunks = chunker.split("report.pdf")  # doctest: +SKIP
    >>> chunks[0].metadata["page_start"], chunks[0].metadata["heading_path"]  # doctest: +SKIP
    (1, ('Introduction',))
    """

    format = "pdf"
    _extra_keys = PAGE_KEYS

    def render(self, source: Union[str, bytes, os.PathLike[str]]) -> Rendition:
        """The Markdown rendition of a PDF (a path or its bytes), with its page offsets."""
        pdfium = require("pypdfium2", "PdfChunker")
        data = cast(bytes, source_bytes(source, "PDF", text_ok=False))
        pages, characters = read_lines(pdfium, data)
        if not characters:
            raise ValueError(
                f"the PDF has no text layer on any of its {len(pages)} pages (scanned "
                "images?): run OCR on it first (e.g. ocrmypdf), then chunk the result"
            )
        return render(paragraphs(drop_furniture(pages)), len(pages))

    def _annotate(self, rendition: Rendition, chunks: list[Chunk]) -> list[Chunk]:
        page_at = rendition.page_at
        return [
            type(c)(
                c.text,
                c.start,
                c.end,
                c.byte_start,
                c.byte_end,
                c.index,
                {**c.metadata, "page_start": page_at(c.start), "page_end": page_at(c.end - 1)},
                c.token_count,
            )
            for c in chunks
        ]
