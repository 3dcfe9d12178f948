"""``langchain_text_splitters.base``: the interface, the token splitter, ``Language`` and
LangChain's token-window helpers (``Tokenizer``, ``split_text_on_tokens``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..frontend.tokens import split_on_tokens
from ..language import Language
from ..split.textsplitter import TextSplitter, TokenTextSplitter


@dataclass(frozen=True)
class Tokenizer:
    """The encode/decode pair and window sizes ``split_text_on_tokens`` works with
    (LangChain's ``Tokenizer`` dataclass, not :class:`ferrochunk.Tokenizer`)."""

    chunk_overlap: int
    """Overlap in tokens between chunks"""

    tokens_per_chunk: int
    """Maximum number of tokens per chunk"""

    decode: Callable[[list[int]], str]
    """ Function to decode a list of token IDs to a string"""

    encode: Callable[[str], list[int]]
    """ Function to encode a string to a list of token IDs"""


def split_text_on_tokens(*, text: str, tokenizer: Tokenizer) -> list[str]:
    """Windows of ``tokens_per_chunk`` ids stepping by ``tokens_per_chunk - chunk_overlap``,
    each decoded; empty decodings are dropped.

    >>> from ferrochunk.langchain import Tokenizer, split_text_on_tokens
    >>> codes = Tokenizer(1, 3, lambda ids: "".join(map(chr, ids)), lambda s: list(map(ord, s)))
    >>> split_text_on_tokens(text="abcde", tokenizer=codes)
    ['abc', 'cde']
    """
    return split_on_tokens(
        text,
        tokenizer.encode,
        tokenizer.decode,
        tokenizer.tokens_per_chunk,
        tokenizer.chunk_overlap,
    )


__all__ = [
    "Language",
    "TextSplitter",
    "TokenTextSplitter",
    "Tokenizer",
    "split_text_on_tokens",
]
