"""``langchain_text_splitters.konlpy``: ``KonlpyTextSplitter`` (Korean sentences by Kkma).

KoNLPy's Kkma (a Java library, through JPype) finds the sentences as in LangChain;
merging is ferrochunk's.
"""

from __future__ import annotations

from typing import Any

from ..split.textsplitter import TextSplitter


class KonlpyTextSplitter(TextSplitter):
    """Splitting text using Konlpy package.

    It is good for splitting Korean text.
    """

    def __init__(self, separator: str = "\n\n", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._separator = separator
        try:
            import konlpy
        except ImportError as err:
            msg = "Konlpy is not installed, please install it with `pip install konlpy`."
            raise ImportError(msg) from err
        self.kkma = konlpy.tag.Kkma()

    def split_text(self, text: str) -> list[str]:
        """Kkma's sentences merged into chunks."""
        return self._merge_splits(self.kkma.sentences(text), self._separator)


__all__ = ["KonlpyTextSplitter"]
