"""The pure-Python reference: the same algorithms as the Rust core, written for clarity.

It is the oracle of the differential tests and the baseline of the benchmarks. Its modules
mirror ``rust/`` (``split/``, ``markdown/``, ``tokens``, ``text``, ``chunk_id``); its public
classes are the shared ones of :mod:`ferrochunk.frontend` on these engines, so it has the
same public surface as :mod:`ferrochunk`. It imports no LangChain and no Rust code (the token
oracle is tiktoken itself, built from the ranks the extension bundles: data only).
"""

from typing import TYPE_CHECKING

from .._lazy import exports

_EXPORTS = {
    "Document": "..documents",
    "Language": "..language",
    "Chunk": ".chunk",
    "MarkdownChunker": ".markdown.chunker",
    "TextChunker": ".markdown.chunker",
    "MarkdownHeaderTextSplitter": ".markdown.header",
    "Splitter": ".split.splitter",
    "CharacterTextSplitter": ".split.textsplitter",
    "RecursiveCharacterTextSplitter": ".split.textsplitter",
    "TextSplitter": ".split.textsplitter",
    "TokenTextSplitter": ".split.textsplitter",
}
__getattr__, __dir__ = exports(__name__, _EXPORTS)
# `split` is both a subpackage and the function: bound after the subpackage loads.
from .split.splitter import split  # noqa: E402

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load on first use
    from ..documents import Document
    from ..language import Language
    from .chunk import Chunk
    from .markdown.chunker import MarkdownChunker, TextChunker
    from .markdown.header import MarkdownHeaderTextSplitter
    from .split.splitter import Splitter
    from .split.textsplitter import (
        CharacterTextSplitter,
        RecursiveCharacterTextSplitter,
        TextSplitter,
        TokenTextSplitter,
    )
__all__ = [
    "CharacterTextSplitter",
    "Chunk",
    "Document",
    "Language",
    "MarkdownChunker",
    "MarkdownHeaderTextSplitter",
    "RecursiveCharacterTextSplitter",
    "Splitter",
    "TextChunker",
    "TextSplitter",
    "TokenTextSplitter",
    "split",
]
