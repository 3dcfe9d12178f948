"""``langchain_text_splitters.html``: the HTML splitters (BeautifulSoup and lxml, used as
LangChain uses them; the recursive pass after sectioning on the Rust engine)."""

from __future__ import annotations

from typing import TypedDict

from .header import HTMLHeaderTextSplitter
from .section import HTMLSectionSplitter
from .semantic import HTMLSemanticPreservingSplitter


class ElementType(TypedDict):
    """Element type as typed dict."""

    url: str
    xpath: str
    content: str
    metadata: dict[str, str]


__all__ = [
    "ElementType",
    "HTMLHeaderTextSplitter",
    "HTMLSectionSplitter",
    "HTMLSemanticPreservingSplitter",
]
