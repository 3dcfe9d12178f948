"""Why each chunk ends where it does (mirrors ``rust/split/cuts.rs``).

The recursion of :mod:`.recursive` again, recording for every chunk the gap after its last
piece: a range split at separator ``k`` makes the gaps between its pieces; the gap at its
end was made by whatever split the range out of its parent (or is the end of the text).
A level is ``(tail, inner)``: separator indices, ``-1`` for the end of the text.
"""

from __future__ import annotations

from .merge import merge
from .recursive import Engine, LengthFunction, _choose
from .scan import Piece, Separator

END = -1
Level = tuple[int, int]  # (what made the range's end, what makes the gaps inside it)


def cut_levels(engine: Engine, text: str, length: LengthFunction = len) -> list[int]:
    """One entry per chunk of ``engine.split(text, length)``: the index of the separator whose
    gap the chunk ends at, or ``-1`` at the end of the text."""
    cuts: list[int] = []
    if engine.recursive:
        _recurse(engine, text, engine.separators, length, (END, END), cuts)
    else:
        sep = engine.separators[0]
        pieces = sep.split(text, 0, engine.keep)
        join = engine._join(sep)
        sep_len = length(join)
        lengths = [length(p[0]) for p in pieces]
        _merge(engine, text, pieces, lengths, (join, sep_len), (END, 0), cuts)
    return cuts


def _at(text: str, pieces: list[Piece], i: int, level: Level) -> int:
    """What made the gap after piece ``i`` of ``text``: the range's tail at its end."""
    text_i, start = pieces[i]
    if start is None:  # re-built from capture groups: the last piece, if the text ends so
        ends = i == len(pieces) - 1 and text.endswith(text_i)
    else:
        ends = start + len(text_i) == len(text)
    return level[0] if ends else level[1]


def _recurse(
    engine: Engine,
    text: str,
    seps: list[Separator],
    length: LengthFunction,
    outer: Level,
    cuts: list[int],
) -> None:
    sep, rest = _choose(seps, text)
    index = len(engine.separators) - len(seps) + next(i for i, s in enumerate(seps) if s is sep)
    level = (outer[0], index)
    join = engine._join(sep)
    pieces = sep.split(text, 0, engine.keep)
    good: list[Piece] = []
    good_at: list[int] = []
    lengths: list[int] = []
    for i, piece in enumerate(pieces):
        n = length(piece[0])
        if n < engine.chunk_size:
            good.append(piece)
            good_at.append(_at(text, pieces, i, level))
            lengths.append(n)
            continue
        if good:
            _merge_at(engine, good, good_at, lengths, (join, length(join)), cuts)
            good, good_at, lengths = [], [], []
        if rest:
            _recurse(engine, piece[0], rest, length, (_at(text, pieces, i, level), 0), cuts)
        else:
            cuts.append(_at(text, pieces, i, level))
    if good:
        _merge_at(engine, good, good_at, lengths, (join, length(join)), cuts)


def _merge(
    engine: Engine,
    text: str,
    pieces: list[Piece],
    lengths: list[int],
    joins: tuple[str, int],
    level: Level,
    cuts: list[int],
) -> None:
    at = [_at(text, pieces, i, level) for i in range(len(pieces))]
    _merge_at(engine, pieces, at, lengths, joins, cuts)


def _merge_at(
    engine: Engine,
    pieces: list[Piece],
    at: list[int],
    lengths: list[int],
    joins: tuple[str, int],
    cuts: list[int],
) -> None:
    """The groups LangChain's merge makes, each recorded with its last piece's gap unless
    it strips to nothing (then it is no chunk)."""
    join, sep_len = joins
    groups, _ = merge(lengths, sep_len, engine.chunk_size, engine.chunk_overlap)
    for lo, hi in groups:
        chunk = join.join(p[0] for p in pieces[lo:hi])
        if engine.strip_whitespace:
            chunk = chunk.strip()
        if chunk:
            cuts.append(at[hi - 1])


__all__ = ["END", "cut_levels"]
