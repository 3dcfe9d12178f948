"""LangChain's splitting hooks, honoured: a subclass that overrides ``_merge_splits``,
``_join_docs`` or ``_split_text`` (the character splitters), or ``_is_custom_header`` or
``aggregate_lines_to_chunks`` (``MarkdownHeaderTextSplitter``), gets them called where
LangChain calls them.

Neither engine calls methods on the splitter (the Rust one could not without a Python call
per piece or line), so such a subclass is split by the reference engine with those steps
routed through the splitter's own methods.
"""

from __future__ import annotations

from typing import Any, Optional

from ..documents import Document
from ..reference.markdown.header import HeaderEngine, match_header
from ..reference.split.recursive import Engine
from ..reference.split.scan import Separator
from .markdown_header import HeaderRule

HOOKS = ("_merge_splits", "_join_docs", "_split_text")
HEADER_HOOKS = ("_is_custom_header", "aggregate_lines_to_chunks")


def overridden_hooks(splitter: Any, base: type, names: tuple[str, ...] = HOOKS) -> bool:
    """Whether ``splitter``'s class overrides one of the hooks ``base`` defines."""
    cls = type(splitter)
    return any(
        getattr(cls, name) is not getattr(base, name) for name in names if hasattr(base, name)
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

    def _merge(self, pieces, lengths, join, sep_len, out, oversized) -> None:
        merged = self.splitter._merge_splits([p[0] for p in pieces], join)
        out.extend((chunk, None) for chunk in merged)

    def _deeper(self, piece, rest, length, out, oversized) -> None:
        texts = self.splitter._split_text(piece[0], [sep.text for sep in rest])
        out.extend((chunk, None) for chunk in texts)


class HookedHeaderEngine(HeaderEngine):
    """The reference line scan asking ``splitter._is_custom_header`` of every line and
    header marker, and handing its lines to ``splitter.aggregate_lines_to_chunks``."""

    def __init__(self, splitter: Any, rules: list[HeaderRule]) -> None:
        super().__init__(rules, bool(splitter.return_each_line), bool(splitter.strip_headers))
        self.splitter = splitter

    def _match(self, line: str, rule: HeaderRule) -> Optional[str]:
        sep = rule.sep
        if self.splitter._is_custom_header(line, sep):
            return line[len(sep) : -len(sep)].strip()
        return match_header(line, rule._replace(custom=False))  # the standard reading

    def split(self, text: str, names: list[Any]) -> list[Document]:
        lines = [
            {"content": c, "metadata": {names[k]: v for k, v in m.items()}}
            for c, m in self._scan(text)
        ]
        if not self.return_each_line:
            return self.splitter.aggregate_lines_to_chunks(lines)
        return [Document(page_content=x["content"], metadata=x["metadata"]) for x in lines]
