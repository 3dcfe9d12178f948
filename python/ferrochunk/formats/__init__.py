"""Documents in other formats chunked by their structure: ``HtmlChunker`` (lxml, the
``html`` extra) and ``PdfChunker`` (pypdfium2, the ``pdf`` extra). Each writes its document
as a Markdown :class:`Rendition` (headings, paragraphs, code blocks, tables) and chunks that
with :class:`~ferrochunk.MarkdownChunker`, so heading paths, atomic blocks and sizes in
tokens come from the one tested core; chunk offsets index into the rendition's text. The
parsers are imported on first use, so this package loads without them."""

from __future__ import annotations

from .html import HtmlChunker
from .pdf import PdfChunker
from .rendition import Rendition

__all__ = ["HtmlChunker", "PdfChunker", "Rendition"]
