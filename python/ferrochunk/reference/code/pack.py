"""Pieces packed greedily into chunks (mirrors ``rust/code/pack.rs``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from typing import Callable, NamedTuple, Optional

from .scope import Scopes


class Piece(NamedTuple):
    start: int
    end: int
    scope: int
    code: bool
    fresh: bool  # starts a chunk: the head of a definition too big for one
    kind: str  # what it is whole of: definition, head, statement, line or character


def cut_reason(data: bytes, last: Piece, nxt: Optional[Piece]) -> str:
    """Why a chunk ending with ``last`` ends there: ``character`` inside a line too long
    for a chunk, ``definition`` where one ends or starts (its head, when it is opened);
    else at a line end ``line`` (after a line of a node cut by lines) or ``statement``, and
    mid-line ``token``."""
    if nxt is None:
        return "end"
    if last.kind == nxt.kind == "character" and nxt.start == last.end:
        return "character"
    if last.kind == "definition" or nxt.kind in ("definition", "head"):
        return "definition"
    if data[last.end :].split(b"\n", 1)[0].decode("utf-8").strip():
        return "token"
    return "line" if last.kind in ("line", "character") else "statement"


@dataclass(frozen=True)
class Measure:
    data: bytes
    length: Optional[Callable[[str], int]]
    size: int

    def fits(self, start: int, end: int) -> bool:
        s = self.data[start:end].decode("utf-8")
        if self.length is None:
            return len(s) <= self.size
        return self.length(s) <= self.size

    def longest(self, a: int, b: int) -> int:
        """The end of the longest run of characters from ``a`` that fits (at least one)."""
        chars = self.data[a:b].decode("utf-8")
        ends, at = [], a
        for c in chars:
            at += len(c.encode("utf-8"))
            ends.append(at)
        lo, hi = 0, min(max(self.size, 1), len(ends)) - 1
        while self.fits(a, ends[hi]):
            lo = hi
            if hi == len(ends) - 1:
                return ends[hi]
            hi = min(hi * 2 + 1, len(ends) - 1)
        while hi - lo > 1:
            mid = lo + (hi - lo) // 2
            if self.fits(a, ends[mid]):
                lo = mid
            else:
                hi = mid
        return ends[lo]


def joins(run: list[Piece], nxt: Piece, scopes: Scopes) -> bool:
    """Whether ``nxt`` may join ``run``: a fresh piece only joins a fresh run of heads of
    the scopes it lies in."""
    if not nxt.fresh:
        return True
    return run[0].fresh and all(
        scopes.common(p.scope, nxt.scope) == p.scope and p.scope != nxt.scope for p in run
    )


def pack(pieces: list[Piece], scopes: Scopes, measure: Measure) -> list[tuple[int, int, int, str]]:
    """``(start, end, scope, cut reason)`` of each chunk, in bytes."""
    out = []
    i = 0
    while i < len(pieces):
        start, j = pieces[i].start, i
        while (
            j + 1 < len(pieces)
            and joins(pieces[i : j + 1], pieces[j + 1], scopes)
            and measure.fits(start, pieces[j + 1].end)
        ):
            j += 1
        run = pieces[i : j + 1]
        of = [p.scope for p in run if p.code] or [p.scope for p in run]
        nxt = pieces[j + 1] if j + 1 < len(pieces) else None
        cut = cut_reason(measure.data, pieces[j], nxt)
        out.append((start, pieces[j].end, reduce(scopes.common, of), cut))
        i = j + 1
    return out
