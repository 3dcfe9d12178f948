"""``langchain_text_splitters.spacy``: ``SpacyTextSplitter`` (sentences by spaCy).

spaCy's pipeline is made and run exactly as in LangChain (``pipeline="sentencizer"`` is a
blank English pipeline with the rule-based sentencizer; any other name or path goes to
``spacy.load`` without its ``ner`` and ``tagger``); merging is ferrochunk's.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..split.textsplitter import TextSplitter


class SpacyTextSplitter(TextSplitter):
    """Splitting text using Spacy package.

    Per default, Spacy's `en_core_web_sm` model is used and
    its default max_length is 1000000 (it is the length of maximum character
    this model takes which can be increased for large files). For a faster, but
    potentially less accurate splitting, you can use `pipeline='sentencizer'`.
    """

    def __init__(
        self,
        separator: str = "\n\n",
        pipeline: str = "en_core_web_sm",
        max_length: int = 1_000_000,
        *,
        strip_whitespace: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._tokenizer = _make_spacy_pipeline_for_splitting(pipeline, max_length=max_length)
        self._separator = separator
        self._strip_whitespace = strip_whitespace

    def split_text(self, text: str) -> list[str]:
        """spaCy's sentences (with their trailing space unless stripping) merged."""
        keep_space = not self._strip_whitespace
        sentences = (s.text_with_ws if keep_space else s.text for s in self._tokenizer(text).sents)
        return self._merge_splits(sentences, self._separator)


def _make_spacy_pipeline_for_splitting(pipeline: str, *, max_length: int = 1_000_000) -> Any:
    try:
        spacy: Any = import_module("spacy")
        english = import_module("spacy.lang.en").English
    except ImportError as err:
        msg = "Spacy is not installed, please install it with `pip install spacy`."
        raise ImportError(msg) from err
    if pipeline == "sentencizer":
        nlp = english()
        nlp.add_pipe("sentencizer")
        return nlp
    nlp = spacy.load(pipeline, exclude=["ner", "tagger"])
    nlp.max_length = max_length
    return nlp


__all__ = ["SpacyTextSplitter"]
