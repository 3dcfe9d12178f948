"""Markdown structure on the Rust engine (mirrors ``rust/markdown/``): ``MarkdownChunker``
(heading paths, atomic code and tables, stable ids, parents) and LangChain's
``MarkdownHeaderTextSplitter`` / ``MarkdownTextSplitter`` drop-ins."""

from typing import TYPE_CHECKING

from .._lazy import exports

_EXPORTS = {
    "RESERVED_KEYS": ".chunker",
    "SEPARATOR_PRESETS": ".chunker",
    "MarkdownChunker": ".chunker",
    "MarkdownHeaderTextSplitter": ".header",
    "MarkdownTextSplitter": ".header",
}
__getattr__, __dir__ = exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load on first use
    from .chunker import RESERVED_KEYS, SEPARATOR_PRESETS, MarkdownChunker
    from .header import MarkdownHeaderTextSplitter, MarkdownTextSplitter
__all__ = [
    "RESERVED_KEYS",
    "SEPARATOR_PRESETS",
    "MarkdownChunker",
    "MarkdownHeaderTextSplitter",
    "MarkdownTextSplitter",
]
