"""``langchain_text_splitters.latex``: ``LatexTextSplitter``."""

from __future__ import annotations

from typing import Any

from ..language import Language
from ..split.textsplitter import RecursiveCharacterTextSplitter


class LatexTextSplitter(RecursiveCharacterTextSplitter):
    """Splits LaTeX at chapters, sections and environments (Rust engine).

    As in LangChain, the ``Language.LATEX`` preset is passed without
    ``is_separator_regex``, so its escaped patterns (``"\\n\\\\\\\\chapter{"``) are
    matched literally (quirk reproduced).
    """

    def __init__(self, **kwargs: Any) -> None:
        separators = self.get_separators_for_language(Language.LATEX)
        super().__init__(separators=separators, **kwargs)


__all__ = ["LatexTextSplitter"]
