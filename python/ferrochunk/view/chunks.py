"""What the view shows of one chunker on one text: each chunk's span, why it ends there
(as the chunker reports it), its size in tokens, heading path, id and metadata."""

from __future__ import annotations

import json
from typing import Any, Optional

from ..frontend.cuts import Cut

# Metadata keys the chunkers put their heading or scope path and id under.
PATH_KEYS = ("heading_path", "scope_path", "headings", "path")
ID_KEYS = ("chunk_id", "id")


def cuts_of(chunker: Any, text: str, count: int) -> list[Cut]:
    """The chunker's own cut reasons, or ``unknown`` for one that reports none (a peer)."""
    cuts = getattr(chunker, "cuts", None)
    if cuts is None:
        return [Cut("unknown")] * count
    got = list(cuts(text))
    if len(got) != count:
        raise ValueError(f"{type(chunker).__name__}.cuts gave {len(got)} cuts for {count} chunks")
    return got


def records(chunker: Any, text: str, tokens: Optional[Any]) -> list[list[Any]]:
    """One row per chunk, as ``page.js`` reads it: ``[start, end, reason, separator,
    tokens, path, id, metadata]`` (code points)."""
    chunks = chunker.split(text)
    cuts = cuts_of(chunker, text, len(chunks))
    counts = _token_counts(chunks, tokens)
    rows = []
    for i, (chunk, cut) in enumerate(zip(chunks, cuts)):
        meta = dict(getattr(chunk, "metadata", None) or {})
        rows.append(
            [
                chunk.start,
                chunk.end,
                cut.reason,
                cut.separator,
                counts[i],
                _path(meta),
                _first(meta, ID_KEYS),
                json.loads(json.dumps(meta, default=str)),
            ]
        )
    return rows


def _token_counts(chunks: list[Any], tokens: Optional[Any]) -> list[Optional[int]]:
    own = [getattr(c, "token_count", None) for c in chunks]
    if tokens is None or all(n is not None for n in own):
        return own
    return [tokens(c.text) if n is None else n for c, n in zip(chunks, own)]


def _path(meta: dict[str, Any]) -> Optional[str]:
    for key in PATH_KEYS:
        value = meta.get(key)
        if isinstance(value, (list, tuple)):
            return " > ".join(map(str, value)) or None
        if value:
            return str(value)
    return None


def _first(meta: dict[str, Any], keys: tuple[str, ...]) -> Optional[str]:
    for key in keys:
        if meta.get(key) is not None:
            return str(meta[key])
    return None


__all__ = ["records"]
