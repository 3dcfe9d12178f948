"""Arrow in, Arrow out: chunk a column of documents without a Python object per row.

>>> import pyarrow as pa
>>> from ferrochunk import Splitter
>>> from ferrochunk.arrow import chunk_arrow
>>> docs = pa.table({"id": [7, 8], "text": ["one two three", None]})
>>> out = chunk_arrow(docs, chunker=Splitter(8, chunk_overlap=0), keep_columns=["id"], threads=1)
>>> out.select(["row", "chunk_index", "text", "id"]).to_pylist()
[{'row': 0, 'chunk_index': 0, 'text': 'one two', 'id': 7}, \
{'row': 0, 'chunk_index': 1, 'text': 'three', 'id': 7}]
>>> ArrowStats.of(out).null_texts
1

Any object with ``__arrow_c_stream__`` or ``__arrow_c_array__`` is read in place (a
``pyarrow.Table``, ``RecordBatch``, ``RecordBatchReader`` or ``ChunkedArray`` of strings, a
polars ``DataFrame``, a DuckDB result, a pandas ``DataFrame``). The schema is in
:mod:`.schema` and docs/engines.md.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Optional

from .. import _native
from ..frontend.batch import check_threads
from ..markdown.chunker import NativeMarkdownEngine
from .rows import as_table, check_columns, chunk_rows
from .schema import ArrowStats, output_schema

logger = logging.getLogger("ferrochunk")
_NATIVE_LENGTHS = (_native.TokenCounter, _native.HfTokenCounter)


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError:
        raise ImportError(
            "ferrochunk.arrow needs pyarrow: pip install 'ferrochunk[arrow]' (or pyarrow)"
        ) from None
    return pyarrow


def _native_route(chunker: Any) -> Optional[tuple[Any, Any, str, Optional[int]]]:
    """``(engine, length, settings, parent_size)`` when the Rust path reproduces
    ``chunker.split`` exactly; ``None`` sends the rows through the Python path."""
    from ..markdown.chunker import MarkdownChunker
    from ..split.splitter import Splitter

    if isinstance(chunker, Splitter) and isinstance(chunker._engine, _native.Splitter):
        length = chunker._args["length_function"]
        if length is None or isinstance(length, _NATIVE_LENGTHS):
            return chunker._engine, length, chunker.settings, None
    if isinstance(chunker, MarkdownChunker) and isinstance(chunker._engine, NativeMarkdownEngine):
        length = chunker.length_function
        if not chunker.embedding_text and (length is None or isinstance(length, _NATIVE_LENGTHS)):
            return chunker._engine._native, length, chunker.settings, chunker.parent_size
    return None


def _check_chunker(chunker: Any) -> None:
    from ..markdown.chunker import MarkdownChunker
    from ..split.splitter import Splitter

    if not isinstance(chunker, (Splitter, MarkdownChunker)):
        raise TypeError(
            "chunker must be a ferrochunk Splitter or MarkdownChunker (chunks with offsets), "
            f"got {type(chunker).__name__}; for a LangChain-style splitter use "
            "ferrochunk.Splitter with the same chunk_size, chunk_overlap and separators"
        )


class _CountWarnings(logging.Filter):
    """Counts (and holds back) the per-chunk size warnings: one summary is logged instead."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("Created a chunk of size"):
            self.count += 1
            return False
        return True


def chunk_arrow(
    data: Any,
    *,
    chunker: Any,
    text_column: str = "text",
    id_column: Optional[str] = None,
    keep_columns: Sequence[str] = (),
    threads: Optional[int] = None,
    chunk_ids: bool = True,
) -> Any:
    """One row per chunk of every document in ``data[text_column]``, as a ``pyarrow.Table``.

    ``chunker`` is a :class:`~ferrochunk.Splitter` or :class:`~ferrochunk.MarkdownChunker`
    (either stack); each row's chunks are exactly ``chunker.split(text)``'s. ``id_column``
    (strings) gives document ids, else each text's digest does. ``keep_columns`` are
    repeated on every chunk of their row. Null texts give no chunks and are counted
    (:class:`ArrowStats`, from the schema metadata). Native chunkers run in Rust with the GIL
    released on ``threads`` threads (``None``: ``FERROCHUNK_NUM_THREADS``,
    ``RAYON_NUM_THREADS``, else the CPUs this process may use); a Python ``length_function``
    or the reference classes go row by row in Python, same output.

    ``chunk_ids=False`` leaves out the ``chunk_id`` column: with an ``id_column`` no text is
    hashed then (SHA-256 of every document, which the ids name, is most of what this
    function adds to splitting). Markdown's ``parent_id`` is an id, so ``parent_size``
    needs ``chunk_ids``.
    """
    pa = _pyarrow()
    _check_chunker(chunker)
    if not (hasattr(data, "__arrow_c_stream__") or hasattr(data, "__arrow_c_array__")):
        raise TypeError(
            "data must be Arrow data (a pyarrow Table, RecordBatch, RecordBatchReader or "
            "ChunkedArray, a polars DataFrame, a DuckDB result...), got "
            f"{type(data).__name__}; for a list of str use pyarrow.table({{'text': texts}})"
        )
    if isinstance(keep_columns, str):
        raise TypeError("keep_columns must be a sequence of column names")
    keep = list(keep_columns)  # read once: an iterator would be empty the second time
    if not all(isinstance(k, str) for k in keep):
        raise TypeError("keep_columns must be a sequence of column names")
    for name, value in (("text_column", text_column), ("id_column", id_column)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a column name (str), got {type(value).__name__}")
    if not isinstance(chunk_ids, bool):
        raise TypeError(f"chunk_ids must be True or False, got {chunk_ids!r}")
    if not chunk_ids and getattr(chunker, "parent_size", None) is not None:
        raise ValueError(
            "parent_id is a chunk id: use chunk_ids=True with parent_size, or a "
            "MarkdownChunker without parent_size"
        )
    n = check_threads(threads)  # None: resolved in Rust by ferrochunk.parallel's rules
    route = _native_route(chunker)
    if route is not None:
        engine, length, settings, parent_size = route
        table, counts = _native.chunk_arrow(
            data, engine, length, settings, text_column, id_column, keep, n, parent_size, chunk_ids
        )
        rows, nulls, chunks, oversized = counts
    else:
        table = as_table(pa, data, text_column)
        check_columns(pa, table, text_column, id_column)
        counter = _CountWarnings()
        logger.addFilter(counter)
        try:
            table, (rows, nulls) = chunk_rows(
                pa, table, chunker, text_column, id_column, keep, chunk_ids
            )
        finally:
            logger.removeFilter(counter)
        chunks, oversized = table.num_rows, counter.count
    if oversized:
        logger.warning(
            "%d chunks are longer than the chunk size (each piece between separators was too "
            "long to cut further)",
            oversized,
        )
    stats = ArrowStats(rows, nulls, chunks, oversized)
    return table.replace_schema_metadata(stats.metadata())


__all__ = ["ArrowStats", "chunk_arrow", "output_schema"]
