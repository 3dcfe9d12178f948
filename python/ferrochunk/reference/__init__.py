"""The pure-Python reference: the same algorithms as the Rust core, written for clarity.

It is the oracle of the differential tests and the baseline of the benchmarks. Its modules
mirror ``rust/`` (``split/``, ``markdown/``, ``tokens``, ``text``, ``chunk_id``); its public
classes are ``ferrochunk``'s own bound to these engines (:mod:`.classes`), so it has the
same public surface as :mod:`ferrochunk`. It imports no LangChain and no Rust code (the token
oracle is tiktoken itself, built from the ranks the extension bundles: data only).
"""

from typing import TYPE_CHECKING

from .._lazy import exports

_EXPORTS = {
    "Document": "..documents",
    "Language": "..language",
    "Chunk": ".chunk",
    "tokens": ".tokens",
    "MarkdownChunker": ".classes",
    "CodeChunker": ".classes",
    "TextChunker": ".classes",
    "MarkdownHeaderTextSplitter": ".classes",
    "Splitter": ".api",
    "CharacterTextSplitter": ".classes",
    "RecursiveCharacterTextSplitter": ".classes",
    "TextSplitter": ".classes",
    "TokenTextSplitter": ".classes",
}
__getattr__, __dir__ = exports(__name__, _EXPORTS)
# `split` is both a subpackage and the function: bound after the subpackage loads.
from . import split as _split_package  # noqa: E402, F401
from .api import split  # noqa: E402

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load on first use
    from ..documents import Document
    from ..language import Language
    from .api import Splitter
    from .chunk import Chunk
    from .classes import (
        CharacterTextSplitter,
        CodeChunker,
        MarkdownChunker,
        MarkdownHeaderTextSplitter,
        RecursiveCharacterTextSplitter,
        TextChunker,
        TextSplitter,
        TokenTextSplitter,
    )
__all__ = [
    "CharacterTextSplitter",
    "Chunk",
    "CodeChunker",
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
