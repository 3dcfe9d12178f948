"""Markdown structure on the Rust engine (mirrors ``rust/markdown/``): ``MarkdownChunker``
(heading paths, atomic code and tables, stable ids, parents) and LangChain's
``MarkdownHeaderTextSplitter`` / ``MarkdownTextSplitter`` drop-ins."""

from .chunker import RESERVED_KEYS, SEPARATOR_PRESETS, MarkdownChunker
from .header import MarkdownHeaderTextSplitter, MarkdownTextSplitter

__all__ = [
    "RESERVED_KEYS",
    "SEPARATOR_PRESETS",
    "MarkdownChunker",
    "MarkdownHeaderTextSplitter",
    "MarkdownTextSplitter",
]
