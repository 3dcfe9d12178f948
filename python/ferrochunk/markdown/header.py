"""LangChain's ``MarkdownHeaderTextSplitter`` and ``MarkdownTextSplitter``.

``MarkdownHeaderTextSplitter`` is one class holding one line scan, which
:func:`ferrochunk.engines.header_engine` chooses: Rust's, with the pure-Python scan for text
Rust cannot take (lone surrogates) and header levels that are not machine integers, so the
output is always LangChain's (the Python scan alone for :mod:`ferrochunk.reference`'s).

Behaviour reproduced from
``langchain_text_splitters`` 1.1, quirks included: lines are stripped and lose their
non-printable characters, a fence is a line starting with three backticks (and no second
triple) or tildes, a header is a line starting with one of the ``headers_to_split_on``
markers followed by a space or nothing, blank lines end a block, and blocks with equal
metadata are joined with ``"  \\n"``.
"""

from __future__ import annotations

from typing import Any, Optional

from ..documents import Document
from ..engines.common import NATIVE
from ..engines.markdown import NativeHeaderEngine, header_engine
from ..frontend.markdown_header import HeaderRule, aggregate, custom_title
from ..language import Language, get_separators_for_language
from ..split.textsplitter import RecursiveCharacterTextSplitter


class MarkdownHeaderTextSplitter:
    """Drop-in for ``langchain_text_splitters.MarkdownHeaderTextSplitter``, on Rust.

    >>> from ferrochunk import MarkdownHeaderTextSplitter
    >>> s = MarkdownHeaderTextSplitter([("#", "H1"), ("##", "H2")])
    >>> [(d.page_content, d.metadata) for d in s.split_text("# A\\nx\\n## B\\ny")]
    [('x', {'H1': 'A'}), ('y', {'H1': 'A', 'H2': 'B'})]
    """

    _stack = NATIVE  # the stack ferrochunk.engines builds this class's engine on

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

    def split_text(self, text: str) -> list[Document]:
        """Split a Markdown text into documents carrying their headers as metadata."""
        # The attributes are public, so the engine is rebuilt when they change; compared as
        # a snapshot of their values, not by re-deriving the rules (half of a short call).
        snapshot = self._snapshot()
        cache = self.__dict__.get("_engine_cache")
        if snapshot is None or cache is None or cache[0] != snapshot:
            rules, names = self._rules()  # raises as LangChain does on malformed headers
            cache = (snapshot, header_engine(self, rules), names)
            self.__dict__["_engine_cache"] = None if snapshot is None else cache
        documents: list[Document] = cache[1].split(text, cache[2])
        return documents

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
        if not all(type(h) in (tuple, list) for h in headers):
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


class MarkdownTextSplitter(RecursiveCharacterTextSplitter):
    """Drop-in for ``langchain_text_splitters.MarkdownTextSplitter``.

    As in LangChain, the Markdown preset is passed WITHOUT ``is_separator_regex``, so its
    patterns (``"\\n#{1,6} "`` ...) are matched literally (quirk reproduced).

    >>> from ferrochunk import MarkdownTextSplitter
    >>> MarkdownTextSplitter(chunk_size=12, chunk_overlap=0).split_text("# A\\ntext\\n## B\\nmore")
    ['# A\\ntext', '## B\\nmore']
    """

    def __init__(self, **kwargs: Any) -> None:
        separators = get_separators_for_language(Language.MARKDOWN)
        super().__init__(separators=separators, **kwargs)


__all__ = ["MarkdownHeaderTextSplitter", "MarkdownTextSplitter", "NativeHeaderEngine"]
