"""What the LangChain drop-ins (:mod:`ferrochunk.split.textsplitter`) share with no engine:
LangChain's size warning and ``keep_separator`` reading, the Hugging Face length, and the
documents of ``create_documents`` with LangChain's ``start_index``.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterable
from typing import Any, Callable, Literal, Optional, Union

from ..documents import Document, all_plain, make_all_documents, make_documents

# LangChain logs its size warning here; users' logging filters keep working.
logger = logging.getLogger("langchain_text_splitters.base")

KeepSeparator = Union[bool, Literal["start", "end"]]
SeparatorSpec = tuple[str, bool, str]  # (separator, is_regex, text to join pieces with)
LOOKAROUND_PREFIXES = ("(?=", "(?<!", "(?<=", "(?!")


def log_oversized(total: int, chunk_size: int) -> None:
    """LangChain's warning, on LangChain's logger, at the same moments."""
    logger.warning(
        "Created a chunk of size %d, which is longer than the specified %d", total, chunk_size
    )


def keep_mode(keep_separator: object) -> Literal[False, "start", "end"]:
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


def create_documents(
    splitter: Any, texts: list[str], metadatas: Optional[list[dict[Any, Any]]] = None
) -> list[Document]:
    """``splitter.create_documents``: LangChain's documents of ``texts``, ``start_index``
    found the way LangChain finds it."""
    metadatas_ = metadatas or [{}] * len(texts)
    if type(texts) is list and all_plain(metadatas_, len(texts)):
        return _all_at_once(splitter, texts, metadatas_)
    documents: list[Document] = []
    if isinstance(texts, (list, tuple)):
        pairs: Iterable[tuple[str, list[str]]] = zip(texts, splitter._split_texts(texts))
    else:  # read once: `texts` may be an iterator, as LangChain's loop allows
        pairs = ((text, splitter.split_text(text)) for text in texts)
    for i, (text, chunks) in enumerate(pairs):
        chunks = chunks if type(chunks) is list else list(chunks)
        if not chunks:  # LangChain reads a text's metadata only to copy it into a chunk
            continue
        starts = (
            start_indexes(text, chunks, splitter._chunk_overlap)
            if splitter._add_start_index
            else None
        )
        if _plain(metadatas_[i]) and (not chunks or type(chunks[0]) is str):
            try:
                documents += make_documents(chunks, metadatas_[i], starts)
                continue
            except TypeError:  # a later chunk is no `str`: see `_constructed`
                pass
        documents += _constructed(chunks, metadatas_[i], starts)
    return documents


def _all_at_once(
    splitter: Any, texts: list[str], metadatas: list[dict[Any, Any]]
) -> list[Document]:
    """Every text split first, then every document made in one native call: no metadata
    to deep-copy in Python, so nothing observable moves (the size warnings come as each
    text is split, as before; an error stops the split)."""
    chunk_lists = [c if type(c) is list else list(c) for c in splitter._split_texts(texts)]
    starts = None
    if splitter._add_start_index:
        starts = [start_indexes(t, c, splitter._chunk_overlap) for t, c in zip(texts, chunk_lists)]
    try:
        return make_all_documents(chunk_lists, metadatas, starts)
    except TypeError:  # a subclass's chunks that are no `str`: see `_constructed`
        if all(type(c) is str for chunks in chunk_lists for c in chunks):
            raise
    documents: list[Document] = []
    for i, chunks in enumerate(chunk_lists):
        at = None if starts is None else starts[i]
        documents += _constructed(chunks, metadatas[i], at)
    return documents


def start_indexes(text: str, chunks: list[str], chunk_overlap: int) -> list[int]:
    """Each chunk's ``start_index`` as LangChain finds it: ``text.find`` from just before
    the previous chunk's end (not the true offset where passages repeat)."""
    starts = []
    index = previous_chunk_len = 0
    for chunk in chunks:
        offset = index + previous_chunk_len - chunk_overlap
        if type(chunk) is str:
            index = _find(text, chunk, max(0, offset))
        else:  # a subclass's chunk: `str.find` takes or refuses it as in LangChain
            index = text.find(chunk, max(0, offset))
        starts.append(index)
        previous_chunk_len = len(chunk)
    return starts


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
