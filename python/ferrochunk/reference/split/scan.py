"""Separator scanning (mirrors ``rust/split/scan.rs``) with Python's ``re``.

A piece is ``(text, start)``: its text and its code-point offset in the source, or ``None``
when LangChain builds it from capture groups and it is not a slice of the source.
"""

from __future__ import annotations

import re
from typing import Optional, Union

Piece = tuple[str, Optional[int]]
Keep = Union[bool, str]


class Separator:
    """A literal or regex separator, compiled lazily so bad patterns fail where LangChain's do."""

    def __init__(self, text: str, is_regex: bool = False, join_text: Optional[str] = None):
        self.text = text
        self.pattern = text if is_regex else re.escape(text)
        self.join_text = text if join_text is None else join_text

    @property
    def is_chars(self) -> bool:
        """The empty separator splits into characters."""
        return not self.text

    def is_found(self, text: str) -> bool:
        """``re.search``, as LangChain picks a separator (the empty one always counts)."""
        return self.is_chars or re.search(self.pattern, text) is not None

    def split(self, text: str, start: Optional[int], keep: Keep) -> list[Piece]:
        """LangChain's ``_split_text_with_regex`` on ``text``, pieces located in the source."""
        if not self.pattern:
            return [(c, _at(start, i)) for i, c in enumerate(text)]
        # LangChain wraps the pattern in a group to keep separators; compile what it compiles.
        compiled = re.compile(f"({self.pattern})" if keep else self.pattern)
        if compiled.groups > (1 if keep else 0):
            return [(s, None) for s in _split_with_groups(text, self.pattern, keep)]
        spans = []
        last = 0
        for m in compiled.finditer(text):
            a, b = m.span()
            if not keep:
                spans.append((last, a))
                last = b
            elif keep == "end":
                spans.append((last, b))
                last = b
            else:
                spans.append((last, a))
                last = a
        spans.append((last, len(text)))
        return [(text[a:b], _at(start, a)) for a, b in spans if a < b]


def _at(start: Optional[int], offset: int) -> Optional[int]:
    return None if start is None else start + offset


def _split_with_groups(text: str, pattern: str, keep: Keep) -> list[str]:
    """LangChain's string algorithm, kept for patterns with capture groups, whose texts
    ``re.split`` returns as extra pieces (and which it may return as ``None``)."""
    if keep:
        parts = re.split(f"({pattern})", text)
        if keep == "end":
            splits = [parts[i] + parts[i + 1] for i in range(0, len(parts) - 1, 2)]
        else:
            splits = [parts[i] + parts[i + 1] for i in range(1, len(parts), 2)]
        if len(parts) % 2 == 0:
            splits += parts[-1:]
        splits = [*splits, parts[-1]] if keep == "end" else [parts[0], *splits]
    else:
        splits = re.split(pattern, text)
    return [s for s in splits if s]
