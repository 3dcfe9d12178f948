"""Late chunking: one vector per chunk, pooled from a whole document's token embeddings.

Embed the document once with a long-context model, then average (or max, or take the
first of) the token embeddings inside each chunk, so every chunk vector carries the
document's context. Offsets are as Hugging Face tokenizers return them: ``(start, end)``
per token, in code points of the text (or in UTF-8 bytes: then use ``unit="byte"``), with
special tokens at ``(0, 0)``.

The rules, exactly:

- **Which tokens a chunk pools**: every token that shares at least one character with the
  chunk (``start < chunk.end and end > chunk.start``). A token that straddles the seam
  between two chunks is *shared*: both pool it. A token lying wholly between two chunks
  (the whitespace a chunker trimmed) is pooled by neither.
- **Special tokens**: every token with an empty span (``start == end``, so the ``(0, 0)`` of
  ``[CLS]``, ``[SEP]``, ``<s>``) is skipped.
- **A chunk with no token** (the model truncated the document before it, or it holds no
  token at all): ``on_empty="raise"`` (the default) raises a ``ValueError`` naming the
  chunk; ``"nan"`` gives it a row of NaN, ``"zeros"`` a row of zeros.
- **Windows** (:func:`embed_tokens`): a document longer than the model's context is run in
  overlapping windows of characters; a token is kept from the window whose *own part* holds
  its first character, where a window owns the text from the middle of its overlap with the
  previous window to the middle of its overlap with the next. So every kept token was seen
  with at least half the overlap of context on each side, and each position is kept once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable, Literal, Optional, Union

import numpy as np

Pooling = Literal["mean", "max", "first"]
OnEmpty = Literal["raise", "nan", "zeros"]
#: A chunk span: a :class:`ferrochunk.Chunk` (or anything with ``start``/``end``) or a pair.
Span = Union[Any, tuple[int, int]]
#: A model over one text window: ``text -> (token embeddings [n, dim], offsets [n, 2])``,
#: offsets in code points of that window, special tokens at ``(0, 0)``.
TokenModel = Callable[[str], tuple[Any, Any]]


def pool_chunks(
    token_embeddings: Any,
    token_offsets: Any,
    chunks: Sequence[Span],
    *,
    pooling: Pooling = "mean",
    unit: Literal["char", "byte"] = "char",
    on_empty: OnEmpty = "raise",
) -> np.ndarray:
    """One row per chunk, pooled from the tokens it shares a character with (module doc).

    ``token_embeddings`` is ``[n_tokens, dim]``, ``token_offsets`` ``[n_tokens, 2]``;
    ``chunks`` are :class:`~ferrochunk.Chunk` objects (``unit`` picks code-point or byte
    offsets) or ``(start, end)`` pairs in the unit of the offsets.

    >>> emb = np.array([[9.0, 9.0], [1.0, 0.0], [3.0, 2.0], [0.0, 4.0], [9.0, 9.0]])
    >>> offsets = [(0, 0), (0, 3), (3, 6), (6, 9), (0, 0)]   # [CLS] abc de|f ghi [SEP]
    >>> pool_chunks(emb, offsets, [(0, 5), (5, 9)]).tolist()   # "def" is shared
    [[2.0, 1.0], [1.5, 3.0]]
    """
    emb = _embeddings(token_embeddings)
    offs = _offsets(token_offsets, len(emb))
    spans = _spans(chunks, unit)
    if pooling not in ("mean", "max", "first"):
        raise ValueError(f"pooling must be 'mean', 'max' or 'first', got {pooling!r}")
    if on_empty not in ("raise", "nan", "zeros"):
        raise ValueError(f"on_empty must be 'raise', 'nan' or 'zeros', got {on_empty!r}")
    real = offs[:, 0] < offs[:, 1]  # special tokens have empty spans
    emb, offs = emb[real], offs[real]
    order = np.argsort(offs[:, 0], kind="stable")
    emb, starts, ends = emb[order], offs[order, 0], offs[order, 1]
    reach = np.maximum.accumulate(ends) if len(ends) else ends  # furthest end so far
    out = np.empty((len(spans), emb.shape[1]), dtype=emb.dtype)
    for row, (start, end) in enumerate(spans):
        lo = int(np.searchsorted(reach, start, side="right"))  # first that may reach in
        hi = int(np.searchsorted(starts, end, side="left"))  # first starting after
        picked = np.flatnonzero(ends[lo:hi] > start) + lo
        out[row] = _pool(emb, picked, pooling, on_empty, row, (start, end), len(starts))
    return out


def embed_tokens(
    text: str,
    model: TokenModel,
    *,
    window: Optional[int] = None,
    overlap: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Token embeddings and offsets of the whole ``text``, running ``model`` on windows of
    ``window`` code points that overlap by ``overlap`` (one window if ``window`` is None)
    and stitching them (module doc: a token is kept from the window that owns its first
    character). Offsets come back in code points of ``text``; special tokens are dropped.

    >>> def model(window_text):  # one "token" per character, embedding = its code point
    ...     return [[ord(c)] for c in window_text], [(i, i + 1) for i in range(len(window_text))]
    >>> emb, offsets = embed_tokens("abcdefg", model, window=4, overlap=2)
    >>> emb[:, 0].tolist() == [ord(c) for c in "abcdefg"], offsets[:, 0].tolist()
    (True, [0, 1, 2, 3, 4, 5, 6])
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    starts = _window_starts(len(text), window, overlap) if text else []
    pieces_emb, pieces_off = [], []
    width = 0  # the model's, kept even when no window yields a real token (a blank text)
    for k, start in enumerate(starts):
        end = len(text) if window is None else min(len(text), start + window)
        emb, offs = model(text[start:end])
        emb = _embeddings(emb)
        width = emb.shape[1]
        offs = _offsets(offs, len(emb))
        keep = offs[:, 0] < offs[:, 1]
        lo = 0 if k == 0 else (start + _prev_end(starts, k, window, len(text))) // 2
        hi = len(text) if k + 1 == len(starts) else (starts[k + 1] + end) // 2
        first = offs[:, 0] + start
        keep &= (first >= lo) & (first < hi)
        if keep.any():
            pieces_emb.append(emb[keep])
            pieces_off.append(offs[keep] + start)
    if not pieces_emb:
        return np.zeros((0, width)), np.zeros((0, 2), dtype=np.int64)
    dims = {e.shape[1] for e in pieces_emb}
    if len(dims) > 1:
        raise ValueError(f"the model returned embeddings of different widths {sorted(dims)}")
    return np.concatenate(pieces_emb), np.concatenate(pieces_off)


def late_chunk(
    text: str,
    chunks: Sequence[Span],
    model: TokenModel,
    *,
    window: Optional[int] = None,
    overlap: int = 0,
    pooling: Pooling = "mean",
    on_empty: OnEmpty = "raise",
) -> np.ndarray:
    """Late chunking in one call: :func:`embed_tokens` over ``text`` (in windows if given),
    then :func:`pool_chunks` over ``chunks`` (code-point spans of ``text``).

    >>> def model(window_text):  # one "token" per word, embedding = [len(word)]
    ...     words, pos, offsets = window_text.split(), 0, []
    ...     for w in words:
    ...         pos = window_text.index(w, pos)
    ...         offsets.append((pos, pos + len(w)))
    ...         pos += len(w)
    ...     return [[float(len(w))] for w in words], offsets
    >>> late_chunk("aa bbbb c dd", [(0, 7), (8, 12)], model).tolist()
    [[3.0], [1.5]]
    """
    emb, offs = embed_tokens(text, model, window=window, overlap=overlap)
    if emb.shape[1] == 0 and len(chunks):
        emb = np.zeros((0, 1))
    return pool_chunks(emb, offs, chunks, pooling=pooling, unit="char", on_empty=on_empty)


# -- checks and helpers ---------------------------------------------------------------------


def _embeddings(value: Any) -> np.ndarray:
    try:
        emb = np.asarray(value)
    except (ValueError, TypeError) as err:
        raise ValueError(f"token embeddings do not form an array [n_tokens, dim]: {err}") from None
    if emb.dtype == object or not (
        np.issubdtype(emb.dtype, np.integer) or np.issubdtype(emb.dtype, np.floating)
    ):
        raise TypeError(f"token embeddings must be real numbers, got dtype {emb.dtype}")
    if emb.ndim == 3 and emb.shape[0] == 1:
        emb = emb[0]  # a batch of one, as models return it: [1, n_tokens, dim]
    if emb.size == 0 and emb.ndim <= 2:  # no token at all (an empty or blank window)
        return np.zeros((0, emb.shape[1] if emb.ndim == 2 else 0))
    if emb.ndim != 2:
        raise ValueError(f"token embeddings must be [n_tokens, dim], got shape {emb.shape}")
    if not np.issubdtype(emb.dtype, np.floating):
        emb = emb.astype(np.float64)
    if not np.isfinite(emb).all():
        raise ValueError("token embeddings hold NaN or infinite values")
    return emb


def _offsets(value: Any, n_tokens: int) -> np.ndarray:
    offs = np.asarray(value)
    if offs.ndim == 3 and offs.shape[0] == 1:
        offs = offs[0]
    if offs.size == 0:  # no tokens: [] has no integer dtype to check
        offs = np.zeros((0, 2), dtype=np.int64)
    if offs.ndim != 2 or offs.shape[1] != 2 or not np.issubdtype(offs.dtype, np.integer):
        raise ValueError(
            f"token offsets must be integer (start, end) pairs [n_tokens, 2], got shape "
            f"{offs.shape} of {offs.dtype}"
        )
    if len(offs) != n_tokens:
        raise ValueError(f"got {len(offs)} token offsets for {n_tokens} token embeddings")
    if (offs[:, 0] > offs[:, 1]).any() or (offs < 0).any():
        raise ValueError("token offsets must satisfy 0 <= start <= end")
    return offs.astype(np.int64, copy=False)


def _spans(chunks: Sequence[Span], unit: str) -> list[tuple[int, int]]:
    if unit not in ("char", "byte"):
        raise ValueError(f"unit must be 'char' or 'byte', got {unit!r}")
    spans = []
    c: Any  # a Chunk-like object (duck-typed, as ``Span`` says) or a pair
    for c in chunks:
        if hasattr(c, "start") and hasattr(c, "end"):
            span = (c.start, c.end) if unit == "char" else (c.byte_start, c.byte_end)
        else:
            span = tuple(c)
        if len(span) != 2 or not all(isinstance(x, (int, np.integer)) for x in span):
            raise TypeError(f"a chunk must be a Chunk or a (start, end) pair of ints, got {c!r}")
        if not 0 <= span[0] <= span[1]:
            raise ValueError(f"a chunk span must satisfy 0 <= start <= end, got {span}")
        spans.append((int(span[0]), int(span[1])))
    return spans


def _pool(
    emb: np.ndarray,
    picked: np.ndarray,
    pooling: str,
    on_empty: str,
    row: int,
    span: tuple[int, int],
    n_tokens: int,
) -> np.ndarray:
    if len(picked) == 0:
        if on_empty == "nan":
            return np.full(emb.shape[1], np.nan)
        if on_empty == "zeros":
            return np.zeros(emb.shape[1])
        raise ValueError(
            f"chunk {row} (span {span[0]}:{span[1]}) shares no character with any of the "
            f"{n_tokens} tokens; was the document truncated by the model? Run it in windows "
            "(late_chunk(..., window=...)) or pass on_empty='nan' or 'zeros'"
        )
    pooled: np.ndarray
    if pooling == "first":
        pooled = emb[picked[0]]
    elif pooling == "max":
        pooled = emb[picked].max(axis=0)
    else:
        pooled = emb[picked].mean(axis=0)
    return pooled


def _window_starts(length: int, window: Optional[int], overlap: int) -> list[int]:
    if window is None:
        return [0]
    for name, value in (("window", window), ("overlap", overlap)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if window <= 0 or not 0 <= overlap < window:
        raise ValueError(f"need window > 0 and 0 <= overlap < window, got {window}, {overlap}")
    starts = [0]
    while starts[-1] + window < length:
        starts.append(starts[-1] + window - overlap)
    return starts


def _prev_end(starts: list[int], k: int, window: Optional[int], length: int) -> int:
    """Where window ``k - 1`` ends."""
    return length if window is None else min(length, starts[k - 1] + window)
