"""What ``ferrochunk chunk`` reads: files and folders (walked in name order, symlinks
followed once each), ``-`` for standard input, each file taken as text, JSON Lines or
Parquet by its suffix (``.gz`` allowed for text and JSON Lines) or by ``--input-format``.

Inputs become the tuples ``_native.CorpusJob`` takes; Parquet files are read here with
pyarrow, a batch of rows at a time, so only a bounded part is in memory.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional

from . import UsageError

# Text formats, JSON Lines and Parquet; text and JSON Lines may also be gzipped.
DEFAULT_GLOBS = (
    *("*.md", "*.markdown", "*.mdx", "*.txt", "*.text", "*.rst", "*.adoc", "*.asciidoc"),
    *("*.org", "*.tex", "*.jsonl", "*.ndjson", "*.parquet"),
)
JSONL_SUFFIXES = (".jsonl", ".ndjson")
PARQUET_SUFFIXES = (".parquet", ".pq")
_KINDS = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


@dataclass
class Source:
    """One input: ``kind`` is ``text``, ``jsonl``, ``parquet`` or ``stdin``."""

    path: str
    kind: str
    size: int = 0


@dataclass
class Found:
    """Inputs in order; ``notes`` are things left out (shown, exit code unchanged);
    ``skipped`` are inputs that could not be read (exit code 1)."""

    sources: list[Source] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

    @property
    def total_bytes(self) -> int:
        return sum(s.size for s in self.sources)


def kind_of(path: str, forced: str) -> str:
    """The input kind of ``path`` (``forced`` unless it is ``auto``)."""
    if forced != "auto":
        return forced
    name = path.lower().removesuffix(".gz")
    if name.endswith(JSONL_SUFFIXES):
        return "jsonl"
    if name.endswith(PARQUET_SUFFIXES):
        return "parquet"
    return "text"


def matches(name: str, globs: Sequence[str]) -> bool:
    """Whether a file name matches a pattern, with or without a ``.gz`` suffix."""
    plain = name.removesuffix(".gz")
    return any(fnmatch.fnmatch(name, g) or fnmatch.fnmatch(plain, g) for g in globs)


def collect(paths: Sequence[str], globs: Sequence[str], forced: str) -> Found:
    """Every input named by ``paths``; a folder holding no matching file is an error."""
    found = Found()
    for path in paths:
        if path == "-":
            found.sources.append(Source("-", "stdin" if forced == "auto" else forced))
            continue
        try:
            info = os.stat(path)
        except OSError as err:
            reason = "no such file or folder" if not os.path.lexists(path) else str(err)
            found.skipped.append((path, reason))
            continue
        if stat.S_ISDIR(info.st_mode):
            before = len(found.sources)
            _walk(path, globs, forced, found)
            if len(found.sources) == before:
                raise UsageError(
                    f"no files matching {' '.join(globs)} in {path} (choose others with --glob)"
                )
        elif stat.S_ISREG(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            found.sources.append(Source(path, kind_of(path, forced), info.st_size))
        else:
            found.notes.append((path, f"{_kind(info.st_mode)}, not a file: skipped"))
    return found


def _walk(folder: str, globs: Sequence[str], forced: str, found: Found) -> None:
    """Files before subfolders, each in name order; a folder reached twice (a symlink
    loop, or two links to one folder) is read once."""
    seen: set[tuple[int, int]] = set()
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            info = os.stat(current)
            entries = sorted(os.scandir(current), key=lambda e: e.name)
        except OSError as err:
            found.skipped.append((current, f"cannot read folder: {err.strerror or err}"))
            continue
        key = (info.st_dev, info.st_ino)
        if key in seen:
            found.notes.append((current, "folder already read (symlink loop?): skipped"))
            continue
        seen.add(key)
        folders = []
        for entry in entries:
            _entry(entry, globs, forced, found, folders)
        stack.extend(reversed(folders))


def _entry(
    entry: os.DirEntry, globs: Sequence[str], forced: str, found: Found, folders: list[str]
) -> None:
    try:
        info = os.stat(entry.path)  # follows symlinks
    except OSError:
        if matches(entry.name, globs):
            found.skipped.append((entry.path, "broken symlink"))
        return
    if stat.S_ISDIR(info.st_mode):
        folders.append(entry.path)
    elif not matches(entry.name, globs):
        return
    elif stat.S_ISREG(info.st_mode):
        found.sources.append(Source(entry.path, kind_of(entry.path, forced), info.st_size))
    else:
        found.notes.append((entry.path, f"{_kind(info.st_mode)}, not a file: skipped"))


def _kind(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def job_inputs(
    sources: Sequence[Source],
    text_column: str,
    id_column: Optional[str],
    skipped: list[tuple[str, str]],
) -> Iterator[tuple[Any, ...]]:
    """The tuples ``_native.CorpusJob`` reads; Parquet problems go to ``skipped``."""
    for source in sources:
        if source.kind == "stdin":
            yield ("stdin", False)
        elif source.kind == "parquet":
            yield from _parquet(source, text_column, id_column, skipped)
        elif source.path == "-":
            yield ("stdin", source.kind == "jsonl")
        else:
            yield (source.kind, source.path, source.path, source.size)


def _parquet(
    source: Source, text_column: str, id_column: Optional[str], skipped: list[tuple[str, str]]
) -> Iterator[tuple[Any, ...]]:
    pq = _pyarrow_parquet()
    try:
        file = pq.ParquetFile(source.path)
        names = file.schema_arrow.names
        for column in (text_column, id_column):
            if column is not None and column not in names:
                raise ValueError(f"no column {column!r} (columns: {', '.join(names)})")
        kind = file.schema_arrow.field(text_column).type
        if not _is_string(kind):
            raise ValueError(f"column {text_column!r} holds {kind}, not strings")
        rows = max(file.metadata.num_rows, 1)
        columns = [text_column] + ([id_column] if id_column else [])
        row = 0
        for batch in file.iter_batches(batch_size=2048, columns=columns):
            texts = batch.column(text_column).to_pylist()
            ids = None
            if id_column:
                ids = [None if v is None else str(v) for v in batch.column(id_column).to_pylist()]
            size = source.size * batch.num_rows // rows
            yield ("rows", source.path, row, texts, ids, size)
            row += batch.num_rows
    except (OSError, ValueError) as err:  # pyarrow's ArrowInvalid is a ValueError
        skipped.append((source.path, f"cannot read Parquet: {err}"))


def _is_string(kind: Any) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind)) or (
        hasattr(pa.types, "is_string_view") and pa.types.is_string_view(kind)
    )


def _pyarrow_parquet() -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise UsageError(
            "Parquet needs pyarrow: pip install 'ferrochunk[arrow]' (or pyarrow)"
        ) from None
    return pq


__all__ = ["DEFAULT_GLOBS", "Found", "Source", "collect", "job_inputs", "kind_of", "matches"]
