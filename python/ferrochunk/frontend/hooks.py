"""LangChain's splitting hooks, honoured: a subclass that overrides ``_merge_splits``,
``_join_docs`` or ``_split_text`` gets them called where LangChain calls them.

Neither engine calls methods on the splitter (the Rust one could not without a Python call
per piece), so such a subclass is split by the reference engine with its merge step, and the
recursion into pieces too long for a chunk, routed through the splitter's own methods.
"""

from __future__ import annotations

from typing import Any

from ..reference.split.recursive import Engine
from ..reference.split.scan import Separator

HOOKS = ("_merge_splits", "_join_docs", "_split_text")


def overridden_hooks(splitter: Any, base: type) -> bool:
    """Whether ``splitter``'s class overrides one of the hooks ``base`` defines."""
    cls = type(splitter)
    return any(
        getattr(cls, name) is not getattr(base, name) for name in HOOKS if hasattr(base, name)
    )


class HookedEngine(Engine):
    """The reference engine merging through ``splitter._merge_splits`` (which joins through
    its ``_join_docs``) and recursing through ``splitter._split_text``, as LangChain does."""

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

    def _merge(self, pieces, lengths, sep, length, out, oversized) -> None:
        join = "" if self.keep else sep.join_text
        merged = self.splitter._merge_splits([p[0] for p in pieces], join)
        out.extend((chunk, None) for chunk in merged)

    def _deeper(self, piece, rest, length, out, oversized) -> None:
        texts = self.splitter._split_text(piece[0], [sep.text for sep in rest])
        out.extend((chunk, None) for chunk in texts)
