"""The reference engines of the LangChain drop-ins (:mod:`ferrochunk.split.textsplitter`),
which :func:`ferrochunk.engines.text_engine` builds: the plain one, and the one calling a
subclass's hooks (in both stacks).
"""

from __future__ import annotations

from typing import Any

from ...frontend.textsplitter import SeparatorSpec, keep_mode
from .recursive import Engine, LengthFunction
from .scan import Piece, Separator


def make_engine(splitter: Any, specs: list[SeparatorSpec], recursive: bool) -> Engine:
    """The reference engine for a drop-in splitter's settings (also the native stack's
    fallback for inputs Rust cannot reproduce exactly)."""
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

    def _merge(
        self,
        pieces: list[Piece],
        lengths: list[int],
        join: str,
        sep_len: int,
        out: list[Piece],
        oversized: list[int],
    ) -> None:
        merged = self.splitter._merge_splits([p[0] for p in pieces], join)
        out.extend((chunk, None) for chunk in merged)

    def _deeper(
        self,
        piece: Piece,
        rest: list[Separator],
        length: LengthFunction,
        out: list[Piece],
        oversized: list[int],
    ) -> None:
        texts = self.splitter._split_text(piece[0], [sep.text for sep in rest])
        out.extend((chunk, None) for chunk in texts)


__all__ = ["HookedEngine", "make_engine"]
