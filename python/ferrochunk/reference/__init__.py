"""The pure-Python reference: the same algorithms as the Rust core, written for clarity.

It is the oracle of the differential tests and the baseline of the benchmarks. Its modules
mirror ``rust/`` (``split/``, ``markdown/``, ``tokens``, ``text``, ``chunk_id``); its public
classes are the shared ones of :mod:`ferrochunk.frontend` on these engines, so it has the
same public surface as :mod:`ferrochunk`. It imports no LangChain and no Rust code (the token
oracle is tiktoken itself, built from the ranks the extension bundles: data only).
"""

from ..documents import Document
from ..language import Language
from .chunk import Chunk
from .markdown.chunker import MarkdownChunker
from .markdown.header import MarkdownHeaderTextSplitter
from .split.splitter import Splitter, split
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
    "TextSplitter",
    "TokenTextSplitter",
    "split",
]
