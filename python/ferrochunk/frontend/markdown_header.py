"""What ``MarkdownHeaderTextSplitter`` (:mod:`ferrochunk.markdown.header`) shares with its
line scans: the resolved header rules, LangChain's aggregation and custom-header reading.
Behaviour reproduced from
``langchain_text_splitters`` 1.1, quirks included: lines are stripped and lose their
non-printable characters, a fence is a line starting with three backticks (and no second
triple) or tildes, a header is a line starting with one of the ``headers_to_split_on``
markers followed by a space or nothing, blank lines end a block, and blocks with equal
metadata are joined with ``"  \\n"``.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

Metadata = dict[int, str]  # header-name id -> header text, in insertion order
Block = tuple[str, Metadata]


class HeaderRule(NamedTuple):
    """One entry of ``headers_to_split_on``, resolved: ``name`` is an id, or None to skip."""

    sep: str
    name: Optional[int]
    level: int
    custom: bool


def aggregate(blocks: list[Block], strip_headers: bool) -> list[Block]:
    """LangChain's ``aggregate_lines_to_chunks`` on ``(content, metadata)`` blocks."""
    out: list[list[Any]] = []
    for content, meta in blocks:
        if out and out[-1][1] == meta:
            out[-1][0] += "  \n" + content
        elif (
            out
            and len(out[-1][1]) < len(meta)
            and out[-1][0].split("\n")[-1][0] == "#"
            and not strip_headers
        ):
            out[-1][0] += "  \n" + content
            out[-1][1] = meta
        else:
            out.append([content, meta])
    return [(c, m) for c, m in out]


def custom_title(line: str, sep: str) -> Optional[str]:
    """The title of a ``**Title**``-style custom header, or None when ``line`` is not one:
    exactly one ``sep`` on each side, something between, and not only ``sep`` characters."""
    n = len(sep)
    if n == 0 or len(line) < 2 * n + 1 or not (line.startswith(sep) and line.endswith(sep)):
        return None
    if line[n:].startswith(sep) or line[:-n].endswith(sep):
        return None
    title = line[n:-n].strip()
    if title and not all(c in sep for c in title.replace(" ", "")):
        return title
    return None


__all__ = ["Block", "HeaderRule", "Metadata", "aggregate", "custom_title"]
