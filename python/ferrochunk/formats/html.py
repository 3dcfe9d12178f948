"""``HtmlChunker``: HTML chunked by its headings, with code blocks and tables atomic."""

from __future__ import annotations

import os
from typing import Union

from ..frontend.checks import check_encodable
from .chunker import RenderingChunker, source_bytes
from .extras import require
from .html_render import render_html
from .rendition import Rendition


class HtmlChunker(RenderingChunker):
    """HTML chunked as :class:`~ferrochunk.MarkdownChunker` chunks its Markdown rendition.

    lxml parses the page (``pip install 'ferrochunk[html]'``); :meth:`render` writes it as
    Markdown (``h1``-``h6`` as headings, ``pre`` as fenced code, tables as pipe tables,
    lists, paragraphs; scripts, styles, forms, navigation, sidebars and the page's own
    header and footer dropped; docs/formats.md), and the Markdown chunker cuts that, so
    chunks carry ``heading_path`` and the rest of its metadata, code blocks and tables that
    fit are never cut, and sizes count what ``length_function`` counts. Chunk offsets index
    into ``render(source).text``. A source is markup (``str``, or ``bytes`` in the encoding
    the page declares) or the path of a file (``pathlib.Path``).

    >>> from ferrochunk import HtmlChunker
    >>> page = "<nav>Home</nav><h1>Guide</h1><p>Intro.</p><h2>Install</h2><pre>pip x</pre>"
    >>> chunks = HtmlChunker(40, min_size=0).split(page)
    >>> [c.text for c in chunks]
    ['# Guide\\n\\nIntro.', '## Install\\n\\n```\\npip x\\n```']
    >>> chunks[1].metadata["heading_path"]
    ('Guide', 'Install')
    """

    format = "html"

    def render(self, source: Union[str, bytes, os.PathLike[str]]) -> Rendition:
        """The Markdown rendition of an HTML page (markup, bytes or a path)."""
        lxml_html = require("lxml.html", "HtmlChunker")
        markup = source_bytes(source, "HTML", text_ok=True)
        if isinstance(markup, str):
            try:
                data, encoding = markup.encode("utf-8"), "utf-8"  # a declared charset is moot
            except UnicodeEncodeError:
                check_encodable(markup)
                raise
        else:
            data, encoding = markup, None  # lxml reads the page's <meta charset>
        if not data.strip():
            return Rendition("", self.format)
        parser = lxml_html.HTMLParser(encoding=encoding, remove_comments=True)
        try:
            root = lxml_html.document_fromstring(data, parser=parser)
        except lxml_html.etree.ParserError:  # "Document is empty": no element at all
            return Rendition("", self.format)
        return Rendition(render_html(root), self.format)
