"""Chunking inside Ray Data: a callable class for ``Dataset.map_batches``.

>>> import ray  # doctest: +SKIP
>>> from ferrochunk import Splitter
>>> from ferrochunk.ray import ChunkBatches
>>> ds = ray.data.read_parquet("docs.parquet")  # doctest: +SKIP
>>> chunks = ds.map_batches(  # doctest: +SKIP
...     ChunkBatches,
...     fn_constructor_kwargs={"chunker": Splitter(1000), "keep_columns": ["id"]},
...     batch_format="pyarrow",
...     concurrency=2,  # worker actors
...     num_cpus=1,  # CPUs each one reserves: also the threads it chunks with
... )
>>> chunks.write_parquet("chunks/")  # doctest: +SKIP

Ray builds the class once per worker (the chunker is unpickled there once, by its
arguments) and hands it read-only ``pyarrow.Table`` batches; each comes back as
:func:`ferrochunk.arrow.chunk_arrow`'s table. ``row`` counts from 0 in each batch: carry an
id column (``id_column``/``keep_columns``) to know where a chunk came from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable, Optional, Union

from .arrow import chunk_arrow


def assigned_cpus() -> Optional[int]:
    """The CPUs Ray reserved for the calling task or actor (``num_cpus``), if in Ray."""
    try:
        import ray

        if not ray.is_initialized():
            return None
        context = ray.get_runtime_context()
        cpus = context.get_assigned_resources().get("CPU")  # type: ignore[no-untyped-call]

    except Exception:  # not inside Ray, or an older Ray without the call
        return None
    return max(1, round(cpus)) if cpus else None


class ChunkBatches:
    """``map_batches`` callable: a batch of documents in, one row per chunk out.

    ``chunker`` is a ``Splitter`` or ``MarkdownChunker`` (or a function returning one, to
    build it inside the worker). ``threads=None`` uses the CPUs Ray reserved for this worker
    (``num_cpus``; 1 if none), so workers never compete for more cores than they hold.
    The other keywords are :func:`~ferrochunk.arrow.chunk_arrow`'s.
    """

    def __init__(
        self,
        chunker: Union[Any, Callable[[], Any]],
        *,
        text_column: str = "text",
        id_column: Optional[str] = None,
        keep_columns: Sequence[str] = (),
        threads: Optional[int] = None,
        chunk_ids: bool = True,
    ) -> None:
        is_factory = callable(chunker) and not hasattr(chunker, "split")
        self.chunker = chunker() if is_factory else chunker
        self.text_column = text_column
        self.id_column = id_column
        self.keep_columns = list(keep_columns)
        self.threads = threads if threads is not None else (assigned_cpus() or 1)
        self.chunk_ids = chunk_ids

    def __call__(self, batch: Any) -> Any:
        if isinstance(batch, dict):
            raise TypeError(
                "ChunkBatches needs Arrow batches: pass batch_format='pyarrow' to map_batches"
            )
        if not hasattr(batch, "__arrow_c_stream__"):  # an older pandas DataFrame
            import pyarrow as pa

            batch = pa.Table.from_pandas(batch, preserve_index=False)
        return chunk_arrow(
            batch,
            chunker=self.chunker,
            text_column=self.text_column,
            id_column=self.id_column,
            keep_columns=self.keep_columns,
            threads=self.threads,
            chunk_ids=self.chunk_ids,
        )


__all__ = ["ChunkBatches", "assigned_cpus"]
