"""Recursive separator splitting on the Rust engine (mirrors ``rust/split/``).

:mod:`.splitter` is the native API (``Splitter``, ``split``, ``Chunk`` with exact offsets);
:mod:`.textsplitter` holds the LangChain drop-ins.
"""

from .splitter import Chunk, Splitter, split
from .textsplitter import (
    CharacterTextSplitter,
    RecursiveCharacterTextSplitter,
    TextSplitter,
    TokenTextSplitter,
)

__all__ = [
    "CharacterTextSplitter",
    "Chunk",
    "RecursiveCharacterTextSplitter",
    "Splitter",
    "TextSplitter",
    "TokenTextSplitter",
    "split",
]
