"""Where ``ferrochunk chunk`` writes: JSON Lines (bytes from Rust, written as they come) or
Parquet (columns from Rust wrapped in Arrow arrays without copying, a row group per batch).
A file is written whole or not at all (``atomic_output``); standard output, a device or a
FIFO as it comes.

Parquet schema (JSON Lines has the same fields): ``source`` string, ``row`` int64 (null
for text files), ``document_id`` string, ``index``, ``start``, ``end``, ``byte_start``,
``byte_end`` int64, ``text``, ``chunk_id`` string, ``token_count`` int64 (null unless sizes
are tokens); with the Markdown chunker also ``heading_path`` list<string>,
``continuation`` bool, ``table_header`` string. Strings are Arrow ``large_string``.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import IO, Any, Optional

from .. import _atomic
from . import Terminated, UsageError
from .inputs import display_name

NUMBERS = ("index", "start", "end", "byte_start", "byte_end")


# Output suffix -> format (JSON Lines are written uncompressed: no ``.gz``).
SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet", ".pq": "parquet"}


def format_of(out: str, forced: Optional[str]) -> str:
    """``jsonl`` or ``parquet``: ``forced``, else by the output's suffix; standard output
    and an existing device or FIFO (``/dev/null``) are JSON Lines. Another suffix is
    refused: ``x.csv`` got JSON Lines under a name that said otherwise."""
    if forced:
        return forced
    suffix = os.path.splitext(out.lower())[1]
    if suffix in SUFFIXES:
        return SUFFIXES[suffix]
    if out == "-" or _special(out):
        return "jsonl"
    raise UsageError(
        f"--out {out}: name it .jsonl (or .ndjson) for JSON Lines or .parquet (or .pq) for "
        "Parquet, or give --format"
    )


def _special(path: str) -> bool:
    """An existing file that is not a regular one (``/dev/null``, a FIFO)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


@contextmanager
def atomic_output(out: str) -> Iterator[str]:
    """Where to write ``out``: for a regular file (or a name not taken yet), a temporary
    file beside it that replaces it on a clean exit and is removed on an error, Ctrl-C,
    SIGTERM or SIGHUP (``ferrochunk._atomic``), under the output's lock, after removing what
    killed runs left; standard output, a device or a FIFO (which cannot be renamed over)
    itself. A symlink stays: the file it points to is replaced."""
    if out == "-" or _special(out):
        yield out
        return
    target = os.path.realpath(out)
    with ExitStack() as stack:
        try:
            stack.enter_context(_atomic.locked(target))
        except _atomic.Busy as busy:
            raise UsageError(busy_message(out, busy.pid)) from None
        stack.enter_context(_atomic.signals_raise(Terminated))
        _atomic.remove_leftovers(target)
        yield stack.enter_context(_atomic.replaced(target))


def busy_message(out: str, pid: Optional[int]) -> str:
    by = f" (process {pid})" if pid else ""
    return (
        f"--out {out} is being written by another ferrochunk run{by}: wait for it to end "
        "or choose another --out"
    )


class JsonlWriter:
    """JSON Lines to standard output, or (``path``) to a file Rust writes itself."""

    native_format = "jsonl"

    def __init__(self, out: str) -> None:
        self.path = None if out == "-" else out
        self.file: IO[bytes] = sys.stdout.buffer

    def write(self, payload: bytes) -> None:
        if payload:
            self.file.write(payload)

    def close(self) -> None:
        self.file.flush()


class ParquetWriter:
    """Parquet to a file; a row group per batch of chunks."""

    native_format = "columns"
    path = None  # written here, from the columns Rust hands back

    def __init__(self, out: str, markdown: bool) -> None:
        if out == "-":
            raise UsageError("Parquet output needs a file: give --out FILE.parquet")
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise UsageError(
                'Parquet needs pyarrow: pip install "ferrochunk[arrow]" (or pyarrow)'
            ) from None
        self.pa = pa
        self.schema = schema(pa, markdown)
        # pyarrow cannot encode a name that is not UTF-8: such a file is opened here.
        self.file = None if display_name(out) == out else open(out, "wb")
        self.writer = pq.ParquetWriter(self.file or out, self.schema)

    def write(self, payload: dict[str, Any]) -> None:
        if payload["len"]:
            self.writer.write_batch(self.batch(payload))

    def batch(self, c: dict[str, Any]) -> Any:
        pa, n = self.pa, c["len"]
        arrays = [self.strings(n, c["source"]), self.ints(n, c["row"])]
        arrays.append(self.strings(n, c["document_id"]))
        arrays.extend(self.ints(n, c[name]) for name in NUMBERS)
        arrays += [self.strings(n, c["text"]), self.strings(n, c["chunk_id"])]
        arrays.append(self.ints(n, c["token_count"]))
        if c["markdown"]:
            offsets, titles = c["heading_path"]
            child = self.strings((len(offsets) and _last_offset(offsets)), titles)
            kind = pa.large_list(pa.large_string())
            arrays.append(
                pa.Array.from_buffers(kind, n, [None, pa.py_buffer(offsets)], children=[child])
            )
            arrays.append(
                pa.Array.from_buffers(pa.bool_(), n, [None, pa.py_buffer(c["continuation"])])
            )
            arrays.append(self.strings(n, c["table_header"]))
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    def strings(self, n: int, buffers: tuple[bytes, bytes, Optional[bytes]]) -> Any:
        pa = self.pa
        offsets, data, validity = buffers
        if n == 0:
            return pa.array([], pa.large_string())
        bufs = [_maybe(pa, validity), pa.py_buffer(offsets), pa.py_buffer(data)]
        return pa.Array.from_buffers(pa.large_string(), n, bufs)

    def ints(self, n: int, buffers: tuple[bytes, Optional[bytes]]) -> Any:
        pa = self.pa
        values, validity = buffers
        return pa.Array.from_buffers(pa.int64(), n, [_maybe(pa, validity), pa.py_buffer(values)])

    def close(self) -> None:
        self.writer.close()
        if self.file is not None:
            self.file.close()


def _maybe(pa: Any, validity: Optional[bytes]) -> Any:
    return None if validity is None else pa.py_buffer(validity)


def _last_offset(offsets: bytes) -> int:
    return int.from_bytes(offsets[-8:], "little", signed=True)


def schema(pa: Any, markdown: bool) -> Any:
    """The Parquet schema (see the module comment)."""
    fields = [
        pa.field("source", pa.large_string(), nullable=False),
        pa.field("row", pa.int64()),
        pa.field("document_id", pa.large_string(), nullable=False),
        *(pa.field(name, pa.int64(), nullable=False) for name in NUMBERS),
        pa.field("text", pa.large_string(), nullable=False),
        pa.field("chunk_id", pa.large_string(), nullable=False),
        pa.field("token_count", pa.int64()),
    ]
    if markdown:
        fields += [
            pa.field("heading_path", pa.large_list(pa.large_string()), nullable=False),
            pa.field("continuation", pa.bool_(), nullable=False),
            pa.field("table_header", pa.large_string()),
        ]
    return pa.schema(fields)


def open_writer(out: str, fmt: str, markdown: bool) -> Any:
    """The writer for ``out`` in format ``fmt``."""
    if fmt == "parquet":
        return ParquetWriter(out, markdown)
    return JsonlWriter(out)


__all__ = [
    "JsonlWriter",
    "ParquetWriter",
    "atomic_output",
    "format_of",
    "open_writer",
    "schema",
]
