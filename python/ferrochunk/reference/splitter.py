"""Recursive separator splitting (mirrors ``rust/split.rs``) and the native API's reference.

Written for clarity, not speed: the oracle the Rust core is tested against and the baseline
the benchmarks compare with. It never imports LangChain or Rust.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Optional

from .merge import merge
from .scan import Keep, Piece, Separator
from .text import utf8_len

logger = logging.getLogger("ferrochunk")

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
            lengths = [length(p[0]) for p in pieces]
            self._merge(pieces, lengths, sep, length, out, oversized)
        return out, oversized

    def split_text(self, text: str, length: LengthFunction, warn: Warn) -> list[str]:
        """Chunk texts only, as LangChain returns them; ``warn(size, chunk_size)`` for each
        chunk LangChain warns about."""
        pieces, oversized = self.split(text, length)
        for total in oversized:
            warn(total, self.chunk_size)
        return [p[0] for p in pieces]

    def _recurse(self, text, start, seps, length, out, oversized) -> None:
        sep, rest = _choose(seps, text)
        good: list[Piece] = []
        good_lengths: list[int] = []
        for piece in sep.split(text, start, self.keep):
            n = length(piece[0])
            if n < self.chunk_size:
                good.append(piece)
                good_lengths.append(n)
                continue
            if good:
                self._merge(good, good_lengths, sep, length, out, oversized)
                good, good_lengths = [], []
            if rest:
                self._recurse(piece[0], piece[1], rest, length, out, oversized)
            else:
                out.append(piece)  # too long and nothing left to split with: kept as is
        if good:
            self._merge(good, good_lengths, sep, length, out, oversized)

    def _merge(self, pieces, lengths, sep, length, out, oversized) -> None:
        join = "" if self.keep else sep.join_text
        groups, over = merge(lengths, length(join), self.chunk_size, self.chunk_overlap)
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


@dataclass(frozen=True)
class Chunk:
    """A chunk of the native API: ``text == source[start:end]``, with UTF-8 byte offsets."""

    text: str
    start: int
    end: int
    byte_start: int
    byte_end: int
    index: int
    metadata: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: Tokens in the chunk, when a tokenizer sized it (a length with ``counts_tokens``).
    token_count: Optional[int] = None

    def __post_init__(self) -> None:
        if not isinstance(self.metadata, MappingProxyType):  # read-only, and not the caller's
            object.__setattr__(self, "metadata", MappingProxyType(dict(self.metadata)))

    def __len__(self) -> int:
        return self.end - self.start

    def __reduce__(self) -> tuple[Any, ...]:
        # A mappingproxy does not pickle; its contents do, and __post_init__ re-wraps them.
        args = (self.text, self.start, self.end, self.byte_start, self.byte_end, self.index)
        return (type(self), (*args, dict(self.metadata), self.token_count))


def to_chunks(
    source: str,
    pieces: list[Piece],
    metadata: Optional[Mapping[str, Any]] = None,
    make: Callable[..., Any] = Chunk,
    length: Optional[Callable[[str], int]] = None,
) -> list[Any]:
    """Attach code-point and byte offsets (tracked, never searched for) and metadata, and
    each chunk's ``token_count`` when ``length`` counts tokens (has ``counts_tokens``)."""
    counts = getattr(length, "counts_tokens", False) is True
    meta = MappingProxyType(dict(metadata or {}))
    chunks = []
    char_pos = byte_pos = 0
    for index, (text, start) in enumerate(pieces):
        if start is None:
            raise ValueError("chunk is not a slice of the source")  # guarded by callers
        byte_pos += _utf8_delta(source, char_pos, start)
        char_pos = start
        byte_start = byte_pos
        byte_end = byte_start + utf8_len(text)
        tokens = length(text) if counts and length is not None else None
        chunks.append(
            make(text, start, start + len(text), byte_start, byte_end, index, meta, tokens)
        )
    return chunks


def _utf8_delta(source: str, a: int, b: int) -> int:
    return utf8_len(source[a:b]) if b >= a else -utf8_len(source[b:a])
