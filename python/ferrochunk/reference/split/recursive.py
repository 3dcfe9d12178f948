"""Recursive separator splitting (mirrors ``rust/split/recursive.rs``).

Written for clarity, not speed: the oracle the Rust core is tested against and the baseline
the benchmarks compare with. It never imports LangChain or Rust.
"""

from __future__ import annotations

from typing import Callable, Optional

from .merge import merge
from .scan import Keep, Piece, Separator

DEFAULT_SEPARATORS = ["\n\n", "\n", " ", ""]
LengthFunction = Callable[[str], int]
Warn = Callable[[int, int], None]  # (size of the chunk, chunk_size)


class Engine:
    """One configured splitter: recursive over separators, or a single separator."""

    def __init__(
        self,
        chunk_size: int,
        chunk_overlap: int,
        separators: list[Separator],
        keep: Keep,
        strip_whitespace: bool,
        recursive: bool,
    ) -> None:
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        self.separators = separators or [Separator(s) for s in DEFAULT_SEPARATORS]
        self.keep = keep
        self.strip_whitespace = strip_whitespace
        self.recursive = recursive

    def split(self, text: str, length: LengthFunction = len) -> tuple[list[Piece], list[int]]:
        """Chunks as ``(text, start)`` pieces, plus the sizes LangChain warns about."""
        out: list[Piece] = []
        oversized: list[int] = []
        if self.recursive:
            self._recurse(text, 0, self.separators, length, out, oversized)
        else:
            sep = self.separators[0]
            pieces = sep.split(text, 0, self.keep)
            join = self._join(sep)
            sep_len = length(join)  # before the pieces, as LangChain's merge measures them
            lengths = [length(p[0]) for p in pieces]
            self._merge(pieces, lengths, join, sep_len, out, oversized)
        return out, oversized

    def split_text(self, text: str, length: LengthFunction, warn: Warn) -> list[str]:
        """Chunk texts only, as LangChain returns them; ``warn(size, chunk_size)`` for each
        chunk LangChain warns about."""
        pieces, oversized = self.split(text, length)
        for total in oversized:
            warn(total, self.chunk_size)
        return [p[0] for p in pieces]

    def _recurse(
        self,
        text: str,
        start: Optional[int],
        seps: list[Separator],
        length: LengthFunction,
        out: list[Piece],
        oversized: list[int],
    ) -> None:
        sep, rest = _choose(seps, text)
        join = self._join(sep)
        good: list[Piece] = []
        good_lengths: list[int] = []
        for piece in sep.split(text, start, self.keep):
            n = length(piece[0])
            if n < self.chunk_size:
                good.append(piece)
                good_lengths.append(n)
                continue
            if good:  # the separator is measured only here, as LangChain's merge does
                self._merge(good, good_lengths, join, length(join), out, oversized)
                good, good_lengths = [], []
            if rest:
                self._deeper(piece, rest, length, out, oversized)
            else:
                out.append(piece)  # too long and nothing left to split with: kept as is
        if good:
            self._merge(good, good_lengths, join, length(join), out, oversized)

    def _deeper(
        self,
        piece: Piece,
        rest: list[Separator],
        length: LengthFunction,
        out: list[Piece],
        oversized: list[int],
    ) -> None:
        """A piece too long for a chunk, split with the separators after the one used."""
        self._recurse(piece[0], piece[1], rest, length, out, oversized)

    def _join(self, sep: Separator) -> str:
        """The text pieces are joined with: nothing when separators are kept."""
        return "" if self.keep else sep.join_text

    def _merge(
        self,
        pieces: list[Piece],
        lengths: list[int],
        join: str,
        sep_len: int,
        out: list[Piece],
        oversized: list[int],
    ) -> None:
        groups, over = merge(lengths, sep_len, self.chunk_size, self.chunk_overlap)
        oversized.extend(over)
        for lo, hi in groups:
            group = pieces[lo:hi]
            text = join.join(p[0] for p in group)
            start = group[0][1]
            if join or any(p[1] is None for p in group):
                start = None  # re-joined text is not a slice of the source
            if self.strip_whitespace:
                lead = len(text) - len(text.lstrip())
                text = text.strip()
                start = None if start is None else start + lead
            if text:
                out.append((text, start))


def _choose(seps: list[Separator], text: str) -> tuple[Separator, list[Separator]]:
    """The first separator found in ``text`` and the ones after it; else the last, alone."""
    for i, sep in enumerate(seps):
        if sep.is_chars:
            return sep, []
        if sep.is_found(text):
            return sep, seps[i + 1 :]
    return seps[-1], []
