"""``langchain_text_splitters.sentence_transformers``: token windows of a
sentence-transformers model's tokenizer (``SentenceTransformersTokenTextSplitter``).

The model is loaded and its tokenizer called exactly as in LangChain, so the windows are
the same; the model itself comes from the Hugging Face hub or a local path, as there.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Optional

from ..split.textsplitter import TextSplitter
from .base import Tokenizer, split_text_on_tokens


class SentenceTransformersTokenTextSplitter(TextSplitter):
    """Splitting text to tokens using sentence model tokenizer."""

    _max_length_equal_32_bit_integer: int = 2**32

    def __init__(
        self,
        chunk_overlap: int = 50,
        model_name: str = "sentence-transformers/all-mpnet-base-v2",
        tokens_per_chunk: Optional[int] = None,
        model_kwargs: Optional[dict[str, Any]] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs, chunk_overlap=chunk_overlap)
        try:
            model_cls = import_module("sentence_transformers").SentenceTransformer
        except ImportError as err:
            msg = (
                "Could not import sentence_transformers python package. "
                "This is needed in order to use SentenceTransformersTokenTextSplitter. "
                "Please install it with `pip install sentence-transformers`."
            )
            raise ImportError(msg) from err
        self.model_name = model_name
        self._model = model_cls(self.model_name, **(model_kwargs or {}))
        self.tokenizer = self._model.tokenizer
        self._initialize_chunk_configuration(tokens_per_chunk=tokens_per_chunk)

    def _initialize_chunk_configuration(self, *, tokens_per_chunk: Optional[int]) -> None:
        self.maximum_tokens_per_chunk = self._model.max_seq_length
        if tokens_per_chunk is None:
            if self.maximum_tokens_per_chunk is None:
                msg = (
                    "The model does not have a maximum token limit, "
                    "and tokens_per_chunk was not provided. "
                    "Please provide a value for tokens_per_chunk."
                )
                raise ValueError(msg)
            tokens_per_chunk = self.maximum_tokens_per_chunk
        self.tokens_per_chunk = tokens_per_chunk
        limit = self.maximum_tokens_per_chunk
        if limit is not None and self.tokens_per_chunk > limit:
            msg = (
                f"The token limit of the models '{self.model_name}'"
                f" is: {limit}."
                f" Argument tokens_per_chunk={self.tokens_per_chunk}"
                f" > maximum token limit."
            )
            raise ValueError(msg)

    def split_text(self, text: str) -> list[str]:
        """Windows of the model's token ids (without its start and stop ids), decoded."""
        tokenizer = Tokenizer(
            chunk_overlap=self._chunk_overlap,
            tokens_per_chunk=self.tokens_per_chunk,
            decode=self.tokenizer.decode,
            encode=lambda text: self._encode(text)[1:-1],
        )
        return split_text_on_tokens(text=text, tokenizer=tokenizer)

    def count_tokens(self, *, text: str) -> int:
        """Tokens of ``text`` with the model's start and stop ids."""
        return len(self._encode(text))

    def _encode(self, text: str) -> list[int]:
        ids: list[int] = self.tokenizer.encode(
            text,
            max_length=self._max_length_equal_32_bit_integer,
            truncation="do_not_truncate",
        )
        return ids


__all__ = ["SentenceTransformersTokenTextSplitter"]
