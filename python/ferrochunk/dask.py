"""Chunking with Dask: ``dask.dataframe`` partitions and ``dask.bag`` partitions.

>>> import dask.dataframe as dd  # doctest: +SKIP
>>> from ferrochunk import Splitter
>>> from ferrochunk.dask import chunk_dataframe
>>> docs = dd.read_parquet("docs.parquet")  # doctest: +SKIP
>>> chunks = chunk_dataframe(docs, Splitter(1000), keep_columns=["id"])  # doctest: +SKIP
>>> chunks.to_parquet("chunks/")  # doctest: +SKIP

Each partition goes through :func:`ferrochunk.arrow.chunk_arrow` (pandas' Arrow-backed
columns, so nothing is copied into Python objects on the way); the chunker is pickled to
each worker once per task graph, by its arguments. ``threads`` defaults to 1: Dask already
runs one task per worker thread, so ``threads_per_worker`` is the knob.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Optional

from .arrow import chunk_arrow, output_schema


def _table(df: Any) -> Any:
    import pyarrow as pa

    return pa.Table.from_pandas(df, preserve_index=False)


def _frame(table: Any) -> Any:
    import pandas as pd

    return table.to_pandas(types_mapper=pd.ArrowDtype)


def chunk_partition(
    df: Any,
    chunker: Any,
    text_column: str = "text",
    id_column: Optional[str] = None,
    keep_columns: Sequence[str] = (),
    threads: int = 1,
    chunk_ids: bool = True,
) -> Any:
    """One pandas partition of documents to one of chunks (``row`` counts in the partition)."""
    table = chunk_arrow(
        _table(df),
        chunker=chunker,
        text_column=text_column,
        id_column=id_column,
        keep_columns=keep_columns,
        threads=threads,
        chunk_ids=chunk_ids,
    )
    return _frame(table)


def chunk_dataframe(
    ddf: Any,
    chunker: Any,
    *,
    text_column: str = "text",
    id_column: Optional[str] = None,
    keep_columns: Sequence[str] = (),
    threads: int = 1,
    chunk_ids: bool = True,
) -> Any:
    """``ddf.map_partitions`` with :func:`chunk_partition`, and the output's ``meta``."""
    import pyarrow as pa

    if isinstance(keep_columns, str):  # as chunk_arrow refuses it: not its characters
        raise TypeError("keep_columns must be a sequence of column names")
    keep = list(keep_columns)
    empty = _table(ddf._meta)
    markdown = hasattr(chunker, "split_hierarchy")
    parents = markdown and chunker.parent_size is not None
    missing = [k for k in keep if k not in empty.schema.names]
    if missing:  # chunk_arrow's message, now rather than when the graph runs
        names = ", ".join(f'"{n}"' for n in empty.schema.names)
        raise ValueError(f'no column "{missing[0]}" to keep (columns: {names})')
    kept = [empty.schema.field(k) for k in keep]
    schema = output_schema(pa, markdown, parents, kept, chunk_ids=chunk_ids)
    return ddf.map_partitions(
        chunk_partition,
        chunker,
        text_column,
        id_column,
        keep,
        threads,
        chunk_ids,
        meta=_frame(schema.empty_table()),
        align_dataframes=False,
    )


def chunk_texts(texts: Iterable[str], chunker: Any, threads: int = 1) -> list[dict[str, Any]]:
    """A ``dask.bag`` partition of texts to chunk records (``bag.map_partitions`` with it)."""
    import pyarrow as pa

    table = pa.table({"text": pa.array(list(texts), pa.string())})
    records: list[dict[str, Any]] = chunk_arrow(table, chunker=chunker, threads=threads).to_pylist()
    return records


__all__ = ["chunk_dataframe", "chunk_partition", "chunk_texts"]
