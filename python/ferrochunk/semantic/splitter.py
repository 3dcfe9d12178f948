"""``SemanticSplitter``: chunks cut where the meaning shifts, with exact offsets and sizes.

The native form of semantic chunking (the LangChain drop-in is :mod:`.langchain`):

1. the text's sentences (:mod:`ferrochunk.sentences`, whitespace around them trimmed);
2. each sentence with ``buffer_size`` neighbours on each side, as the source span that holds
   them, embedded in ONE call for the whole batch of documents, each distinct window once;
3. cosine distances between consecutive windows (numpy), and LangChain's threshold rules
   (:mod:`.breakpoints`) cut between sentences where the distance is high;
4. sizes: a group over ``chunk_size`` is cut at its most distant pair of sentences, again
   until every piece fits; a single sentence over ``chunk_size`` is cut by the recursive
   splitter (:class:`ferrochunk.Splitter`); then each piece under ``min_size`` is merged
   into the neighbour across the smaller distance, when the result fits in ``chunk_size``.

Every chunk is a span of the text: ``text[c.start:c.end] == c.text``, byte offsets alongside.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from numbers import Real
from types import MappingProxyType
from typing import Any, Callable, Optional

import numpy as np

from ..frontend.checks import check_text, metadata_dict
from ..sentences import sentence_spans
from ..split import Chunk, Splitter
from .breakpoints import BREAKPOINT_DEFAULTS, BreakpointThresholdType, breakpoints
from .embedders import EmbedderLike, as_embedder, check_embeddings, cosine_distances

# A piece: (start, end, byte_start, byte_end) in the source, and its first and last sentence.
_Piece = tuple[int, int, int, int, int, int]


class SemanticSplitter:
    """Semantic chunking with exact offsets, a hard maximum size and a minimum.

    ``embedder``: a callable ``list[str] -> [n, dim]`` or an object with ``embed_documents``
    (LangChain), ``encode`` (sentence-transformers, model2vec) or ``embed`` (WordLlama).
    ``chunk_size`` (the hard maximum; the only positional argument after ``embedder``; it
    replaces ``max_size``, which still works with a ``DeprecationWarning``) and ``min_size``
    are measured by ``length_function`` (code points if ``None``;
    ``ferrochunk.get_encoding(...).length_function()`` counts tokens and fills each chunk's
    ``token_count``). ``buffer_size``, ``breakpoint_threshold_type``,
    ``breakpoint_threshold_amount`` and ``number_of_chunks`` mean what they mean in
    LangChain's ``SemanticChunker`` (``number_of_chunks`` aims the threshold before the
    size rules apply). ``min_size`` defaults to 0, unlike :class:`~ferrochunk.MarkdownChunker`'s
    quarter of the size: a short group is where the embeddings put a topic of its own, and
    merging it by default would undo that cut. The steps are in the module doc.

    >>> def embedder(texts):  # a toy: "cats" and "stocks" point different ways
    ...     return [[t.lower().count("cat"), t.lower().count("stock"), 0.1] for t in texts]
    >>> text = "A cat sat. The cat slept. A cat ate. Stocks fell. The stock rose. A stock won."
    >>> splitter = SemanticSplitter(embedder, chunk_size=200, buffer_size=0)
    >>> [c.text for c in splitter.split(text)]
    ['A cat sat. The cat slept. A cat ate.', 'Stocks fell. The stock rose. A stock won.']
    """

    def __init__(
        self,
        embedder: EmbedderLike,
        chunk_size: int = 1000,
        *,
        min_size: int = 0,
        length_function: Optional[Callable[[str], int]] = None,
        buffer_size: int = 1,
        breakpoint_threshold_type: BreakpointThresholdType = "percentile",
        breakpoint_threshold_amount: Optional[float] = None,
        number_of_chunks: Optional[int] = None,
        max_size: Optional[int] = None,
    ) -> None:
        self._embed = as_embedder(embedder)
        chunk_size = _renamed_size(chunk_size, max_size)
        _check_int("chunk_size", chunk_size, 1)
        _check_int("min_size", min_size, 0)
        _check_int("buffer_size", buffer_size, 0)
        if min_size > chunk_size:
            raise ValueError(f"min_size ({min_size}) must not exceed chunk_size ({chunk_size})")
        if breakpoint_threshold_type not in BREAKPOINT_DEFAULTS:
            raise ValueError(
                f"breakpoint_threshold_type must be one of {sorted(BREAKPOINT_DEFAULTS)}, "
                f"got {breakpoint_threshold_type!r}"
            )
        amount = breakpoint_threshold_amount
        if amount is None:
            amount = BREAKPOINT_DEFAULTS[breakpoint_threshold_type]
        elif isinstance(amount, bool) or not isinstance(amount, Real) or not np.isfinite(amount):
            raise TypeError(f"breakpoint_threshold_amount must be a finite number, got {amount!r}")
        elif breakpoint_threshold_type in ("percentile", "gradient") and not 0 <= amount <= 100:
            raise ValueError(  # a percentile: numpy refused it later, on a text of 2+ sentences
                f"breakpoint_threshold_amount is a percentile for {breakpoint_threshold_type!r}: "
                f"between 0 and 100, got {amount!r}"
            )
        if number_of_chunks is not None:
            _check_int("number_of_chunks", number_of_chunks, 1)
        if length_function is not None and not callable(length_function):
            raise TypeError(f"length_function must be callable, got {length_function!r}")
        self.embedder = embedder
        self.chunk_size, self.min_size = chunk_size, min_size
        self.length_function = length_function
        self.buffer_size = buffer_size
        self.breakpoint_threshold_type = breakpoint_threshold_type
        self.breakpoint_threshold_amount = float(amount)
        self.number_of_chunks = number_of_chunks
        self._cutter = Splitter(chunk_size, chunk_overlap=0, length_function=length_function)

    @property
    def max_size(self) -> int:
        """Deprecated: :attr:`chunk_size` (``DeprecationWarning``)."""
        warnings.warn(
            "SemanticSplitter.max_size is deprecated; read chunk_size",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.chunk_size

    def split(self, text: str, metadata: Optional[Mapping[str, Any]] = None) -> list[Chunk]:
        """The chunks of ``text``, each carrying a read-only view of ``metadata``."""
        return self.split_many([text], None if metadata is None else [metadata])[0]

    def split_many(
        self,
        texts: Sequence[str],
        metadatas: Optional[Sequence[Optional[Mapping[str, Any]]]] = None,
    ) -> list[list[Chunk]]:
        """The chunks of each text, with ONE embedding call for all of them (each distinct
        window of sentences embedded once; no call when no text has two sentences)."""
        if isinstance(texts, str):
            raise TypeError("texts must be a list of str; use split() for one text")
        texts = list(texts)
        for text in texts:
            check_text(text)
        if metadatas is not None and len(metadatas) != len(texts):
            raise ValueError(f"got {len(metadatas)} metadatas for {len(texts)} texts")
        docs = [sentence_spans(text, strip=True) for text in texts]
        windows = [self._windows(text, sents) for text, sents in zip(texts, docs)]
        distances = self._distances(windows)
        out = []
        for i, (text, sents) in enumerate(zip(texts, docs)):
            meta = metadatas[i] if metadatas is not None else None
            out.append(self._chunk(text, sents, distances[i], meta))
        return out

    # -- embedding -----------------------------------------------------------------------

    def _windows(self, text: str, sents: list[Chunk]) -> list[str]:
        """Each sentence with ``buffer_size`` neighbours each side, as one source span."""
        n, b = len(sents), self.buffer_size
        if n < 2:
            return []  # nothing to compare: no embedding needed
        return [text[sents[max(0, i - b)].start : sents[min(n - 1, i + b)].end] for i in range(n)]

    def _distances(self, windows: list[list[str]]) -> list[np.ndarray]:
        """Distances between consecutive windows of each document, from one batched call."""
        unique = list(dict.fromkeys(w for doc in windows for w in doc))
        if not unique:
            return [np.zeros(0) for _ in windows]
        vectors = check_embeddings(self._embed(unique), len(unique))
        row = {w: i for i, w in enumerate(unique)}
        return [cosine_distances(vectors[[row[w] for w in doc]]) for doc in windows]

    # -- grouping and sizes --------------------------------------------------------------

    def _size(self, text: str, piece: _Piece) -> int:
        if self.length_function is None:
            return piece[1] - piece[0]
        return self.length_function(text[piece[0] : piece[1]])

    def _chunk(
        self,
        text: str,
        sents: list[Chunk],
        distances: np.ndarray,
        metadata: Optional[Mapping[str, Any]],
    ) -> list[Chunk]:
        if not sents:
            return []
        pieces: list[_Piece] = []
        first = 0
        for last in [*self._cuts(distances), len(sents) - 1]:
            pieces += self._fit(text, sents, distances, first, last)
            first = last + 1
        self._merge_small(text, pieces, distances)
        return self._to_chunks(text, pieces, metadata)

    def _cuts(self, distances: np.ndarray) -> list[int]:
        if len(distances) < (2 if self.breakpoint_threshold_type == "gradient" else 1):
            return []  # np.gradient needs two points; one sentence has no distance at all
        values = distances.tolist()
        kind, amount = self.breakpoint_threshold_type, self.breakpoint_threshold_amount
        return breakpoints(values, kind, amount, self.number_of_chunks)

    def _fit(
        self, text: str, sents: list[Chunk], distances: np.ndarray, first: int, last: int
    ) -> list[_Piece]:
        """Sentences ``first..=last`` as pieces that fit in ``chunk_size``: cut at the most
        distant pair (the first of equals) until they do; one sentence too long is cut by
        the recursive splitter."""
        out: list[_Piece] = []
        stack = [(first, last)]
        while stack:
            a, b = stack.pop()
            piece = (sents[a].start, sents[b].end, sents[a].byte_start, sents[b].byte_end, a, b)
            if self._size(text, piece) <= self.chunk_size:
                out.append(piece)
            elif a == b:
                out += self._cut_sentence(sents[a], a)
            else:
                k = a + int(np.argmax(distances[a:b]))
                stack += [(k + 1, b), (a, k)]  # a..k comes out first
        return out

    def _cut_sentence(self, sent: Chunk, index: int) -> list[_Piece]:
        spans = self._cut(sent.text, (sent.start, sent.byte_start), self._cutter, self.chunk_size)
        return [(a, b, byte_a, byte_b, index, index) for a, b, byte_a, byte_b in spans]

    def _cut(
        self, text: str, at: tuple[int, int], cutter: Splitter, budget: int
    ) -> list[tuple[int, int, int, int]]:
        """``text`` (at code point and byte ``at`` of the document) cut by ``cutter``, whose
        size is ``budget``, into spans that fit in ``chunk_size``. LangChain's merge measures a
        piece with the space before it and the chunk without (``" 😀"`` is one cl100k token,
        ``"😀"`` two), so a cut piece may still be too long: it is cut again with the budget
        lowered by its excess, down to single characters, which alone may exceed it."""
        out = []
        for c in cutter.split(text):
            if c.text.isspace():  # at tiny sizes LangChain's algorithm yields lone spaces
                continue
            start, byte_start = at[0] + c.start, at[1] + c.byte_start
            size = 0 if self.length_function is None else self.length_function(c.text)
            if size > self.chunk_size and budget > 1 and len(c.text) > 1:
                lower = max(1, budget - (size - self.chunk_size))
                inner = Splitter(lower, chunk_overlap=0, length_function=self.length_function)
                out += self._cut(c.text, (start, byte_start), inner, lower)
                continue
            out.append((start, at[0] + c.end, byte_start, at[1] + c.byte_end))
        return out

    def _merge_small(self, text: str, pieces: list[_Piece], distances: np.ndarray) -> None:
        """Merge each piece under ``min_size`` into the neighbour across the smaller distance
        (the left one on a tie; pieces of one sentence are closest) when the merged span
        fits in ``chunk_size``. Repeats on the merged piece until it is large enough."""
        i = 0
        while self.min_size > 0 and i < len(pieces):
            if len(pieces) == 1 or self._size(text, pieces[i]) >= self.min_size:
                i += 1
                continue
            options = []
            for j in (i - 1, i):  # merging pieces j and j + 1
                if 0 <= j < len(pieces) - 1:
                    left, right = pieces[j], pieces[j + 1]
                    merged = (left[0], right[1], left[2], right[3], left[4], right[5])
                    if self._size(text, merged) <= self.chunk_size:
                        seam = float(distances[left[5]]) if left[5] < right[4] else 0.0
                        options.append((seam, j, merged))
            if not options:
                i += 1
                continue
            _, j, merged = min(options, key=lambda o: (o[0], o[1]))
            pieces[j : j + 2] = [merged]
            i = j

    def _to_chunks(
        self, text: str, pieces: list[_Piece], metadata: Optional[Mapping[str, Any]]
    ) -> list[Chunk]:
        meta = MappingProxyType(metadata_dict(metadata)) if metadata else _NO_METADATA
        counts = getattr(self.length_function, "counts_tokens", False) is True
        chunks = []
        for index, (start, end, byte_start, byte_end, _, _) in enumerate(pieces):
            piece = text[start:end]
            tokens = self.length_function(piece) if counts and self.length_function else None
            chunks.append(Chunk(piece, start, end, byte_start, byte_end, index, meta, tokens))
        return chunks

    def __repr__(self) -> str:
        return (
            f"SemanticSplitter(chunk_size={self.chunk_size}, min_size={self.min_size}, "
            f"buffer_size={self.buffer_size}, "
            f"breakpoint_threshold_type={self.breakpoint_threshold_type!r}, "
            f"breakpoint_threshold_amount={self.breakpoint_threshold_amount}, "
            f"number_of_chunks={self.number_of_chunks})"
        )


def _renamed_size(chunk_size: int, max_size: Optional[int]) -> int:
    """``chunk_size``, or the deprecated ``max_size`` it replaced (``DeprecationWarning``)."""
    if max_size is None:
        return chunk_size
    warnings.warn(
        "SemanticSplitter(max_size=...) is deprecated; pass chunk_size=... (the name every "
        "ferrochunk chunker uses)",
        DeprecationWarning,
        stacklevel=3,
    )
    if chunk_size != 1000:
        raise TypeError("pass chunk_size or the deprecated max_size, not both")
    return max_size


def _check_int(name: str, value: object, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")


_NO_METADATA: Mapping[str, Any] = MappingProxyType({})
