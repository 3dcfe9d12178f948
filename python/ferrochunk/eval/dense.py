"""Dense retrieval: cosine similarity (numpy) between query and chunk embeddings from any
embedder — a callable ``list[str] -> array``, or an object with LangChain's
``embed_documents``/``embed_query``, a sentence-transformers or model2vec ``encode``, or
WordLlama's ``embed``. None of them is a dependency."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Callable

import numpy as np

from .bm25 import top_k

Embed = Callable[[list[str]], np.ndarray]
BATCH = 256


def as_embedder(model: Any) -> Embed:
    """``texts -> float array [len(texts), dim]``, checked (shape, finite values)."""
    for name in ("embed_documents", "encode", "embed"):
        method = getattr(model, name, None)
        if callable(method):
            return _checked(method, f"{type(model).__name__}.{name}")
    if callable(model):
        return _checked(model, getattr(model, "__name__", type(model).__name__))
    raise TypeError(
        f"the embedder must be a callable list[str] -> array or have embed_documents, encode "
        f"or embed; got {type(model).__name__}"
    )


def _checked(fn: Callable[[list[str]], Any], name: str) -> Embed:
    def embed(texts: list[str]) -> np.ndarray:
        out = []
        for i in range(0, len(texts), BATCH):
            batch = texts[i : i + BATCH]
            arr = np.asarray(fn(batch), dtype=np.float64)
            if arr.ndim != 2 or arr.shape[0] != len(batch) or arr.shape[1] == 0:
                raise ValueError(
                    f"{name} returned shape {arr.shape} for {len(batch)} texts; "
                    f"expected ({len(batch)}, dim)"
                )
            if not np.isfinite(arr).all():
                raise ValueError(f"{name} returned NaN or infinite values")
            out.append(arr)
        if not out:
            return np.zeros((0, 1))
        if len({a.shape[1] for a in out}) > 1:
            raise ValueError(f"{name} returned vectors of different sizes across batches")
        return np.vstack(out)

    return embed


def normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero: they match nothing)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


class Dense:
    """Chunk vectors of one configuration; :meth:`search` ranks them by cosine."""

    def __init__(self, texts: Sequence[str], embed: Embed) -> None:
        self.vectors = normalise(embed(list(texts))) if texts else np.zeros((0, 1))

    def search_vectors(self, queries: np.ndarray, k: int) -> list[list[int]]:
        """Top ``k`` chunk indices per (normalised) query vector, best first."""
        if self.vectors.shape[0] == 0:
            return [[] for _ in range(len(queries))]
        sims = queries @ self.vectors.T
        # Cosine can be <= 0 for real matches: shift so top_k keeps every chunk as a candidate.
        return [top_k(row + 2.0, k) for row in sims]


def wordllama() -> Embed:
    """The offline WordLlama model shipped inside the ``wordllama`` package."""
    try:
        import wordllama as package
        from wordllama import WordLlama
    except ImportError:
        raise ValueError(
            "--retriever dense needs an embedder: pip install wordllama, or pass "
            "--embedder module:function"
        ) from None
    folder = os.path.dirname(package.__file__)
    return as_embedder(WordLlama.load(cache_dir=folder, disable_download=True))
