"""``langchain_text_splitters.markdown``: the Markdown splitters and their typed dicts."""

from __future__ import annotations

from typing import TypedDict

from ..markdown.header import MarkdownHeaderTextSplitter, MarkdownTextSplitter
from .markdown_syntax import ExperimentalMarkdownSyntaxTextSplitter


class LineType(TypedDict):
    """Line type as `TypedDict`."""

    metadata: dict[str, str]
    content: str


class HeaderType(TypedDict):
    """Header type as `TypedDict`."""

    level: int
    name: str
    data: str


__all__ = [
    "ExperimentalMarkdownSyntaxTextSplitter",
    "HeaderType",
    "LineType",
    "MarkdownHeaderTextSplitter",
    "MarkdownTextSplitter",
]
