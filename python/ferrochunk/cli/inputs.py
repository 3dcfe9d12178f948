"""What ``ferrochunk chunk`` reads: files and folders (walked in name order, symlinks
followed once each), ``-`` for standard input, each file taken as text, JSON Lines or
Parquet by its suffix (``.gz`` allowed for text and JSON Lines) or by ``--input-format``.

Folders are walked lazily (``Walk``): the job pulls inputs as its read-ahead has room, so
the pool works on the first files while the walk goes on. Inputs become the tuples
``_native.CorpusJob`` takes; Parquet files are read here with
pyarrow, a batch of rows at a time, so only a bounded part is in memory.
"""

from __future__ import annotations

import fnmatch
import itertools
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import nullcontext
from typing import Any, ContextManager, NamedTuple, Optional

from .._atomic import own_file
from . import UsageError

# Text formats, JSON Lines and Parquet; text and JSON Lines may also be gzipped.
DEFAULT_GLOBS = (
    *("*.md", "*.markdown", "*.mdx", "*.txt", "*.text", "*.rst", "*.adoc", "*.asciidoc"),
    *("*.org", "*.tex", "*.jsonl", "*.ndjson", "*.parquet"),
)
JSONL_SUFFIXES = (".jsonl", ".ndjson")
PARQUET_SUFFIXES = (".parquet", ".pq")
STDIN = (-1, -1)  # standard input's key among the files read
_KINDS = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def _stdin_size() -> Optional[int]:
    """The size of standard input when it is a regular file (``< file``), else ``None``
    (a pipe's length is known only at its end)."""
    try:
        info = os.fstat(sys.stdin.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


class Source(NamedTuple):
    """One input: ``kind`` is ``text``, ``jsonl``, ``parquet`` or ``stdin``."""

    path: str
    kind: str
    size: int = 0
    mtime_ns: int = 0

    @property
    def name(self) -> str:
        """The path as rows show it (``source``): see :func:`display_name`."""
        return display_name(self.path)


def display_name(path: str) -> str:
    """``path`` as valid UTF-8 for the rows: a name that is not UTF-8 (on POSIX its
    undecodable bytes arrive as lone surrogates, ``os.fsdecode``) shows those bytes as
    ``\\xNN`` escapes, so distinct files keep distinct names; the file is still opened by
    its real name."""
    if path.isascii():
        return path
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        return os.fsencode(path).decode("utf-8", "backslashreplace")


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


class Walk:
    """The inputs named by ``paths``, in order, found as they are asked for: the job starts
    on the first files while the rest of the walk goes on (``eager`` walks it all first,
    for a progress bar that needs the total). ``notes`` are things left out (shown, exit code
    unchanged) and ``skipped`` inputs that could not be read (exit code 1), both growing as
    the walk goes; ``total_bytes`` counts the sources found so far.

    ``output`` is the file the job replaces: never taken as an input (in a folder walked, or
    named), told by its identity (device and inode, which a symlink or hard link shares).
    Nor are the temporary and lock files of a run (``ferrochunk._atomic.own_file``), told by
    their names: the job would read back its own rows while writing them, without end."""

    def __init__(
        self,
        paths: Sequence[str],
        globs: Sequence[str],
        forced: str,
        output: Optional[str] = None,
        also: Sequence[str] = (),
    ) -> None:
        self.notes: list[tuple[str, str]] = []
        self.skipped: list[tuple[str, str]] = []
        self.total_bytes = 0
        self.unsized = False  # a pipe among the inputs: no total is known before its end
        self.kinds: set[str] = set()  # of the sources found so far
        self._output_id = _identity(None if output == "-" else output)
        # Other files the run writes (the delta of an incremental run), never inputs either.
        self._also = {_identity(path) for path in also} - {None}
        self._match = _matcher(globs)
        self._forced = forced
        self._seen: dict[tuple[int, int], str] = {}  # (device, inode) -> the path read
        self._duplicates = 0
        self._parts: list[tuple[list[Source], Iterator[Source]]] = []
        for path in paths:
            # Each folder is walked to its first match now, so that one holding none is an
            # error before anything is written.
            rest = self._sources(path)
            duplicates = self._duplicates
            first = list(itertools.islice(rest, 1))
            if not first and self._duplicates == duplicates and _is_folder(path):
                raise UsageError(
                    f"no files matching {' '.join(globs)} in {path} (choose others with --glob)"
                )
            self._parts.append((first, rest))

    @property
    def empty(self) -> bool:
        """Nothing found and nothing skipped (nothing to chunk)."""
        return not any(first for first, _ in self._parts) and not self.skipped

    def eager(self) -> Walk:
        """Walks everything now (``total_bytes``, counted as sources are found, is then the
        total)."""
        self._parts = [
            (list(itertools.chain(first, rest)), iter(())) for first, rest in self._parts
        ]
        return self

    def __iter__(self) -> Iterator[Source]:
        for first, rest in self._parts:
            yield from first
            yield from rest

    def _sources(self, path: str) -> Iterator[Source]:
        if path == "-":
            if STDIN in self._seen:
                self.notes.append(("-", "standard input named again: read once"))
                return
            self._seen[STDIN] = "-"
            self.kinds.add("jsonl" if self._forced == "jsonl" else "text")
            size = _stdin_size()
            if size is None:
                self.unsized = True
            else:
                self.total_bytes += size
            yield Source("-", "stdin" if self._forced == "auto" else self._forced, size or 0)
            return
        try:
            info = os.stat(path)
        except OSError as err:
            reason = "no such file or folder" if not os.path.lexists(path) else str(err)
            self.skipped.append((path, reason))
            return
        if stat.S_ISDIR(info.st_mode):
            yield from self._walk(path)
        elif stat.S_ISREG(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            source = self._found(path, info)
            if source is not None:
                yield source
        else:
            self.notes.append((path, f"{_kind(info.st_mode)}, not a file: skipped"))

    def _found(self, path: str, info: os.stat_result) -> Optional[Source]:
        if self._output_id == (info.st_dev, info.st_ino):
            self.notes.append((path, "the output file itself: skipped"))
            return None
        if (info.st_dev, info.st_ino) in self._also:
            self.notes.append((path, "a file this run writes: skipped"))
            return None
        if own_file(os.path.basename(path)):
            self.notes.append((path, "a temporary or lock file of ferrochunk chunk: skipped"))
            return None
        key = (info.st_dev, info.st_ino)
        if key in self._seen:  # named twice, a hard link or a symlink to a file read
            self._duplicates += 1
            self.notes.append(
                (path, f"the same file as {display_name(self._seen[key])}: read once")
            )
            return None
        if info.st_ino:  # 0: a file system without inodes, where every file would match
            self._seen[key] = path
        self.total_bytes += info.st_size
        source = Source(path, kind_of(path, self._forced), info.st_size, info.st_mtime_ns)
        self.kinds.add(source.kind)
        return source

    def _walk(self, folder: str) -> Iterator[Source]:
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
                self.skipped.append((current, f"cannot read folder: {err.strerror or err}"))
                continue
            key = (info.st_dev, info.st_ino)
            if key in seen:
                self.notes.append((current, "folder already read (symlink loop?): skipped"))
                continue
            seen.add(key)
            folders: list[str] = []
            for entry in entries:
                source = self._entry(entry, folders)
                if source is not None:
                    yield source
            stack.extend(reversed(folders))

    def _entry(self, entry: os.DirEntry[str], folders: list[str]) -> Optional[Source]:
        wanted = self._match(entry.name)
        if not wanted and _plain_file(entry):
            return None  # neither a folder nor a match: no need to stat it
        try:
            info = os.stat(entry.path)  # follows symlinks
        except OSError:
            if wanted:
                self.skipped.append((entry.path, "broken symlink"))
            return None
        if stat.S_ISDIR(info.st_mode):
            folders.append(entry.path)
        elif not wanted:
            pass
        elif stat.S_ISREG(info.st_mode):
            return self._found(entry.path, info)
        else:
            self.notes.append((entry.path, f"{_kind(info.st_mode)}, not a file: skipped"))
        return None


def _is_folder(path: str) -> bool:
    return path != "-" and os.path.isdir(path)


def _plain_file(entry: os.DirEntry[str]) -> bool:
    """Neither a symlink nor a folder, as the folder listing says (no system call where the
    file system gives entry types); if that cannot be told, no."""
    try:
        return not entry.is_symlink() and not entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _matcher(globs: Sequence[str]) -> Callable[[str], bool]:
    """``matches(name, globs)`` as one compiled pattern (fnmatch's own translation; on
    POSIX fnmatch compares case-sensitively, as ``fnmatchcase``)."""
    if os.path.normcase("A") != "A":
        return lambda name: matches(name, globs)
    pattern = re.compile("|".join(f"(?:{fnmatch.translate(g)})" for g in globs))
    return lambda name: bool(
        pattern.match(name) or (name.endswith(".gz") and pattern.match(name[:-3]))
    )


def _identity(path: Optional[str]) -> Optional[tuple[int, int]]:
    """``(device, inode)`` of the file at ``path``, if there is one."""
    if path is None:
        return None
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    # An inode of 0 (a file system without them) would match every file: then none.
    return (info.st_dev, info.st_ino) if info.st_ino else None


def _kind(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def job_inputs(walk: Walk, text_column: str, id_column: Optional[str]) -> Iterator[tuple[Any, ...]]:
    """The tuples ``_native.CorpusJob`` reads; Parquet problems go to ``walk.skipped``."""
    for source in walk:
        yield from source_inputs(source, text_column, id_column, walk)


def source_inputs(
    source: Source, text_column: str, id_column: Optional[str], walk: Walk
) -> Iterator[tuple[Any, ...]]:
    """The tuples of one source (a Parquet file's, a batch of rows at a time)."""
    if source.kind == "stdin":
        yield ("stdin", False)
    elif source.kind == "parquet":
        yield from _parquet(source, text_column, id_column, walk)
    elif source.path == "-":
        yield ("stdin", source.kind == "jsonl")
    else:
        yield (source.kind, source.path, source.name, source.size)


def _parquet(
    source: Source, text_column: str, id_column: Optional[str], walk: Walk
) -> Iterator[tuple[Any, ...]]:
    """The file's rows; its part of ``walk.total_bytes`` becomes its text's UTF-8 bytes (an
    estimate from the footer when opened, the exact sum when read)."""
    pq = _pyarrow_parquet()
    counted, read = source.size, 0
    try:
        with _readable(source) as where:
            file = pq.ParquetFile(where)
            _check_columns(file, text_column, id_column)
            estimate = _text_estimate(file, text_column)
            walk.total_bytes += estimate - counted
            counted = estimate
            for rows in _rows(file, source, text_column, id_column):
                read += rows[-1]
                yield rows
    except (OSError, ValueError) as err:  # pyarrow's ArrowInvalid is a ValueError
        walk.skipped.append((source.path, f"cannot read Parquet: {err}"))
    walk.total_bytes += read - counted


def _check_columns(file: Any, text_column: str, id_column: Optional[str]) -> None:
    names = file.schema_arrow.names
    for column in (text_column, id_column):
        if column is not None and column not in names:
            raise ValueError(f"no column {column!r} (columns: {', '.join(names)})")
    kind = file.schema_arrow.field(text_column).type
    if not _is_string(kind):
        raise ValueError(f"column {text_column!r} holds {kind}, not strings")


def _rows(
    file: Any, source: Source, text_column: str, id_column: Optional[str]
) -> Iterator[tuple[Any, ...]]:
    """A batch of rows at a time, each counted by the UTF-8 bytes of its texts."""
    columns = [text_column] + ([id_column] if id_column else [])
    row = 0
    for batch in file.iter_batches(batch_size=2048, columns=columns):
        texts = batch.column(text_column).to_pylist()
        ids = None
        if id_column:
            ids = [None if v is None else str(v) for v in batch.column(id_column).to_pylist()]
        yield ("rows", source.name, row, texts, ids, utf8_bytes(texts))
        row += batch.num_rows


def utf8_bytes(texts: list[Optional[str]]) -> int:
    """The UTF-8 size of ``texts`` (ASCII ones by their length: no copy)."""
    return sum(len(t) if t.isascii() else len(t.encode()) for t in texts if t)


def _text_estimate(file: Any, text_column: str) -> int:
    """The text column's uncompressed size in the footer: its UTF-8 bytes, give or take the
    encoding's lengths and dictionary."""
    meta = file.metadata
    paths = [meta.schema.column(k).path for k in range(meta.num_columns)]
    if text_column not in paths:
        return 0
    k = paths.index(text_column)
    return sum(
        meta.row_group(g).column(k).total_uncompressed_size for g in range(meta.num_row_groups)
    )


def _readable(source: Source) -> ContextManager[Any]:
    """What pyarrow opens: the path, or for a name that is not UTF-8 (which pyarrow cannot
    encode) the file, opened here."""
    if source.name == source.path:
        return nullcontext(source.path)
    return open(source.path, "rb")


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
            'Parquet needs pyarrow: pip install "ferrochunk[arrow]" (or pyarrow)'
        ) from None
    return pq


__all__ = [
    "DEFAULT_GLOBS",
    "Source",
    "Walk",
    "job_inputs",
    "kind_of",
    "matches",
    "source_inputs",
]
