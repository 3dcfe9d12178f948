"""The pure-Python reference: the same algorithms as the Rust core, written for clarity.

It is the oracle of the differential tests and the baseline of the benchmarks; it has the
same public surface as :mod:`ferrochunk` and imports neither Rust nor LangChain.
"""

from ..documents import Document
from ..language import Language
from .api import Splitter, split
from .markdown_header import MarkdownHeaderTextSplitter
from .splitter import Chunk
from .textsplitter import (
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
    "MarkdownHeaderTextSplitter",
    "RecursiveCharacterTextSplitter",
    "Splitter",
    "TextSplitter",
    "TokenTextSplitter",
    "split",
]
