"""The Python path of :func:`ferrochunk.arrow.chunk_arrow`: any ``Splitter`` or
``MarkdownChunker`` (a Python ``length_function``, separators only Python's ``re`` reads,
``embedding_text``, or the pure-Python reference classes) chunked row by row through its own
``split``, into the same schema as the Rust path. It is also the oracle the tests hold the
Rust path to."""

from __future__ import annotations

from typing import Any, Optional

from ..reference.chunk_id import chunk_id, text_digest
from .schema import output_schema


def as_table(pa: Any, data: Any, text_column: str) -> Any:
    """``data`` as a ``pyarrow.Table``; an array of strings becomes a ``text_column`` table."""
    if isinstance(data, pa.Table):
        return data
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data])
    if isinstance(data, (pa.Array, pa.ChunkedArray)):
        return pa.table({text_column: data})
    try:
        return pa.table(data)
    except (TypeError, ValueError, pa.ArrowInvalid):
        return pa.table({text_column: pa.chunked_array(data)})


def check_columns(pa: Any, table: Any, text_column: str, id_column: Optional[str]) -> None:
    """The errors of the Rust path: a missing column names those that exist; a column that
    is not a string type is a ``TypeError``."""
    names = table.schema.names
    for name in (text_column, id_column):
        if name is None:
            continue
        if name not in names:
            available = ", ".join(f'"{n}"' for n in names)
            raise ValueError(f'no column "{name}" in the input; its columns are {available}')
        kind = table.schema.field(name).type
        if not (pa.types.is_string(kind) or pa.types.is_large_string(kind) or _is_view(pa, kind)):
            raise TypeError(
                f'column "{name}" must be string, large_string or string_view, got {kind}; '
                "cast it first (e.g. pyarrow.compute.cast(column, pyarrow.string()))"
            )


def _is_view(pa: Any, kind: Any) -> bool:
    check = getattr(pa.types, "is_string_view", None)
    return bool(check and check(kind))


def chunk_rows(
    pa: Any,
    table: Any,
    chunker: Any,
    text_column: str,
    id_column: Optional[str],
    keep_columns: list[str],
    chunk_ids: bool = True,
) -> tuple[Any, tuple[int, int]]:
    """``(output table, (rows, null_texts))`` chunking ``table`` with ``chunker.split``."""
    markdown = hasattr(chunker, "split_hierarchy")
    parents = markdown and chunker.parent_size is not None
    missing = [name for name in keep_columns if name not in table.schema.names]
    if missing:  # the Rust path's error, not pyarrow's KeyError
        available = ", ".join(f'"{n}"' for n in table.schema.names)
        raise ValueError(f'no column "{missing[0]}" in the input; its columns are {available}')
    kept = [table.schema.field(name) for name in keep_columns]
    schema = output_schema(pa, markdown, parents, kept, chunk_ids=chunk_ids)
    for name in keep_columns:
        if schema.names.count(name) > 1:
            raise ValueError(
                f"keep_columns: {name!r} is a name the output already uses; rename that column "
                "first"
            )
    length: Any = getattr(chunker, "length_function", None)  # called only when it counts

    if length is None and not markdown:
        length = chunker._args["length_function"]
    counts = getattr(length, "counts_tokens", False) is True
    texts = table.column(text_column).to_pylist()
    ids = table.column(id_column).to_pylist() if id_column else [None] * len(texts)
    columns: dict[str, list[Any]] = {name: [] for name in schema.names[: -len(kept) or None]}
    take: list[int] = []
    nulls = 0
    for row, (text, doc) in enumerate(zip(texts, ids)):
        if text is None:
            nulls += 1
            continue
        digest = text_digest(text) if chunk_ids or doc is None else ""
        doc = doc if doc is not None else digest[:32]
        if markdown:
            chunks = chunker.split(text, None, document_id=doc)
        else:
            chunks = chunker.split(text)
        for index, c in enumerate(chunks):
            values = [row, index, c.start, c.end, c.byte_start, c.byte_end, c.text]
            values.append(length(c.text) if counts else None)
            if markdown:
                m = c.metadata
                values += [m["chunk_id"], doc] if chunk_ids else [doc]
                values.append(list(m["heading_path"]))
                values += [[list(p) for p in m["heading_paths"]], list(m["main_heading_path"])]
                values.append(m["continuation"])
                values.append(m["table_header"])
                if parents:
                    values.append(m["parent_id"])
            else:
                if chunk_ids:
                    values.append(chunk_id(doc, chunker.settings, digest, c.start, c.end))
                values.append(doc)
            for name, value in zip(columns, values):
                columns[name].append(value)
            take.append(row)
    arrays = [pa.array(columns[f.name], f.type) for f in list(schema)[: len(columns)]]
    indices = pa.array(take, pa.int64())
    arrays += [table.column(name).take(indices) for name in keep_columns]
    out = pa.Table.from_arrays(arrays, schema=schema)
    return out, (len(texts), nulls)


__all__ = ["as_table", "check_columns", "chunk_rows"]
