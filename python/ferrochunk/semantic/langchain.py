"""``SemanticChunker``: a drop-in for ``langchain_experimental.text_splitter.SemanticChunker``.

Same arguments and defaults, same methods, same attributes, and the same output given the
same ``Embeddings`` object: sentences from ``re.split(sentence_split_regex, text)``, each
joined with ``buffer_size`` neighbours by spaces, ONE ``embed_documents`` call with that
list, cosine distances computed pair by pair with the numpy operations LangChain's
``cosine_similarity`` uses (or ``simsimd`` when it is installed, as there), thresholds from
:mod:`.breakpoints`, chunks joined by spaces, ``min_chunk_size`` and ``start_index`` as
LangChain computes them (a start index is the sum of the previous chunk lengths, not a
position in the text). Exceptions are LangChain's too (``KeyError`` for an unknown
threshold type without an amount, ``IndexError`` when the embedder returns too few rows,
``ValueError`` for vectors of different widths). For exact offsets, sizes and one
de-duplicated call, use :class:`~ferrochunk.semantic.SemanticSplitter`.
"""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any, Optional

import numpy as np

from ..documents import BaseDocumentTransformer, Document
from .breakpoints import (
    BREAKPOINT_DEFAULTS,
    BreakpointThresholdType,
    threshold,
    threshold_for_chunks,
)


class SemanticChunker(BaseDocumentTransformer):
    """Split text where the embeddings of consecutive sentences drift apart (LangChain's).

    >>> class Embeddings:  # any object with LangChain's embed_documents
    ...     def embed_documents(self, texts):
    ...         return [[t.lower().count("cat"), t.lower().count("stock"), 0.1] for t in texts]
    >>> chunker = SemanticChunker(Embeddings(), buffer_size=0, breakpoint_threshold_amount=50)
    >>> chunker.split_text("A cat sat. A cat ate. Stocks fell. A stock won.")
    ['A cat sat. A cat ate.', 'Stocks fell. A stock won.']
    """

    def __init__(
        self,
        embeddings: Any,
        buffer_size: int = 1,
        add_start_index: bool = False,
        breakpoint_threshold_type: BreakpointThresholdType = "percentile",
        breakpoint_threshold_amount: Optional[float] = None,
        number_of_chunks: Optional[int] = None,
        sentence_split_regex: str = r"(?<=[.?!])\s+",
        min_chunk_size: Optional[int] = None,
    ) -> None:
        self._add_start_index = add_start_index
        self.embeddings = embeddings
        self.buffer_size = buffer_size
        self.breakpoint_threshold_type = breakpoint_threshold_type
        self.number_of_chunks = number_of_chunks
        self.sentence_split_regex = sentence_split_regex
        # An unknown type without an amount raises KeyError here, as in LangChain.
        self.breakpoint_threshold_amount = (
            BREAKPOINT_DEFAULTS[breakpoint_threshold_type]
            if breakpoint_threshold_amount is None
            else breakpoint_threshold_amount
        )
        self.min_chunk_size = min_chunk_size

    # The helpers keep LangChain's names and signatures: subclasses override them.

    def _calculate_breakpoint_threshold(self, distances: list[float]) -> tuple[float, Any]:
        return threshold(
            distances, self.breakpoint_threshold_type, self.breakpoint_threshold_amount
        )

    def _threshold_from_clusters(self, distances: list[float]) -> float:
        if self.number_of_chunks is None:
            raise ValueError("This should never be called if `number_of_chunks` is None.")
        return threshold_for_chunks(distances, self.number_of_chunks)

    def _get_single_sentences_list(self, text: str) -> list[str]:
        return re.split(self.sentence_split_regex, text)

    def _calculate_sentence_distances(
        self, single_sentences_list: list[str]
    ) -> tuple[list[float], list[dict[str, Any]]]:
        sentences: list[dict[str, Any]] = [
            {"sentence": s, "index": i, "combined_sentence": self._window(single_sentences_list, i)}
            for i, s in enumerate(single_sentences_list)
        ]
        vectors = self.embeddings.embed_documents([s["combined_sentence"] for s in sentences])
        for i, sentence in enumerate(sentences):
            sentence["combined_sentence_embedding"] = vectors[i]
        distances: list[float] = []
        for current, following in itertools.pairwise(sentences):
            similarity = _pair_similarity(
                current["combined_sentence_embedding"], following["combined_sentence_embedding"]
            )
            current["distance_to_next"] = 1 - similarity
            distances.append(current["distance_to_next"])
        return distances, sentences

    def _window(self, sentences: list[str], i: int) -> str:
        """Sentence ``i`` with ``buffer_size`` neighbours each side, joined by spaces."""
        before = [sentences[j] + " " for j in range(i - self.buffer_size, i) if j >= 0]
        after = [
            " " + sentences[j] for j in range(i + 1, i + 1 + self.buffer_size) if j < len(sentences)
        ]
        return "".join([*before, sentences[i], *after])

    def split_text(self, text: str) -> list[str]:
        """The chunks of ``text`` (sentences re-joined by single spaces)."""
        single = self._get_single_sentences_list(text)
        if len(single) == 1:  # no distance to take a percentile of
            return single
        if self.breakpoint_threshold_type == "gradient" and len(single) == 2:
            return single  # np.gradient needs two distances
        distances, sentences = self._calculate_sentence_distances(single)
        if self.number_of_chunks is not None:
            limit, values = self._threshold_from_clusters(distances), distances
        else:
            limit, values = self._calculate_breakpoint_threshold(distances)
        chunks = []
        start = 0
        for index in (i for i, x in enumerate(values) if x > limit):
            combined = " ".join(s["sentence"] for s in sentences[start : index + 1])
            if self.min_chunk_size is not None and len(combined) < self.min_chunk_size:
                continue  # too small: the group grows into the next breakpoint
            chunks.append(combined)
            start = index + 1
        if start < len(sentences):
            chunks.append(" ".join(s["sentence"] for s in sentences[start:]))
        return chunks

    def create_documents(
        self, texts: list[str], metadatas: Optional[list[dict[str, Any]]] = None
    ) -> list[Document]:
        """Documents from texts, each chunk with a deep copy of its text's metadata."""
        metas = metadatas or [{}] * len(texts)
        documents = []
        for i, text in enumerate(texts):
            offset = 0
            for chunk in self.split_text(text):
                metadata = copy.deepcopy(metas[i])
                if self._add_start_index:
                    metadata["start_index"] = offset
                documents.append(Document(page_content=chunk, metadata=metadata))
                offset += len(chunk)
        return documents

    def split_documents(self, documents: Iterable[Document]) -> list[Document]:
        """Split documents."""
        docs = list(documents)
        return self.create_documents(
            [d.page_content for d in docs], metadatas=[d.metadata for d in docs]
        )

    def transform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        """Transform a sequence of documents by splitting them."""
        return self.split_documents(list(documents))


def _pair_similarity(a: Any, b: Any) -> Any:
    """Cosine similarity of two vectors, computed as ``langchain_community``'s
    ``cosine_similarity([a], [b])[0][0]`` computes it (simsimd when importable, else numpy
    with NaN and infinity set to 0), so every bit of the result agrees."""
    x, y = np.array([a]), np.array([b])
    if x.shape[1] != y.shape[1]:
        raise ValueError(
            f"Number of columns in X and Y must be the same. X has shape {x.shape} "
            f"and Y has shape {y.shape}."
        )
    try:
        import simsimd  # type: ignore[import-not-found]
    except ImportError:
        norm_x, norm_y = np.linalg.norm(x, axis=1), np.linalg.norm(y, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            similarity = np.dot(x, y.T) / np.outer(norm_x, norm_y)
        similarity[np.isnan(similarity) | np.isinf(similarity)] = 0.0
        return similarity[0][0]
    x32, y32 = np.array(x, dtype=np.float32), np.array(y, dtype=np.float32)
    return (1 - np.array(simsimd.cdist(x32, y32, metric="cosine")))[0][0]
