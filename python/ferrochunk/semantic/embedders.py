"""Any embedder, duck-typed, and a check of what it returns.

An embedder is whatever turns a list of texts into one vector per text: a callable
``list[str] -> array-like [n, dim]``, or an object with LangChain's ``embed_documents``, a
sentence-transformers or model2vec ``encode``, or WordLlama's ``embed``. None of these
libraries is a dependency: only the method names are looked for. Results are checked
(shape, row count, numbers, finite) so that a bad embedder fails here with a message that
says what it returned, not later as a wrong chunk.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable, Union

import numpy as np

#: An embedder: a callable ``list[str] -> [n, dim]`` or an object with ``embed_documents``
#: (LangChain), ``encode`` (sentence-transformers, model2vec) or ``embed`` (WordLlama).
EmbedderLike = Union[Callable[[list[str]], Any], Any]

# Methods tried in this order; an object with one of them is used through it even when it
# is also callable (a sentence-transformers model is a torch module, whose call is forward).
_METHODS = ("embed_documents", "encode", "embed")


def as_embedder(embedder: EmbedderLike) -> Callable[[list[str]], Any]:
    """The function ``list[str] -> array-like`` behind ``embedder`` (see the module doc).

    >>> fn = as_embedder(lambda texts: [[len(t), 1.0] for t in texts])
    >>> fn(["ab", "c"])
    [[2, 1.0], [1, 1.0]]
    """
    if isinstance(embedder, (str, bytes)):  # str has an encode method, but is no model
        raise TypeError(
            f"embedder must be a model object or a callable, not the name {embedder!r}: load "
            "the model first (an object with embed_documents (LangChain), encode "
            "(sentence-transformers, model2vec) or embed (WordLlama))"
        )
    for name in _METHODS:
        method = getattr(embedder, name, None)
        if callable(method):
            return method  # type: ignore[no-any-return]
    if callable(embedder):
        return embedder
    raise TypeError(
        f"embedder must be a callable list[str] -> array [n, dim], or an object with "
        f"embed_documents (LangChain), encode (sentence-transformers, model2vec) or embed "
        f"(WordLlama); got {type(embedder).__name__}"
    )


def embed(embedder: EmbedderLike, texts: Sequence[str]) -> np.ndarray:
    """Embed ``texts`` in one call and check the result: a float64 array ``[len(texts), dim]``
    of finite numbers, or a ``ValueError``/``TypeError`` that says what came back instead.

    >>> embed(lambda texts: [[1, 2]] * len(texts), ["a", "b"]).tolist()
    [[1.0, 2.0], [1.0, 2.0]]
    >>> embed(lambda texts: [[1, 2]], ["a", "b"])
    Traceback (most recent call last):
    ...
    ValueError: the embedder returned 1 rows for 2 texts; it must return one vector per text
    """
    texts = list(texts)
    return check_embeddings(as_embedder(embedder)(texts), len(texts))


def check_embeddings(result: Any, rows: int) -> np.ndarray:
    """``result`` as a float64 ``[rows, dim]`` array, or a clear error."""
    if result is None:
        raise TypeError("the embedder returned None; it must return an array [n_texts, dim]")
    if not isinstance(result, np.ndarray) and not hasattr(result, "__array__"):
        result = list(result)  # generators (fastembed) and lists of rows
    try:
        array = np.asarray(result)
    except (ValueError, TypeError) as err:
        raise ValueError(
            f"the embedder returned rows that do not form an array [n, dim] ({err}); "
            "every vector must have the same length"
        ) from None
    if array.dtype == object or not (
        np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)
    ):
        raise TypeError(
            f"the embedder returned values of type {array.dtype}; it must return real numbers"
        )
    if array.ndim != 2:
        raise ValueError(
            f"the embedder returned an array of shape {array.shape}; expected [n_texts, dim] "
            f"= [{rows}, dim]"
        )
    if array.shape[0] != rows:
        raise ValueError(
            f"the embedder returned {array.shape[0]} rows for {rows} texts; it must return "
            "one vector per text"
        )
    if array.shape[1] == 0:
        raise ValueError("the embedder returned vectors of dimension 0")
    array = array.astype(np.float64, copy=False)
    bad = ~np.isfinite(array).all(axis=1)
    if bad.any():
        first = [int(i) for i in np.flatnonzero(bad)[:5]]
        raise ValueError(f"the embedder returned NaN or infinite values (rows {first})")
    return array


def cosine_distances(vectors: np.ndarray) -> np.ndarray:
    """``1 - cos`` between each row and the next (``len - 1`` values). A zero vector has
    similarity 0 to everything (distance 1), as LangChain's ``cosine_similarity`` has it.

    >>> cosine_distances(np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 2.0], [0.0, 0.0]])).tolist()
    [0.0, 1.0, 1.0]
    """
    norms = np.linalg.norm(vectors, axis=1)
    dots = np.einsum("ij,ij->i", vectors[:-1], vectors[1:])
    denominators = norms[:-1] * norms[1:]
    similarity = np.divide(dots, denominators, out=np.zeros_like(dots), where=denominators > 0)
    distances: np.ndarray = 1.0 - similarity
    return distances
