"""LangChain's ``MarkdownHeaderTextSplitter`` and ``MarkdownTextSplitter`` on the Rust engine.

The shared class of :mod:`ferrochunk.frontend.markdown_header` with the line scan done in
Rust; text the Rust side cannot take (lone surrogates) and header levels that
are not machine integers stay on the pure-Python scan, so the output is always LangChain's.
"""

from __future__ import annotations

from typing import Any

from .. import _native
from ..documents import Document, make_document
from ..frontend import markdown_header as front
from ..frontend.markdown_header import HeaderRule
from ..language import Language, get_separators_for_language
from ..reference.markdown.header import HeaderEngine, HookedHeaderEngine
from ..split.textsplitter import RecursiveCharacterTextSplitter

_I64 = (-(2**63), 2**63 - 1)
# Documents made in Rust, when ferrochunk.documents found that maker exact for this Document.
_MAKER = make_document if isinstance(make_document, _native.DocumentMaker) else None


class NativeHeaderEngine:
    """The Rust line scan, with the reference engine for text it cannot encode."""

    __slots__ = ("_fallback", "_native")

    def __init__(self, native: _native.HeaderSplitter, fallback: HeaderEngine) -> None:
        self._native = native
        self._fallback = fallback

    def split(self, text: str, names: list[Any]) -> list[Document]:
        """The documents, metadata keyed by header name, made in Rust where they can be."""
        if not isinstance(text, str):  # LangChain's error, from `text.split`, as given
            return self._fallback.split(text, names)
        try:
            if _MAKER is not None:
                return self._native.split(text, names, _MAKER)
            return [make_document(c, m) for c, m in self._native.split(text, names)]
        except UnicodeEncodeError:
            return self._fallback.split(text, names)


class MarkdownHeaderTextSplitter(front.MarkdownHeaderTextSplitter):
    """Drop-in for ``langchain_text_splitters.MarkdownHeaderTextSplitter``, on Rust.

    >>> from ferrochunk import MarkdownHeaderTextSplitter
    >>> s = MarkdownHeaderTextSplitter([("#", "H1"), ("##", "H2")])
    >>> [(d.page_content, d.metadata) for d in s.split_text("# A\\nx\\n## B\\ny")]
    [('x', {'H1': 'A'}), ('y', {'H1': 'A', 'H2': 'B'})]
    """

    def _make_engine(self, rules: list[HeaderRule]) -> Any:
        fallback = HeaderEngine(rules, bool(self.return_each_line), bool(self.strip_headers))
        if not all(type(r.level) is int and _I64[0] <= r.level <= _I64[1] for r in rules):
            return fallback
        if not all(isinstance(r.sep, str) for r in rules):
            return fallback
        native = _native.HeaderSplitter(
            [tuple(r) for r in rules], bool(self.return_each_line), bool(self.strip_headers)
        )
        return NativeHeaderEngine(native, fallback)

    def _make_hooked_engine(self, rules: list[HeaderRule]) -> Any:
        return HookedHeaderEngine(self, rules)


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


__all__ = ["MarkdownHeaderTextSplitter", "MarkdownTextSplitter"]
