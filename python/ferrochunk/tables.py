"""Tables as data: a Markdown table or CSV/TSV text cut into groups of rows, each chunk's
``embedding_text`` repeating the header (as a Markdown table, or one ``column=value; ...``
line per row), with the table's title in metadata.

Chunks stay exact spans of the source (``text == source[start:end]``: the rows of the
group); what to embed is ``metadata["embedding_text"]``. CSV is read by Python's ``csv``
module (the standard quoting rules: quoted fields with delimiters, doubled quotes and
newlines); this is per-row work, so it stays in Python.

>>> from ferrochunk.tables import chunk_table
>>> csv_text = 'name,note\\nada,"likes, commas"\\nbob,"a ""b"" c"\\n'
>>> [c.metadata["embedding_text"] for c in chunk_table(csv_text, format="csv",
...     style="pairs", chunk_size=40, title="People")]
['People\\nname=ada; note=likes, commas', 'People\\nname=bob; note=a "b" c']
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, Callable, Optional

from .split.splitter import Chunk

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
_PIPE = re.compile(r"(?<!\\)\|")
Row = tuple[list[str], int, int]  # cells, start, end (code points)


def _csv_rows(text: str, delimiter: str) -> list[Row]:
    """Records with their source spans (a quoted field may span lines)."""
    lines = _LINE.findall(text)
    pos = 0
    consumed = [0]

    def feed() -> Iterator[str]:
        for line in lines:
            consumed[0] += len(line)
            yield line

    out: list[Row] = []
    for cells in csv.reader(feed(), delimiter=delimiter):
        start, pos = pos, consumed[0]
        if cells:
            out.append((cells, start, start + len(text[start:pos].rstrip("\r\n"))))
    return out


def _markdown_rows(text: str) -> tuple[list[Row], Optional[str]]:
    """Rows of the first pipe table in ``text`` (delimiter row dropped), and the last
    non-blank line before it (a heading or caption) as its title."""
    out: list[Row] = []
    title = None
    pos = 0
    for line in _LINE.findall(text):
        body = line.rstrip("\r\n")
        stripped = body.strip()
        if "|" in stripped and (out or not stripped.startswith(">")):
            cells = _PIPE.split(stripped.strip("|") if stripped.endswith("|") else stripped)
            if stripped.startswith("|") and not stripped.endswith("|"):
                cells = _PIPE.split(stripped[1:])
            cells = [c.strip().replace("\\|", "|") for c in cells]
            if not (len(out) == 1 and all(re.fullmatch(":?-+:?", c) for c in cells)):
                lead = len(body) - len(body.lstrip())
                out.append((cells, pos + lead, pos + len(body.rstrip())))
        elif out:
            break
        elif stripped:
            title = stripped.lstrip("#").strip() or None
        pos += len(line)
    return out, title


def _render(header: list[str], rows: list[list[str]], style: str) -> str:
    if style == "pairs":

        def names(k: int) -> str:
            return header[k] if k < len(header) else f"column{k + 1}"

        return "\n".join("; ".join(f"{names(k)}={v}" for k, v in enumerate(r)) for r in rows)

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"

    delim = "|" + "|".join(["---"] * len(header)) + "|"
    return "\n".join([line(header), delim, *(line(r) for r in rows)])


def chunk_table(
    text: str,
    *,
    format: str = "markdown",
    style: str = "markdown",
    chunk_size: int = 1000,
    title: Optional[str] = None,
    metadata: Optional[Mapping[str, Any]] = None,
    length_function: Optional[Callable[[str], int]] = None,
) -> list[Chunk]:
    """Groups of rows whose ``embedding_text`` (title, header, rows) fits ``chunk_size``
    (a row too large for that is a chunk alone). ``format`` is ``"markdown"``, ``"csv"``
    or ``"tsv"``; ``style`` is ``"markdown"`` (header and delimiter rows repeated) or
    ``"pairs"`` (``column=value; ...``). The first row is the header; ``title`` defaults,
    for Markdown, to the line just before the table."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    if format not in ("markdown", "csv", "tsv"):
        raise ValueError(f"format must be 'markdown', 'csv' or 'tsv', got {format!r}")
    if style not in ("markdown", "pairs"):
        raise ValueError(f"style must be 'markdown' or 'pairs', got {style!r}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size <= 0:
        raise ValueError(f"chunk_size must be an int > 0, got {chunk_size!r}")
    if format == "markdown":
        rows, found = _markdown_rows(text)
        title = found if title is None else title
    else:
        rows = _csv_rows(text, "," if format == "csv" else "\t")
    if len(rows) < 2:
        return []
    header, body = rows[0][0], rows[1:]
    measure = length_function or len
    prefix = f"{title}\n" if title else ""

    def render(group: list[Row]) -> str:
        return prefix + _render(header, [r[0] for r in group], style)

    groups: list[list[Row]] = [[body[0]]]
    for row in body[1:]:
        if measure(render([*groups[-1], row])) <= chunk_size:
            groups[-1].append(row)
        else:
            groups.append([row])
    return _chunks(text, groups, render, header, title, metadata)


def _chunks(
    text: str,
    groups: list[list[Row]],
    render: Callable[[list[Row]], str],
    header: list[str],
    title: Optional[str],
    metadata: Optional[Mapping[str, Any]],
) -> list[Chunk]:
    out = []

    first = 0
    byte = pos = 0
    for index, group in enumerate(groups):
        start, end = group[0][1], group[-1][2]
        byte += len(text[pos:start].encode("utf-8", "surrogatepass"))
        size = len(text[start:end].encode("utf-8", "surrogatepass"))
        meta = dict(metadata or {})
        meta.update(
            embedding_text=render(group),
            table_title=title,
            columns=tuple(header),
            row_start=first,
            row_end=first + len(group),
            continuation=index > 0,
        )
        first += len(group)
        chunk = Chunk(text[start:end], start, end, byte, byte + size, index, MappingProxyType(meta))
        out.append(chunk)
        pos = start
    return out


__all__ = ["chunk_table"]
