"""LangChain's ``MarkdownHeaderTextSplitter`` class, shared by both engines.

Arguments, header rules, documents and the aggregation API live here; the line scan is an
engine (:mod:`ferrochunk.reference.markdown.header` in Python, :mod:`ferrochunk.markdown.header`
in Rust), so both behave alike by construction. Behaviour reproduced from
``langchain_text_splitters`` 1.1, quirks included: lines are stripped and lose their
non-printable characters, a fence is a line starting with three backticks (and no second
triple) or tildes, a header is a line starting with one of the ``headers_to_split_on``
markers followed by a space or nothing, blank lines end a block, and blocks with equal
metadata are joined with ``"  \\n"``.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

from ..documents import Document
from .hooks import HEADER_HOOKS, overridden_hooks

Metadata = dict[int, str]  # header-name id -> header text, in insertion order
Block = tuple[str, Metadata]


class HeaderRule(NamedTuple):
    """One entry of ``headers_to_split_on``, resolved: ``name`` is an id, or None to skip."""

    sep: str
    name: Optional[int]
    level: int
    custom: bool


def aggregate(blocks: list[Block], strip_headers: bool) -> list[Block]:
    """LangChain's ``aggregate_lines_to_chunks`` on ``(content, metadata)`` blocks."""
    out: list[list[Any]] = []
    for content, meta in blocks:
        if out and out[-1][1] == meta:
            out[-1][0] += "  \n" + content
        elif (
            out
            and len(out[-1][1]) < len(meta)
            and out[-1][0].split("\n")[-1][0] == "#"
            and not strip_headers
        ):
            out[-1][0] += "  \n" + content
            out[-1][1] = meta
        else:
            out.append([content, meta])
    return [(c, m) for c, m in out]


def custom_title(line: str, sep: str) -> Optional[str]:
    """The title of a ``**Title**``-style custom header, or None when ``line`` is not one:
    exactly one ``sep`` on each side, something between, and not only ``sep`` characters."""
    n = len(sep)
    if n == 0 or len(line) < 2 * n + 1 or not (line.startswith(sep) and line.endswith(sep)):
        return None
    if line[n:].startswith(sep) or line[:-n].endswith(sep):
        return None
    title = line[n:-n].strip()
    if title and not all(c in sep for c in title.replace(" ", "")):
        return title
    return None


class MarkdownHeaderTextSplitter:
    """Splitting markdown files based on specified headers (LangChain's class).

    >>> from ferrochunk import MarkdownHeaderTextSplitter
    >>> s = MarkdownHeaderTextSplitter([("#", "H1"), ("##", "H2")])
    >>> [(d.page_content, d.metadata) for d in s.split_text("# A\\nx\\n## B\\ny")]
    [('x', {'H1': 'A'}), ('y', {'H1': 'A', 'H2': 'B'})]
    """

    def __init__(
        self,
        headers_to_split_on: list[tuple[str, str]],
        return_each_line: bool = False,
        strip_headers: bool = True,
        custom_header_patterns: Optional[dict[str, int]] = None,
    ) -> None:
        self.return_each_line = return_each_line
        self.headers_to_split_on = sorted(
            headers_to_split_on, key=lambda split: len(split[0]), reverse=True
        )
        self.strip_headers = strip_headers
        self.custom_header_patterns = custom_header_patterns or {}

    def _rules(self) -> tuple[list[HeaderRule], list[Any]]:
        names: list[Any] = []
        rules = []
        for sep, name in self.headers_to_split_on:
            custom = sep in self.custom_header_patterns
            level = self.custom_header_patterns[sep] if custom else sep.count("#")
            name_id = None
            if name is not None:
                if name not in names:
                    names.append(name)
                name_id = names.index(name)
            rules.append(HeaderRule(sep, name_id, level, custom))
        return rules, names

    def _make_engine(self, rules: list[HeaderRule]) -> Any:
        """The line scan for these rules, whose ``split(text, names)`` returns the
        documents: each stack (reference, native) says which."""
        raise NotImplementedError

    def split_text(self, text: str) -> list[Document]:
        """Split a Markdown text into documents carrying their headers as metadata."""
        # The attributes are public, so the engine is rebuilt when they change; compared as
        # a snapshot of their values, not by re-deriving the rules (half of a short call).
        snapshot = self._snapshot()
        cache = self.__dict__.get("_engine_cache")
        if snapshot is None or cache is None or cache[0] != snapshot:
            rules, names = self._rules()  # raises as LangChain does on malformed headers
            cache = (snapshot, self._engine_for(rules), names)
            self.__dict__["_engine_cache"] = None if snapshot is None else cache
        return cache[1].split(text, cache[2])

    def _make_hooked_engine(self, rules: list[HeaderRule]) -> Any:
        """The line scan of a subclass overriding LangChain's hooks: the reference calling
        them (:mod:`ferrochunk.reference.hooks`), which each stack names."""
        raise NotImplementedError

    def _engine_for(self, rules: list[HeaderRule]) -> Any:
        """The engine, or where a subclass overrides LangChain's hooks the reference scan
        calling them."""
        if overridden_hooks(self, MarkdownHeaderTextSplitter, HEADER_HOOKS):
            return self._make_hooked_engine(rules)
        return self._make_engine(rules)

    def _is_custom_header(self, line: str, sep: str) -> bool:
        """Whether ``line`` is a custom header for ``sep`` (``**Title**``-style, for the
        markers in ``custom_header_patterns``): LangChain's hook, asked of every line."""
        return sep in self.custom_header_patterns and custom_title(line, sep) is not None

    def _snapshot(self) -> Optional[tuple[Any, ...]]:
        """What the engine is built from, by value; None where the attributes are not the
        plain list and dict they start as (rebuilt on every call then, as LangChain reads
        them on every call)."""
        headers, custom = self.headers_to_split_on, self.custom_header_patterns
        if type(headers) is not list or type(custom) is not dict:
            return None
        if not all(type(h) is tuple or type(h) is list for h in headers):
            return None
        entries = tuple(map(tuple, headers))  # entries copied: a list entry may change
        return entries, tuple(custom.items()), self.return_each_line, self.strip_headers

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_engine_cache", None)  # engines are rebuilt: splitters pickle by arguments
        return state

    def aggregate_lines_to_chunks(self, lines: list[dict[str, Any]]) -> list[Document]:
        """Combine ``{"content", "metadata"}`` lines with common metadata into documents."""
        blocks = [(line["content"], line["metadata"]) for line in lines]
        return [
            Document(page_content=c, metadata=m) for c, m in aggregate(blocks, self.strip_headers)
        ]


__all__ = [
    "Block",
    "HeaderRule",
    "MarkdownHeaderTextSplitter",
    "Metadata",
    "aggregate",
    "custom_title",
]
