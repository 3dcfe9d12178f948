"""The LangChain-compatible splitters on the pure-Python engine.

Mirrors :mod:`ferrochunk.split.textsplitter`: the shared classes of
:mod:`ferrochunk.frontend.textsplitter` with the reference engine and tiktoken itself for
token sizes, so the tests compare only the engines.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from ...frontend import textsplitter as front
from ...frontend.textsplitter import SeparatorSpec, keep_mode
from ...frontend.tokens import AllowedSpecial
from ..tokens import tiktoken_encoding, tiktoken_length
from .recursive import Engine
from .scan import Separator


def make_engine(
    splitter: front.TextSplitter, specs: list[SeparatorSpec], recursive: bool
) -> Engine:
    """The reference engine for a drop-in splitter's settings (also the Rust stack's
    fallback for inputs it cannot reproduce exactly)."""
    separators = [Separator(text, is_regex, join) for text, is_regex, join in specs]
    return Engine(
        splitter._chunk_size,
        splitter._chunk_overlap,
        separators,
        keep_mode(splitter._keep_separator),
        splitter._strip_whitespace,
        recursive,
    )


class HookedEngine(Engine):
    """The reference engine merging through ``splitter._merge_splits`` (which joins through
    its ``_join_docs``) and recursing through ``splitter._split_text``, as LangChain does: a
    subclass overriding one of those hooks (:mod:`ferrochunk.frontend.hooks`) is split by it
    in both stacks, as neither engine calls methods on the splitter."""

    def __init__(
        self, splitter: Any, specs: list[tuple[str, bool, str]], recursive: bool, keep: Any
    ) -> None:
        separators = [Separator(text, is_regex, join) for text, is_regex, join in specs]
        super().__init__(
            splitter._chunk_size,
            splitter._chunk_overlap,
            separators,
            keep,
            splitter._strip_whitespace,
            recursive,
        )
        self.splitter = splitter

    def _merge(self, pieces, lengths, join, sep_len, out, oversized) -> None:
        merged = self.splitter._merge_splits([p[0] for p in pieces], join)
        out.extend((chunk, None) for chunk in merged)

    def _deeper(self, piece, rest, length, out, oversized) -> None:
        texts = self.splitter._split_text(piece[0], [sep.text for sep in rest])
        out.extend((chunk, None) for chunk in texts)


def make_hooked_engine(
    splitter: front.TextSplitter, specs: list[SeparatorSpec], recursive: bool, keep: Any
) -> HookedEngine:
    """The engine of a splitter whose class overrides LangChain's hooks (both stacks)."""
    return HookedEngine(splitter, specs, recursive, keep)


class TextSplitter(front.TextSplitter):
    __doc__ = front.TextSplitter.__doc__

    _make_engine = make_engine
    _make_hooked_engine = make_hooked_engine

    @staticmethod
    def _tiktoken_length_function(
        encoding_name: str = "gpt2",
        model_name: Optional[str] = None,
        allowed_special: Optional[AllowedSpecial] = None,
        disallowed_special: AllowedSpecial = "all",
    ) -> Callable[[str], int]:
        """LangChain's tiktoken length, ``len(enc.encode(text, ...))``, on tiktoken itself."""
        enc = tiktoken_encoding(encoding_name, model_name)
        return tiktoken_length(enc, allowed_special, disallowed_special)


class TokenTextSplitter(TextSplitter, front.TokenTextSplitter):
    __doc__ = front.TokenTextSplitter.__doc__

    @staticmethod
    def _load_tokenizer(encoding_name: str, model_name: Optional[str]) -> Any:
        return tiktoken_encoding(encoding_name, model_name)


class CharacterTextSplitter(TextSplitter, front.CharacterTextSplitter):
    __doc__ = front.CharacterTextSplitter.__doc__


class RecursiveCharacterTextSplitter(TextSplitter, front.RecursiveCharacterTextSplitter):
    __doc__ = front.RecursiveCharacterTextSplitter.__doc__


__all__ = [
    "CharacterTextSplitter",
    "RecursiveCharacterTextSplitter",
    "TextSplitter",
    "TokenTextSplitter",
    "make_engine",
]
