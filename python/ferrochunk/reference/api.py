"""The native API (``ferrochunk.split`` / ``ferrochunk.Splitter``) on the pure-Python engine.

``ferrochunk.Splitter`` is this class with the Rust engine swapped in; validation, metadata
and warnings are shared.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional, Union

from .scan import Separator
from .splitter import DEFAULT_SEPARATORS, Chunk, Engine, Piece, to_chunks

logger = logging.getLogger("ferrochunk")


class Splitter:
    """Splits text into chunks that are exact spans of it, with offsets and metadata.

    Separators are tried in order (paragraph, line, word, character by default), exactly as
    LangChain's ``RecursiveCharacterTextSplitter`` does; chunks keep their separators so that
    ``text[chunk.start:chunk.end] == chunk.text`` always holds.

    >>> from ferrochunk import Splitter
    >>> [c.text for c in Splitter(chunk_size=12, chunk_overlap=0).split("one two three four")]
    ['one two', 'three four']
    """

    def __init__(
        self,
        chunk_size: int = 1000,
        chunk_overlap: int = 200,
        *,
        separators: Optional[Sequence[str]] = None,
        is_separator_regex: bool = False,
        keep_separator: Union[bool, str] = "start",
        strip_whitespace: bool = True,
        length_function: Optional[Callable[[str], int]] = None,
    ) -> None:
        _check_sizes(chunk_size, chunk_overlap)
        seps = list(DEFAULT_SEPARATORS if separators is None else separators)
        if not all(isinstance(s, str) for s in seps) or isinstance(separators, str):
            raise TypeError("separators must be a list of str, e.g. ['\\n\\n', '\\n', ' ', '']")
        if is_separator_regex:
            for pattern in seps:
                _check_pattern(pattern)
        if keep_separator is True:
            keep_separator = "start"
        if keep_separator not in ("start", "end"):
            raise ValueError(
                f"keep_separator must be 'start' or 'end', got {keep_separator!r}: chunks keep "
                "their separators so they are exact spans of the text (the LangChain drop-in "
                "classes accept keep_separator=False)"
            )
        if length_function is not None and not callable(length_function):
            raise TypeError(f"length_function must be callable, got {length_function!r}")
        self._args = {
            "chunk_size": chunk_size,
            "chunk_overlap": chunk_overlap,
            "separators": tuple(seps) or tuple(DEFAULT_SEPARATORS),
            "is_separator_regex": bool(is_separator_regex),
            "keep_separator": keep_separator,
            "strip_whitespace": bool(strip_whitespace),
            "length_function": length_function,
        }
        self._engine = self._make_engine()

    def _make_engine(self) -> Any:
        a = self._args
        seps = [Separator(s, a["is_separator_regex"]) for s in a["separators"]]
        return Engine(
            a["chunk_size"],
            a["chunk_overlap"],
            seps,
            a["keep_separator"],
            a["strip_whitespace"],
            recursive=True,
        )

    def _split_pieces(self, text: str) -> tuple[list[Piece], list[int]]:
        return self._engine.split(text, self._args["length_function"] or len)

    def split(self, text: str, metadata: Optional[Mapping[str, Any]] = None) -> list[Chunk]:
        """Chunks of ``text``, each carrying a read-only view of ``metadata``."""
        _check_text(text)
        pieces, oversized = self._split_pieces(text)
        _warn(oversized, self._args["chunk_size"])
        return to_chunks(text, pieces, metadata, length=self._args["length_function"])

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._args.items())
        return f"{type(self).__name__}({args})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickles by arguments: the engine is rebuilt in the worker (Ray, Dask, multiprocessing).
        return (_rebuild, (type(self), self._args))


def _rebuild(cls: type, args: dict[str, Any]) -> Splitter:
    args = dict(args)
    size, overlap = args.pop("chunk_size"), args.pop("chunk_overlap")
    return cls(size, overlap, **args)


def split(
    text: str,
    chunk_size: int = 1000,
    chunk_overlap: int = 200,
    *,
    metadata: Optional[Mapping[str, Any]] = None,
    **options: Any,
) -> list[Chunk]:
    """Split ``text`` with a one-off :class:`Splitter` (see it for the options)."""
    return Splitter(chunk_size, chunk_overlap, **options).split(text, metadata)


def _check_text(text: object) -> None:
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")


def _check_sizes(chunk_size: object, chunk_overlap: object) -> None:
    for name, value in (("chunk_size", chunk_size), ("chunk_overlap", chunk_overlap)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    assert isinstance(chunk_size, int) and isinstance(chunk_overlap, int)
    if chunk_size <= 0:
        raise ValueError(f"chunk_size must be > 0, got {chunk_size}")
    if chunk_overlap < 0:
        raise ValueError(f"chunk_overlap must be >= 0, got {chunk_overlap}")
    if chunk_overlap > chunk_size:
        raise ValueError(
            f"chunk_overlap ({chunk_overlap}) must not exceed chunk_size ({chunk_size}); "
            "lower the overlap or raise the size"
        )


def _check_pattern(pattern: str) -> None:
    try:
        compiled = re.compile(pattern)
    except re.error as err:
        raise ValueError(f"invalid separator regex {pattern!r}: {err}") from None
    if compiled.groups:
        raise ValueError(
            f"separator regex {pattern!r} has capturing groups; use (?:...) instead so "
            "chunks stay exact spans of the text"
        )
    if _can_match_empty(pattern):
        raise ValueError(
            f"separator regex {pattern!r} can match the empty string; use '' to split "
            "into characters"
        )
    try:  # separators are kept, so they are matched inside a group as LangChain does it
        re.compile(f"({pattern})")
    except re.error as err:
        raise ValueError(
            f"invalid separator regex {pattern!r} inside a group: {err}; use scoped flags "
            "such as (?s:...) instead of global ones"
        ) from None


def _can_match_empty(pattern: str) -> bool:
    from ..scan import min_width  # pure Python, shared with the translator

    return bool(pattern) and min_width(pattern) == 0


def _warn(oversized: list[int], chunk_size: int) -> None:
    for total in oversized:
        logger.warning(
            "Created a chunk of size %d, which is longer than the specified %d",
            total,
            chunk_size,
        )


__all__ = ["Chunk", "Splitter", "split"]
