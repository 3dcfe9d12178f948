"""The Markdown chunk record (mirrors ``rust/markdown/chunk.rs``), shared by the chunker,
the overlap pass and parents."""

from __future__ import annotations

from typing import NamedTuple, Optional


class RawChunk(NamedTuple):
    """A chunk before identity: span, heading path, flags."""

    start: int
    end: int
    path: tuple[str, ...]
    continuation: bool
    header: Optional[tuple[int, int]]
    heading_only: bool
    why: str = "end"  # why it ends there: a reason of ``ferrochunk.frontend.cuts.REASONS``
