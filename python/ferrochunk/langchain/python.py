"""``langchain_text_splitters.python``: ``PythonCodeTextSplitter``."""

from __future__ import annotations

from typing import Any

from ..language import Language
from ..split.textsplitter import RecursiveCharacterTextSplitter


class PythonCodeTextSplitter(RecursiveCharacterTextSplitter):
    """Splits Python code at classes, then functions, then lines (Rust engine).

    The separators are the ``Language.PYTHON`` preset, matched literally as in LangChain.

    >>> from ferrochunk.langchain import PythonCodeTextSplitter
    >>> splitter = PythonCodeTextSplitter(chunk_size=20, chunk_overlap=0)
    >>> splitter.split_text("x = 1\\ndef f():\\n    pass")
    ['x = 1', 'def f():\\n    pass']
    """

    def __init__(self, **kwargs: Any) -> None:
        separators = self.get_separators_for_language(Language.PYTHON)
        super().__init__(separators=separators, **kwargs)


__all__ = ["PythonCodeTextSplitter"]
