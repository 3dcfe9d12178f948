"""``langchain_text_splitters.nltk``: ``NLTKTextSplitter`` (sentences by NLTK's Punkt).

NLTK finds the sentences exactly as in LangChain (same calls); merging them into chunks is
ferrochunk's ``_merge_splits``. Punkt's data (``punkt_tab``) must be installed, as there.
"""

from __future__ import annotations

from typing import Any, Callable

from ..split.textsplitter import TextSplitter


class NLTKTextSplitter(TextSplitter):
    """Splitting text using NLTK package."""

    def __init__(
        self,
        separator: str = "\n\n",
        language: str = "english",
        *,
        use_span_tokenize: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._separator = separator
        if use_span_tokenize and self._separator:
            msg = "When use_span_tokenize is True, separator should be ''"
            raise ValueError(msg)
        try:
            import nltk  # noqa: F401
        except ImportError as err:
            msg = "NLTK is not installed, please install it with `pip install nltk`."
            raise ImportError(msg) from err
        if use_span_tokenize:
            self._tokenizer = self._span_tokenizer(language)
        else:
            self._tokenizer = self._sent_tokenizer(language)

    @staticmethod
    def _sent_tokenizer(language: str) -> Callable[[str], list[str]]:
        import nltk

        return lambda text: nltk.tokenize.sent_tokenize(text, language)

    @staticmethod
    def _span_tokenizer(language: str) -> Callable[[str], list[str]]:
        """Sentences from Punkt's spans, each with the gap before it (so they join to the
        text from the first sentence on)."""
        import nltk

        tokenizer = nltk.tokenize._get_punkt_tokenizer(language)

        def _tokenize(text: str) -> list[str]:
            pieces = []
            prev_end = None
            for start, end in tokenizer.span_tokenize(text):
                gap = "" if prev_end is None else text[prev_end:start]
                pieces.append(gap + text[start:end])
                prev_end = end
            return pieces

        return _tokenize

    def split_text(self, text: str) -> list[str]:
        """NLTK's sentences merged into chunks."""
        return self._merge_splits(self._tokenizer(text), self._separator)


__all__ = ["NLTKTextSplitter"]
