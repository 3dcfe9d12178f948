"""Query-time helpers over chunk lists: expand hits to neighbours or parents, and pack a
context under a budget. They work on any chunks with ``text``, ``start``, ``end`` and
``metadata`` holding ``chunk_id`` and ``document_id`` (and ``parent_id`` for parents), as
``MarkdownChunker`` gives; pure Python, since the work is per hit, not per character.

>>> from ferrochunk import MarkdownChunker
>>> from ferrochunk.retrieval import assemble_context, expand_neighbours
>>> md = "# A\\n\\none.\\n\\n# B\\n\\ntwo.\\n\\n# C\\n\\nthree.\\n"
>>> chunks = MarkdownChunker(chunk_size=12, min_size=0).split(md)
>>> hit = chunks[1].metadata["chunk_id"]
>>> [c.text for c in expand_neighbours(chunks, [hit], window=1)]
['# A\\n\\none.', '# B\\n\\ntwo.', '# C\\n\\nthree.']
>>> picked = assemble_context(chunks, [(hit, 0.9), (chunks[2].metadata["chunk_id"], 0.5)], 15)
>>> [(c.text, c.start, c.end) for c in picked]
[('# B\\n\\ntwo.', 11, 20)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Callable, Optional


def _order(chunks: Sequence[Any]) -> dict[str, tuple[int, int, int]]:
    """chunk id -> (document rank, start, position): document order, documents in the
    order they first appear."""
    docs: dict[Any, int] = {}
    out = {}
    for k, c in enumerate(chunks):
        rank = docs.setdefault(c.metadata["document_id"], len(docs))
        out[c.metadata["chunk_id"]] = (rank, c.start, k)
    return out


def _lookup(chunks: Sequence[Any], ids: Iterable[str]) -> list[int]:
    pos = {c.metadata["chunk_id"]: k for k, c in enumerate(chunks)}
    out = []
    for i in ids:
        if i not in pos:
            raise ValueError(f"unknown chunk id {i!r}: pass the chunks the hits come from")
        out.append(pos[i])
    return out


def expand_neighbours(chunks: Sequence[Any], hits: Iterable[str], window: int = 1) -> list[Any]:
    """The hit chunks and up to ``window`` chunks before and after each, within the same
    document; each chunk once, in document order."""
    if isinstance(window, bool) or not isinstance(window, int) or window < 0:
        raise ValueError(f"window must be an int >= 0, got {window!r}")
    order = _order(chunks)
    by_doc: dict[Any, list[Any]] = {}
    for c in sorted(chunks, key=lambda c: order[c.metadata["chunk_id"]]):
        by_doc.setdefault(c.metadata["document_id"], []).append(c)
    seat = {c.metadata["chunk_id"]: k for doc in by_doc.values() for k, c in enumerate(doc)}
    picked: dict[str, Any] = {}
    for k in _lookup(chunks, hits):
        doc = by_doc[chunks[k].metadata["document_id"]]
        at = seat[chunks[k].metadata["chunk_id"]]
        for c in doc[max(0, at - window) : at + window + 1]:
            picked[c.metadata["chunk_id"]] = c
    return sorted(picked.values(), key=lambda c: order[c.metadata["chunk_id"]])


def expand_parents(chunks: Sequence[Any], parents: Sequence[Any], hits: Iterable[str]) -> list[Any]:
    """The parents of the hit chunks, each once, in document order (a hit without a
    parent stands for itself)."""
    by_id = {p.metadata["chunk_id"]: p for p in parents}
    order = _order([*parents, *chunks])
    picked: dict[str, Any] = {}
    for k in _lookup(chunks, hits):
        c = chunks[k]
        p = by_id.get(c.metadata.get("parent_id"), c)
        picked[p.metadata["chunk_id"]] = p
    return sorted(picked.values(), key=lambda c: order[c.metadata["chunk_id"]])


def assemble_context(
    chunks: Sequence[Any],
    hits: Iterable[tuple[str, float]],
    budget: int,
    length: Optional[Callable[[str], int]] = None,
    parents: Optional[Sequence[Any]] = None,
) -> list[Any]:
    """Chunks for a prompt: hits taken by score (highest first), each replaced by its
    parent when ``parents`` are given; a parent (or chunk) is taken once, and hits whose
    parent is already in are skipped; what does not fit in what is left of ``budget``
    (measured by ``length``, code points if None) is skipped, so smaller ones after it may
    still go in. Returned in document order; ``start``/``end`` and ``metadata``'s
    ``document_id`` locate each for citation."""
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
        raise ValueError(f"budget must be an int >= 0, got {budget!r}")
    measure = length or len
    ranked = sorted(hits, key=lambda h: -h[1])  # stable: equal scores keep the hits' order
    positions = _lookup(chunks, [h[0] for h in ranked])
    by_id = {p.metadata["chunk_id"]: p for p in parents or ()}
    order = _order([*(parents or ()), *chunks])
    taken: dict[str, Any] = {}
    seen_parents: set[Any] = set()
    left = budget
    for k in positions:
        c = chunks[k]
        parent = c.metadata.get("parent_id")
        if parent is not None and parent in seen_parents:
            continue
        piece = by_id.get(parent, c)
        key = piece.metadata["chunk_id"]
        if key in taken:
            continue
        cost = measure(piece.text)
        if cost > left:
            continue
        left -= cost
        taken[key] = piece
        if parent is not None:
            seen_parents.add(parent)
    return sorted(taken.values(), key=lambda c: order[c.metadata["chunk_id"]])


__all__ = ["assemble_context", "expand_neighbours", "expand_parents"]
