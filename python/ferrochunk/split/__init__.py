"""Recursive separator splitting on the Rust engine (mirrors ``rust/split/``).

:mod:`.splitter` is the native API (``Splitter``, ``split``, ``Chunk`` with exact offsets);
:mod:`.textsplitter` holds the LangChain drop-ins.
"""

from typing import TYPE_CHECKING

from .._lazy import exports

_EXPORTS = {
    "Chunk": ".splitter",
    "Splitter": ".splitter",
    "split": ".splitter",
    "CharacterTextSplitter": ".textsplitter",
    "RecursiveCharacterTextSplitter": ".textsplitter",
    "TextSplitter": ".textsplitter",
    "TokenTextSplitter": ".textsplitter",
}
__getattr__, __dir__ = exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load on first use
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
