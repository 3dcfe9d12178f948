"""The LangChain drop-in splitters: ``TextSplitter``, ``CharacterTextSplitter``,
``RecursiveCharacterTextSplitter``, ``TokenTextSplitter``.

One class each: arguments, validation, documents, start indices, warnings and the engine
cache. The engine comes from :mod:`ferrochunk.engines` (``text_engine``, ``token_windows``):
Rust for ``ferrochunk``'s classes, with the pure-Python reference for what Rust cannot
reproduce exactly, so the output is always LangChain's; the reference alone for
:mod:`ferrochunk.reference`'s, which are these classes bound to it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Callable, Optional

from ..documents import BaseDocumentTransformer, Document
from ..engines.common import NATIVE
from ..engines.split import text_batch, text_engine
from ..engines.tokens import (
    huggingface_length,
    tiktoken_length,
    token_batch,
    token_encoder,
    token_windows,
)
from ..frontend.textsplitter import (
    LOOKAROUND_PREFIXES,
    KeepSeparator,
    SeparatorSpec,
    create_documents,
    log_oversized,
)
from ..frontend.tokens import AllowedSpecial
from ..language import Language, get_separators_for_language

__all__ = [
    "CharacterTextSplitter",
    "RecursiveCharacterTextSplitter",
    "TextSplitter",
    "TokenTextSplitter",
]


class TextSplitter(BaseDocumentTransformer, ABC):
    """Interface for splitting text into chunks (``langchain_text_splitters.TextSplitter``).

    ``create_documents``, ``split_documents`` and ``transform_documents`` split many texts
    in parallel (threads: ``FERROCHUNK_NUM_THREADS``, else ``RAYON_NUM_THREADS``, else the
    CPUs this process may use) with exactly LangChain's output; a ``length_function``
    written in Python (not a native token counter) keeps them one text at a time.
    """

    _stack = NATIVE  # the stack ferrochunk.engines builds this class's engines on

    def __init__(
        self,
        chunk_size: int = 4000,
        chunk_overlap: int = 200,
        length_function: Callable[[str], int] = len,
        keep_separator: KeepSeparator = False,
        add_start_index: bool = False,
        strip_whitespace: bool = True,
    ) -> None:
        if chunk_size <= 0:
            msg = f"chunk_size must be > 0, got {chunk_size}"
            raise ValueError(msg)
        if chunk_overlap < 0:
            msg = f"chunk_overlap must be >= 0, got {chunk_overlap}"
            raise ValueError(msg)
        if chunk_overlap > chunk_size:
            msg = (
                f"Got a larger chunk overlap ({chunk_overlap}) than chunk size "
                f"({chunk_size}), should be smaller."
            )
            raise ValueError(msg)
        self._chunk_size = chunk_size
        self._chunk_overlap = chunk_overlap
        self._length_function = length_function
        self._keep_separator = keep_separator
        self._add_start_index = add_start_index
        self._strip_whitespace = strip_whitespace
        self._engine_cache: Optional[tuple[tuple[Any, ...], Any]] = None

    @abstractmethod
    def split_text(self, text: str) -> list[str]:
        """Split text into multiple components."""

    # -- the engine ------------------------------------------------------------------------

    def _engine_spec(
        self, separators: Optional[list[str]] = None
    ) -> tuple[list[SeparatorSpec], bool]:
        """``(separators, recursive)`` for the engine, for the splitter's own separators or
        (the recursive splitter's ``_split_text`` hook) the ``separators`` given; each
        splitter class that splits by separators says which."""
        raise NotImplementedError(f"{type(self).__name__} does not split by separators")

    def _engine(self, key: tuple[Any, ...], separators: Optional[list[str]] = None) -> Any:
        """The engine built for ``key`` (by :func:`ferrochunk.engines.text_engine`), cached
        until a setting changes. ``split_text`` tests the cache hit inline: it runs once per
        text, and a document of a few kB splits in microseconds."""
        cache = self._engine_cache
        if cache is None or cache[0] != key:
            specs, recursive = self._engine_spec(separators)
            cache = self._engine_cache = (key, text_engine(self, specs, recursive))
        return cache[1]

    def _split_texts(self, texts: list[str]) -> Iterator[list[str]]:
        """``split_text`` of each text, in order (on the pool where the engine can)."""
        batch = text_batch(self, texts)
        return (self.split_text(text) for text in texts) if batch is None else batch

    def _join_docs(self, docs: list[str], separator: str) -> Optional[str]:
        """LangChain's helper: join, strip if asked, ``None`` when nothing is left."""
        text = separator.join(docs)
        if self._strip_whitespace:
            text = text.strip()
        return text or None

    def _merge_splits(self, splits: Iterable[str], separator: str) -> list[str]:
        """LangChain's helper, kept for code that calls it: merge pieces into chunks."""
        from ..reference.split.merge import merge  # the algorithm; only this helper needs it

        splits = list(splits)
        lengths = [self._length_function(s) for s in splits]
        sep_len = self._length_function(separator)
        groups, oversized = merge(lengths, sep_len, self._chunk_size, self._chunk_overlap)
        self._warn(oversized)
        docs = (self._join_docs(splits[lo:hi], separator) for lo, hi in groups)
        return [doc for doc in docs if doc is not None]

    def _warn(self, oversized: list[int]) -> None:
        for total in oversized:
            log_oversized(total, self._chunk_size)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_engine_cache"] = None  # engines are rebuilt, so splitters pickle by arguments
        return state

    # -- documents -------------------------------------------------------------------------

    def create_documents(
        self, texts: list[str], metadatas: Optional[list[dict[Any, Any]]] = None
    ) -> list[Document]:
        """Documents from texts; ``start_index`` is found the way LangChain finds it."""
        return create_documents(self, texts, metadatas)

    def split_documents(self, documents: Iterable[Document]) -> list[Document]:
        """Split documents, keeping each one's metadata."""
        texts, metadatas = [], []
        for doc in documents:
            texts.append(doc.page_content)
            metadatas.append(doc.metadata)
        return self.create_documents(texts, metadatas=metadatas)

    def transform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        """Transform a sequence of documents by splitting them."""
        return self.split_documents(list(documents))

    # -- token sizes -----------------------------------------------------------------------

    @classmethod
    def from_huggingface_tokenizer(cls, tokenizer: Any, **kwargs: Any) -> TextSplitter:
        """A splitter that measures length with a ``transformers`` tokenizer."""
        try:
            from transformers.tokenization_utils_base import PreTrainedTokenizerBase
        except ImportError as err:
            msg = (
                "Could not import transformers python package. "
                "Please install it with `pip install transformers`."
            )
            raise ValueError(msg) from err
        if not isinstance(tokenizer, PreTrainedTokenizerBase):
            msg = "Tokenizer received was not an instance of PreTrainedTokenizerBase"
            raise ValueError(msg)
        return cls(length_function=cls._huggingface_length_function(tokenizer), **kwargs)

    @classmethod
    def _huggingface_length_function(cls, tokenizer: Any) -> Callable[[str], int]:
        """LangChain's length, ``len(tokenizer.tokenize(text))``: counted in Rust for a
        ``transformers`` fast tokenizer whose ``tokenize()`` is its backend's own."""
        return huggingface_length(cls._stack, tokenizer)

    @classmethod
    def _tiktoken_length_function(
        cls,
        encoding_name: str = "gpt2",
        model_name: Optional[str] = None,
        allowed_special: Optional[AllowedSpecial] = None,
        disallowed_special: AllowedSpecial = "all",
    ) -> Callable[[str], int]:
        """Token counts of a tiktoken encoding: in Rust, so the native engine sizes pieces
        without calling Python (tiktoken itself on the reference)."""
        return tiktoken_length(
            cls._stack, encoding_name, model_name, allowed_special, disallowed_special
        )

    @classmethod
    def from_tiktoken_encoder(
        cls,
        encoding_name: str = "gpt2",
        model_name: Optional[str] = None,
        allowed_special: Optional[AllowedSpecial] = None,
        disallowed_special: AllowedSpecial = "all",
        **kwargs: Any,
    ) -> Any:
        """A splitter that measures length in tokens of a tiktoken encoding."""
        length_function = cls._tiktoken_length_function(
            encoding_name, model_name, allowed_special, disallowed_special
        )
        return cls(length_function=length_function, **kwargs)


class TokenTextSplitter(TextSplitter):
    """Drop-in for ``langchain_text_splitters.TokenTextSplitter``: encodes and decodes in Rust.

    >>> from ferrochunk import TokenTextSplitter
    >>> TokenTextSplitter(chunk_size=2, chunk_overlap=0).split_text("one two three")
    ['one two', ' three']
    """

    def __init__(
        self,
        encoding_name: str = "gpt2",
        model_name: Optional[str] = None,
        allowed_special: Optional[AllowedSpecial] = None,
        disallowed_special: AllowedSpecial = "all",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._encoding_name = encoding_name
        self._model_name = model_name
        self._tokenizer = token_encoder(self._stack, encoding_name, model_name)
        self._allowed_special = set() if allowed_special is None else allowed_special
        self._disallowed_special = disallowed_special

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_tokenizer"] = None  # reloaded by name: no rank table inside the pickle
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._tokenizer = token_encoder(self._stack, self._encoding_name, self._model_name)

    @classmethod
    def from_tiktoken_encoder(
        cls,
        encoding_name: str = "gpt2",
        model_name: Optional[str] = None,
        allowed_special: Optional[AllowedSpecial] = None,
        disallowed_special: AllowedSpecial = "all",
        **kwargs: Any,
    ) -> Any:
        """Also seeds the constructor with the encoding, as LangChain does."""
        length_function = cls._tiktoken_length_function(
            encoding_name, model_name, allowed_special, disallowed_special
        )
        return cls(
            length_function=length_function,
            encoding_name=encoding_name,
            model_name=model_name,
            allowed_special=allowed_special,
            disallowed_special=disallowed_special,
            **kwargs,
        )

    def split_text(self, text: str) -> list[str]:
        """Windows of ``chunk_size`` token ids stepping by ``chunk_size - chunk_overlap``,
        decoded with U+FFFD for cut characters."""
        return token_windows(self, text)

    def _split_texts(self, texts: list[str]) -> Iterator[list[str]]:
        batch = token_batch(self, texts)
        return (self.split_text(text) for text in texts) if batch is None else batch


class CharacterTextSplitter(TextSplitter):
    """Drop-in for ``langchain_text_splitters.CharacterTextSplitter``: one separator.

    >>> from ferrochunk import CharacterTextSplitter
    >>> CharacterTextSplitter(separator=" ", chunk_size=7, chunk_overlap=0).split_text("a b c d e")
    ['a b c d', 'e']
    """

    def __init__(self, separator: str = "\n\n", is_separator_regex: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        self._separator = separator
        self._is_separator_regex = is_separator_regex

    def split_text(self, text: str) -> list[str]:
        """Split on the separator and merge the pieces into chunks."""
        key = (  # `_key()`, spelled out: a method call is a visible part of a short split
            self._chunk_size,
            self._chunk_overlap,
            self._keep_separator,
            self._strip_whitespace,
            self._separator,
            self._is_separator_regex,
        )
        cache = self._engine_cache
        engine = cache[1] if cache is not None and cache[0] == key else self._engine(key)
        chunks: list[str] = engine.split_text(text, self._length_function, log_oversized)
        return chunks

    def _key(self) -> tuple[Any, ...]:
        """Everything the engine depends on, to notice when a setting was changed."""
        return (
            self._chunk_size,
            self._chunk_overlap,
            self._keep_separator,
            self._strip_whitespace,
            self._separator,
            self._is_separator_regex,
        )

    def _engine_spec(
        self, separators: Optional[list[str]] = None
    ) -> tuple[list[SeparatorSpec], bool]:
        is_lookaround = self._is_separator_regex and any(
            self._separator.startswith(p) for p in LOOKAROUND_PREFIXES
        )
        # Zero-width look-around separators are never re-inserted between pieces.
        join = "" if is_lookaround else self._separator
        return [(self._separator, self._is_separator_regex, join)], False


class RecursiveCharacterTextSplitter(TextSplitter):
    """Drop-in for ``langchain_text_splitters.RecursiveCharacterTextSplitter``: separators
    tried in order, paragraph first.

    >>> from ferrochunk import RecursiveCharacterTextSplitter
    >>> splitter = RecursiveCharacterTextSplitter(chunk_size=10, chunk_overlap=0)
    >>> splitter.split_text("Hello world. Bye.")
    ['Hello', 'world.', 'Bye.']
    """

    def __init__(
        self,
        separators: Optional[list[str]] = None,
        keep_separator: KeepSeparator = True,
        is_separator_regex: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(keep_separator=keep_separator, **kwargs)
        self._separators = separators or ["\n\n", "\n", " ", ""]
        self._is_separator_regex = is_separator_regex

    def split_text(self, text: str) -> list[str]:
        """Split the input text into chunks using the separators in order."""
        return self._split_text(text, self._separators)

    def _split_text(self, text: str, separators: list[str]) -> list[str]:
        """Split with ``separators`` instead of the splitter's own (LangChain's hook, used
        by subclasses that choose separators per text, e.g. ``JSFrameworkTextSplitter``)."""
        key = (  # `_key()` for `separators`, spelled out (it runs once per text)
            self._chunk_size,
            self._chunk_overlap,
            self._keep_separator,
            self._strip_whitespace,
            self._is_separator_regex,
            *separators,
        )
        cache = self._engine_cache
        if cache is not None and cache[0] == key:
            engine = cache[1]
        else:
            engine = self._engine(key, separators)
        chunks: list[str] = engine.split_text(text, self._length_function, log_oversized)
        return chunks

    def _key(self) -> tuple[Any, ...]:
        return (
            self._chunk_size,
            self._chunk_overlap,
            self._keep_separator,
            self._strip_whitespace,
            self._is_separator_regex,
            *self._separators,
        )

    def _engine_spec(
        self, separators: Optional[list[str]] = None
    ) -> tuple[list[SeparatorSpec], bool]:
        regex = self._is_separator_regex
        seps = self._separators if separators is None else separators
        return [(s, regex, s) for s in seps], True

    @classmethod
    def from_language(cls, language: Language, **kwargs: Any) -> RecursiveCharacterTextSplitter:
        """A splitter with the separator preset for a programming or markup language."""
        separators = cls.get_separators_for_language(language)
        return cls(separators=separators, is_separator_regex=True, **kwargs)

    @staticmethod
    def get_separators_for_language(language: Language) -> list[str]:
        """The separator preset for ``language``."""
        return get_separators_for_language(language)
