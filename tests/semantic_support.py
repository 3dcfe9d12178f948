"""Deterministic embedders for the semantic tests (no model download)."""

from __future__ import annotations

import re
import zlib

import numpy as np
from langchain_core.embeddings import Embeddings

WORD = re.compile(r"\w+")


def hashed_bag_of_words(text: str, dim: int = 12) -> list[float]:
    """Counts of the text's lowercased words hashed into ``dim`` buckets (CRC-32, stable)."""
    vector = [0.0] * dim
    for word in WORD.findall(text.lower()):
        vector[zlib.crc32(word.encode()) % dim] += 1.0
    return vector


class HashEmbeddings(Embeddings):
    """A LangChain ``Embeddings`` that is a hashed bag of words; records every call."""

    def __init__(self, dim: int = 12) -> None:
        self.dim = dim
        self.calls: list[list[str]] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return [hashed_bag_of_words(t, self.dim) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return hashed_bag_of_words(text, self.dim)


def hash_embedder(texts: list[str]) -> np.ndarray:
    """The same embedding as a plain callable returning an array."""
    return np.array([hashed_bag_of_words(t) for t in texts])
