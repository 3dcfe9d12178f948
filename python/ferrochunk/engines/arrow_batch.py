"""``split_batch(..., output="arrow")``: a batch's chunks as one ``pyarrow.Table``, the rows
:func:`ferrochunk.arrow.chunk_arrow` writes (without ``chunk_id``), made by the same Rust
path with no Python object per chunk when the chunker's native engine reproduces its
``split``; else from its chunks row by row (``arrow/rows.py``), the same table."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any, Optional

from .. import _native
from ..frontend.batch import check_texts, check_threads

OUTPUTS = ("chunks", "arrow")
#: ``(native engine, native length or None, parent_size)`` of a chunker whose chunks the
#: Rust Arrow path reproduces exactly.
NativeRoute = tuple[Any, Any, Optional[int]]


def check_output(output: object) -> None:
    """``output`` must be ``"chunks"`` or ``"arrow"``."""
    if not isinstance(output, str) or output not in OUTPUTS:
        raise ValueError(
            f"output must be 'chunks' (lists of Chunk) or 'arrow' (one pyarrow.Table), "
            f"got {output!r}"
        )


def _input_table(pa: Any, texts: list[Any], metadatas: Optional[Iterable[Any]]) -> Any:
    """The texts (and metadatas, as one struct column ``metadata``) as a table."""
    columns: dict[str, Any] = {"text": pa.array(texts, type=pa.large_string())}
    if metadatas is not None:
        metas = [None if m is None else dict(m) for m in metadatas]
        if len(metas) != len(texts):
            raise ValueError(
                f"metadatas has {len(metas)} items and texts {len(texts)}: give one per text"
            )
        try:
            columns["metadata"] = pa.array(metas)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError) as err:
            raise TypeError(
                f"metadatas: pyarrow cannot make one struct column of them ({err}); give "
                "each key values of one type, or use chunk_arrow with columns of your own"
            ) from None
    return pa.table(columns)


def arrow_batch(
    chunker: Any,
    texts: Iterable[Any],
    metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]],
    threads: Optional[int],
    route: Optional[NativeRoute],
) -> Any:
    """One row per chunk of every text: ``row`` (the text's index), ``chunk_index``,
    ``start``/``end``, ``byte_start``/``byte_end``, ``text``, ``token_count``,
    ``document_id`` (the text's digest), Markdown's columns for a ``MarkdownChunker`` (and
    ``chunk_id``, ``parent_id`` with a ``parent_size``), and ``metadata`` (a struct column)
    when ``metadatas`` are given."""
    from ..arrow.rows import chunk_rows
    from ..arrow.schema import ArrowStats

    check_threads(threads)
    check_texts(texts)
    try:
        import pyarrow as pa
    except ImportError:
        raise ImportError(
            "output='arrow' needs pyarrow: pip install 'ferrochunk[arrow]' (or pyarrow)"
        ) from None
    texts = texts if isinstance(texts, list) else list(texts)
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"texts[{index}]: text must be str, got {type(text).__name__}")
    table = _input_table(pa, texts, metadatas)
    keep = ["metadata"] if metadatas is not None else []
    # Parents are named by ids (`parent_id`), so a chunker with parents writes them.
    ids = getattr(chunker, "parent_size", None) is not None
    if route is not None:
        engine, length, parent_size = route
        settings = chunker.settings
        out, (rows, nulls, chunks, oversized) = _native.chunk_arrow(
            table, engine, length, settings, "text", None, keep, threads, parent_size, ids
        )
    else:
        out, (rows, nulls) = chunk_rows(pa, table, chunker, "text", None, keep, ids)
        chunks, oversized = out.num_rows, 0  # split() warned about each itself
    if oversized:
        logging.getLogger("ferrochunk").warning(
            "%d chunks are longer than the chunk size (each piece between separators was too "
            "long to cut further)",
            oversized,
        )
    return out.replace_schema_metadata(ArrowStats(rows, nulls, chunks, oversized).metadata())


__all__ = ["OUTPUTS", "arrow_batch", "check_output"]
