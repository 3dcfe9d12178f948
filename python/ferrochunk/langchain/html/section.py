"""``HTMLSectionSplitter``: sections under ``h1``..``h6`` (and text styled larger than 20px),
then LangChain's recursive split of each section, here on the Rust engine.

lxml applies the font-size rule (an XSLT, with LangChain's hardening: no network, no
entities, no DTD, no file access) and BeautifulSoup cuts the sections, as in LangChain; the
compiled stylesheet is kept per thread instead of being parsed again for every text.
"""

from __future__ import annotations

import copy
import pathlib
import threading
from collections.abc import Iterable
from io import StringIO
from typing import Any, Optional, cast

from ...documents import Document
from ...split.textsplitter import RecursiveCharacterTextSplitter
from .deps import import_bs4, import_lxml_etree

_TITLE = "#TITLE#"  # the header of the text before the first header
_cache = threading.local()


def _transform(etree: Any, xslt_path: pathlib.Path) -> Any:
    """The compiled XSLT at ``xslt_path`` (compiled once per thread and file version)."""
    stat = xslt_path.stat()
    key = (str(xslt_path), stat.st_mtime_ns, stat.st_size)
    cached = getattr(_cache, "xslt", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    access = etree.XSLTAccessControl.DENY_ALL
    transform = etree.XSLT(etree.parse(xslt_path, parser), access_control=access)
    _cache.xslt = (key, transform)
    return transform


class HTMLSectionSplitter:
    """Splits HTML into sections by header tag (and large font), with the header text as
    metadata; :meth:`split_documents` then splits sections with the recursive splitter
    configured by the extra keyword arguments.

    >>> from ferrochunk.langchain import HTMLSectionSplitter
    >>> s = HTMLSectionSplitter([("h1", "Title")])
    >>> [(d.page_content, d.metadata) for d in s.split_text("<h1>A</h1><p>x</p>")]
    [('A \\n x', {'Title': 'A'})]
    """

    def __init__(self, headers_to_split_on: list[tuple[str, str]], **kwargs: Any) -> None:
        self.headers_to_split_on = dict(headers_to_split_on)
        self.xslt_path = (pathlib.Path(__file__).parent / "converting_to_header.xslt").absolute()
        self.kwargs = kwargs

    def split_documents(self, documents: Iterable[Document]) -> list[Document]:
        """Sections of each document, each then split by the recursive splitter (Rust)."""
        texts, metadatas = [], []
        for doc in documents:
            texts.append(doc.page_content)
            metadatas.append(doc.metadata)
        sections = self.create_documents(texts, metadatas=metadatas)
        return RecursiveCharacterTextSplitter(**self.kwargs).split_documents(sections)

    def split_text(self, text: str) -> list[Document]:
        """The sections of an HTML string."""
        return self.split_text_from_file(StringIO(text))

    def create_documents(
        self, texts: list[str], metadatas: Optional[list[dict[Any, Any]]] = None
    ) -> list[Document]:
        """Sections of each text; the first section's ``#TITLE#`` header becomes the text's
        ``Title`` metadata."""
        metadatas_ = metadatas or [{}] * len(texts)
        documents = []
        for i, text in enumerate(texts):
            for chunk in self.split_text(text):
                metadata = copy.deepcopy(metadatas_[i])
                for key in chunk.metadata:
                    if chunk.metadata[key] == _TITLE:
                        chunk.metadata[key] = metadata["Title"]
                metadata = {**metadata, **chunk.metadata}
                documents.append(Document(page_content=chunk.page_content, metadata=metadata))
        return documents

    def split_html_by_headers(self, html_doc: str) -> list[dict[str, Optional[str]]]:
        """``{"header", "content", "tag_name"}`` for each section with text: the body's
        text up to the first header (header ``#TITLE#``), then each header's."""
        beautiful_soup, _, _ = import_bs4(
            "Unable to import BeautifulSoup/PageElement, please install with `pip install bs4`."
        )
        soup = beautiful_soup(html_doc, "html.parser")
        headers = soup.find_all(["body", *self.headers_to_split_on])
        sections: list[dict[str, Optional[str]]] = []
        for i, header in enumerate(headers):
            if i == 0:
                title, tag_name = _TITLE, "h1"
            else:
                title, tag_name = header.text.strip(), header.name
            following = headers[i + 1] if i + 1 < len(headers) else None
            parts = []
            for element in header.next_elements:
                if following is not None and element == following:
                    break
                if isinstance(element, str):
                    parts.append(element)
            content = " ".join(parts).strip()
            if content:
                sections.append({"header": title, "content": content, "tag_name": tag_name})
        return sections

    def convert_possible_tags_to_header(self, html_content: str) -> str:
        """The HTML with text styled above 20px turned into ``h1`` headers (lxml XSLT)."""
        etree = import_lxml_etree()
        tree = etree.parse(StringIO(html_content), etree.HTMLParser(no_network=True))
        return str(_transform(etree, pathlib.Path(self.xslt_path))(tree))

    def split_text_from_file(self, file: StringIO) -> list[Document]:
        """The sections of the HTML in a ``StringIO``."""
        html = self.convert_possible_tags_to_header(file.getvalue())
        return [
            Document(
                cast(str, section["content"]),  # never None: sections with text only
                metadata={self.headers_to_split_on[str(section["tag_name"])]: section["header"]},
            )
            for section in self.split_html_by_headers(html)
        ]


__all__ = ["HTMLSectionSplitter"]
