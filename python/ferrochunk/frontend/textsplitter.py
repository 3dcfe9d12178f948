"""The LangChain-compatible splitter classes, shared by both engines.

Arguments, validation, documents, start indices, warnings and the engine cache live here.
The reference (:mod:`ferrochunk.reference.split.textsplitter`) and the Rust stack
(:mod:`ferrochunk.split.textsplitter`) each add only their engine (``_make_engine``) and
token tools, so both behave alike by construction and the tests compare only the engines.
"""

from __future__ import annotations

import copy
import logging
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Callable, Literal, Optional, Union

from ..documents import (
    BaseDocumentTransformer,
    Document,
    all_plain,
    make_all_documents,
    make_documents,
)
from ..language import Language, get_separators_for_language
from .hooks import overridden_hooks
from .tokens import AllowedSpecial, split_on_tokens

# LangChain logs its size warning here; users' logging filters keep working.
logger = logging.getLogger("langchain_text_splitters.base")

KeepSeparator = Union[bool, Literal["start", "end"]]
SeparatorSpec = tuple[str, bool, str]  # (separator, is_regex, text to join pieces with)
_LOOKAROUND_PREFIXES = ("(?=", "(?<!", "(?<=", "(?!")


def log_oversized(total: int, chunk_size: int) -> None:
    """LangChain's warning, on LangChain's logger, at the same moments."""
    logger.warning(
        "Created a chunk of size %d, which is longer than the specified %d", total, chunk_size
    )


def keep_mode(keep_separator: object) -> Union[bool, str]:
    """LangChain's reading of ``keep_separator``: falsy drops, ``"end"`` appends, else starts."""
    if not keep_separator:
        return False
    return "end" if keep_separator == "end" else "start"


class TokenizeLength:
    """LangChain's ``from_huggingface_tokenizer`` length, ``len(tokenizer.tokenize(text))``,
    as a class rather than LangChain's closure, so splitters holding it pickle (with the
    tokenizer, as ``transformers`` pickles it) to worker processes."""

    __slots__ = ("tokenizer",)

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer

    def __call__(self, text: str) -> int:
        return len(self.tokenizer.tokenize(text))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.tokenizer,))


def huggingface_tokenize_length(tokenizer: Any) -> Callable[[str], int]:
    """LangChain's ``from_huggingface_tokenizer`` length: ``len(tokenizer.tokenize(text))``."""
    return TokenizeLength(tokenizer)


class TextSplitter(BaseDocumentTransformer, ABC):
    """Interface for splitting text into chunks (``langchain_text_splitters.TextSplitter``)."""

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
        self._engine_cache: Optional[tuple[tuple, Any]] = None

    @abstractmethod
    def split_text(self, text: str) -> list[str]:
        """Split text into multiple components."""

    # -- engines ---------------------------------------------------------------------------

    def _make_engine(self, specs: list[SeparatorSpec], recursive: bool) -> Any:
        """The engine for these settings: each stack (reference, native) says which."""
        raise NotImplementedError

    def _make_hooked_engine(self, specs: list[SeparatorSpec], recursive: bool, keep: Any) -> Any:
        """The engine of a subclass overriding LangChain's hooks: the reference calling them
        (:mod:`ferrochunk.reference.hooks`), which each stack names."""
        raise NotImplementedError

    def _engine_spec(
        self, separators: Optional[list[str]] = None
    ) -> tuple[list[SeparatorSpec], bool]:
        """``(separators, recursive)`` for the engine, for the splitter's own separators or
        (the recursive splitter's ``_split_text`` hook) the ``separators`` given; each
        splitter class says which."""
        raise NotImplementedError

    def _engine(
        self,
        key: tuple[Any, ...],
        separators: Optional[list[str]] = None,
    ) -> Any:
        """The engine built for ``key`` (from :meth:`_engine_spec`), cached until a setting
        changes. ``split_text`` tests the cache hit inline: it runs once per text, and a
        document of a few kB splits in microseconds."""
        cache = self._engine_cache
        if cache is None or cache[0] != key:
            specs, recursive = self._engine_spec(separators)
            base = RecursiveCharacterTextSplitter if recursive else TextSplitter
            if overridden_hooks(self, base):
                keep = keep_mode(self._keep_separator)
                engine: Any = self._make_hooked_engine(specs, recursive, keep)
            else:
                engine = self._make_engine(specs, recursive)
            cache = self._engine_cache = (key, engine)
        return cache[1]

    def _split_texts(self, texts: list[str]) -> Iterator[list[str]]:
        """``split_text`` of each text, in order (the native stack runs many in parallel)."""
        return (self.split_text(text) for text in texts)

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
        metadatas_ = metadatas or [{}] * len(texts)
        if type(texts) is list and all_plain(metadatas_, len(texts)):
            # Every text split first, then every document made in one native call: no
            # metadata to deep-copy in Python, so nothing observable moves (the size
            # warnings come as each text is split, as before; an error stops the split).
            chunk_lists = [c if type(c) is list else list(c) for c in self._split_texts(texts)]
            starts = None
            if self._add_start_index:
                starts = [self._start_indexes(t, c) for t, c in zip(texts, chunk_lists)]
            try:
                return make_all_documents(chunk_lists, metadatas_, starts)
            except TypeError:  # a subclass's chunks that are no `str`: see `_constructed`
                if all(type(c) is str for chunks in chunk_lists for c in chunks):
                    raise
            documents = []
            for i, chunks in enumerate(chunk_lists):
                at = None if starts is None else starts[i]
                documents += _constructed(chunks, metadatas_[i], at)
            return documents
        documents: list[Document] = []
        if isinstance(texts, (list, tuple)):
            pairs: Iterable[tuple[str, list[str]]] = zip(texts, self._split_texts(texts))
        else:  # read once: `texts` may be an iterator, as LangChain's loop allows
            pairs = ((text, self.split_text(text)) for text in texts)
        for i, (text, chunks) in enumerate(pairs):
            chunks = chunks if type(chunks) is list else list(chunks)
            if not chunks:  # LangChain reads a text's metadata only to copy it into a chunk
                continue
            starts = self._start_indexes(text, chunks) if self._add_start_index else None
            if _plain(metadatas_[i]) and (not chunks or type(chunks[0]) is str):
                try:
                    documents += make_documents(chunks, metadatas_[i], starts)
                    continue
                except TypeError:  # a later chunk is no `str`: see `_constructed`
                    pass
            documents += _constructed(chunks, metadatas_[i], starts)
        return documents

    def _start_indexes(self, text: str, chunks: list[str]) -> list[int]:
        """Each chunk's ``start_index`` as LangChain finds it: ``text.find`` from just before
        the previous chunk's end (not the true offset where passages repeat)."""
        starts = []
        index = previous_chunk_len = 0
        for chunk in chunks:
            offset = index + previous_chunk_len - self._chunk_overlap
            if type(chunk) is str:
                index = _find(text, chunk, max(0, offset))
            else:  # a subclass's chunk: `str.find` takes or refuses it as in LangChain
                index = text.find(chunk, max(0, offset))
            starts.append(index)
            previous_chunk_len = len(chunk)
        return starts

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

    @staticmethod
    def _huggingface_length_function(tokenizer: Any) -> Callable[[str], int]:
        """LangChain's length, ``len(tokenizer.tokenize(text))``, calling the tokenizer."""
        return huggingface_tokenize_length(tokenizer)

    # -- token sizes -----------------------------------------------------------------------

    @staticmethod
    def _tiktoken_length_function(
        encoding_name: str = "gpt2",
        model_name: Optional[str] = None,
        allowed_special: Optional[AllowedSpecial] = None,
        disallowed_special: AllowedSpecial = "all",
    ) -> Callable[[str], int]:
        """A length counting tokens of a tiktoken encoding: each stack says whose."""
        raise NotImplementedError

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
    """Splits text into windows of ``chunk_size`` tokens (LangChain's ``TokenTextSplitter``)."""

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
        self._tokenizer = self._load_tokenizer(encoding_name, model_name)
        self._allowed_special = set() if allowed_special is None else allowed_special
        self._disallowed_special = disallowed_special

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_tokenizer"] = None  # reloaded by name: no rank table inside the pickle
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._tokenizer = self._load_tokenizer(self._encoding_name, self._model_name)

    @staticmethod
    def _load_tokenizer(encoding_name: str, model_name: Optional[str]) -> Any:
        """The encoder: tiktoken in the reference, ferrochunk's in the native package."""
        raise NotImplementedError

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
        """Windows of ``chunk_size`` token ids stepping by ``chunk_size - chunk_overlap``."""

        def _encode(_text: str) -> list[int]:
            return self._tokenizer.encode(
                _text,
                allowed_special=self._allowed_special,
                disallowed_special=self._disallowed_special,
            )

        return split_on_tokens(
            text, _encode, self._tokenizer.decode, self._chunk_size, self._chunk_overlap
        )


class CharacterTextSplitter(TextSplitter):
    """Splitting text that looks at characters (one separator, no recursion)."""

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
        return engine.split_text(text, self._length_function, log_oversized)

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
            self._separator.startswith(p) for p in _LOOKAROUND_PREFIXES
        )
        # Zero-width look-around separators are never re-inserted between pieces.
        join = "" if is_lookaround else self._separator
        return [(self._separator, self._is_separator_regex, join)], False


class RecursiveCharacterTextSplitter(TextSplitter):
    """Splitting text by recursively looking at characters, paragraph first."""

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
        return engine.split_text(text, self._length_function, log_oversized)

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


def _constructed(chunks: list[Any], metadata: Any, starts: Optional[list[int]]) -> list[Document]:
    """LangChain's documents of one text's chunks, each with a deep copy of ``metadata``, by
    ``Document``'s own constructor: what a subclass whose ``split_text`` returns something
    other than ``str`` gets (pydantic's validation, which takes ``bytes`` and refuses the
    rest), and every text whose metadata is not plain."""
    documents = []
    for k, chunk in enumerate(chunks):
        copied = copy.deepcopy(metadata)
        if starts is not None:
            copied["start_index"] = starts[k]
        documents.append(Document(page_content=chunk, metadata=copied))
    return documents


# Types `copy.deepcopy` returns as they are: a dict holding only these is deep-copied by `copy`.
_ATOMIC = frozenset({str, int, float, bool, type(None), bytes})


def _find(text: str, chunk: str, start: int) -> int:
    """``text.find(chunk, start)``, sooner for long chunks: CPython prepares a needle of 100
    characters or more for its two-way search on every call (most of the cost of LangChain's
    ``start_index`` with 1000-character chunks). Here the chunk's first 32 characters are
    found and the rest compared; after eight such places that do not hold the whole chunk,
    ``find`` takes over from the next one (none before it does), so repetitive text costs
    little more than ``find`` alone."""
    head = chunk[:32]
    at = text.find(head, start)
    for _ in range(8):
        if at < 0 or text.startswith(chunk, at):
            return at
        at = text.find(head, at + 1)
    return text.find(chunk, at) if at >= 0 else -1


def _plain(metadata: Any) -> bool:
    """Whether ``metadata`` is a plain ``dict`` of strings, numbers, ``bytes`` and ``None``:
    then ``copy.deepcopy`` of it is ``dict.copy`` and its Documents may be made by
    :func:`make_documents` (cheaper than LangChain's deep copy and pydantic constructor).
    Anything else takes LangChain's own path."""
    return type(metadata) is dict and all(
        type(k) in _ATOMIC and type(v) in _ATOMIC for k, v in metadata.items()
    )
