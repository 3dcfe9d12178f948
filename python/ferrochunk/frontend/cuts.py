"""Cut reasons: why a chunk ends where it does, as the chunkers report them.

The splitters report a separator's index (or the end of the text); this names it. The
structure-aware chunkers report their own reasons (``heading``, ``block``, ``sentence``…):
:data:`REASONS` is the whole vocabulary, which ``ferrochunk view`` colours by.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple, Optional

#: Literal separators with a name of their own (LangChain's defaults).
SEPARATOR_NAMES = {"\n\n": "paragraph", "\n": "line", " ": "word", "": "character"}

#: Every reason a chunker reports, from the strongest boundary to the weakest.
REASONS = (
    "end",
    "heading",
    "paragraph",
    "block",
    "atomic",
    "line",
    "sentence",
    "clause",
    "statement",
    "separator",
    "pattern",
    "word",
    "character",
    "limit",
)


class Cut(NamedTuple):
    """Why one chunk ends where it does.

    ``reason`` is one of :data:`REASONS`; ``separator`` the separator (or pattern) whose
    gap the chunk ends at, ``None`` for reasons that are no separator (``end``, ``heading``).
    """

    reason: str
    separator: Optional[str] = None


def separator_cuts(levels: Sequence[int], separators: Sequence[str], is_regex: bool) -> list[Cut]:
    """The splitters' separator indices (``-1``: the end of the text) as :class:`Cut`\\ s."""
    named = [_separator_cut(s, is_regex) for s in separators]
    end = Cut("end")
    return [end if i < 0 else named[i] for i in levels]


def _separator_cut(sep: str, is_regex: bool) -> Cut:
    # A pattern of letters, digits and white space alone matches itself.
    literal = not is_regex or re.fullmatch(r"[\w\s]*", sep) is not None
    name = SEPARATOR_NAMES.get(sep) if literal else None
    if name is None:
        name = "pattern" if is_regex else "separator"
    return Cut(name, sep)


__all__ = ["REASONS", "SEPARATOR_NAMES", "Cut", "separator_cuts"]
