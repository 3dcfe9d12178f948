"""The native API's defaults and options, below both :class:`ferrochunk.Splitter`
(:mod:`ferrochunk.split.splitter`) and its engines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable, Literal, Optional, TypedDict, Union

DEFAULT_SEPARATORS = ("\n\n", "\n", " ", "")


class SplitOptions(TypedDict, total=False):
    """The keyword options ``split(text, chunk_size, **options)`` passes to :class:`Splitter`
    (typed, so a type checker catches ``seperators=``; at run time a ``TypeError`` does)."""

    separators: Optional[Sequence[str]]
    is_separator_regex: bool
    keep_separator: Union[bool, str]
    strip_whitespace: bool
    length_function: Optional[Callable[[str], int]]


class SplitterArgs(TypedDict):
    """A ``Splitter``'s arguments once checked (``Splitter._args``): what its engine is
    built from, and what its pickle, ``repr`` and ``settings`` say."""

    chunk_size: int
    chunk_overlap: int
    separators: tuple[str, ...]
    is_separator_regex: bool
    keep_separator: Literal["start", "end"]
    strip_whitespace: bool
    length_function: Optional[Callable[[str], int]]


__all__ = ["DEFAULT_SEPARATORS", "SplitOptions", "SplitterArgs"]
