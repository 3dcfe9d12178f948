"""The output schema of :func:`ferrochunk.arrow.chunk_arrow`, and the counts it records in the
schema metadata. The Rust path builds the same schema (a test holds them equal), so this is
the one written definition; docs/engines.md documents it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Bumped whenever a column is added, removed, renamed or changes type.
SCHEMA_VERSION = "2"  # 2: heading_paths and main_heading_path
#: ``(name, type, nullable)`` of the columns every output has, in order.
BASE_COLUMNS = (
    ("row", "int64", False),
    ("chunk_index", "int64", False),
    ("start", "int64", False),
    ("end", "int64", False),
    ("byte_start", "int64", False),
    ("byte_end", "int64", False),
    ("text", "large_string", False),
    ("token_count", "int64", True),
    ("chunk_id", "string", False),
    ("document_id", "string", False),
)
#: What a ``MarkdownChunker`` adds after them (``parent_id`` only with ``parent_size``).
MARKDOWN_COLUMNS = (
    ("heading_path", "list<string>", False),
    ("heading_paths", "list<list<string>>", False),
    ("main_heading_path", "list<string>", False),
    ("continuation", "bool", False),
    ("table_header", "string", True),
)
PARENT_COLUMN = ("parent_id", "string", True)
_STATS_PREFIX = "ferrochunk."


def _type(pa: Any, name: str) -> Any:
    if name == "list<string>":
        return pa.list_(pa.string())
    if name == "list<list<string>>":
        return pa.list_(pa.list_(pa.string()))
    return {"int64": pa.int64(), "large_string": pa.large_string(), "string": pa.string()}.get(
        name, pa.bool_()
    )


def output_schema(
    pa: Any, markdown: bool, parents: bool, kept: list[Any], *, chunk_ids: bool = True
) -> Any:
    """The pyarrow schema of the output: base columns (without ``chunk_id`` unless
    ``chunk_ids``), Markdown's, then the ``kept`` fields."""
    columns = [c for c in BASE_COLUMNS if chunk_ids or c[0] != "chunk_id"]
    if markdown:
        columns += MARKDOWN_COLUMNS
        if parents:
            columns.append(PARENT_COLUMN)
    fields = [pa.field(name, _type(pa, kind), nullable) for name, kind, nullable in columns]
    return pa.schema(fields + list(kept))


@dataclass(frozen=True)
class ArrowStats:
    """What a :func:`chunk_arrow` call saw: input ``rows``, ``null_texts`` (rows whose text
    was null: they give no chunks), ``chunks`` (output rows) and ``oversized`` (chunks
    longer than ``chunk_size``, the ones ``split`` warns about one by one)."""

    rows: int
    null_texts: int
    chunks: int
    oversized: int

    def metadata(self) -> dict[bytes, bytes]:
        """These counts as schema metadata (``ferrochunk.rows`` ... and the schema version)."""
        out = {f"{_STATS_PREFIX}{k}".encode(): str(v).encode() for k, v in vars(self).items()}
        out[f"{_STATS_PREFIX}schema".encode()] = SCHEMA_VERSION.encode()
        return out

    @classmethod
    def of(cls, table: Any) -> ArrowStats:
        """The counts a :func:`chunk_arrow` output carries in its schema metadata."""
        meta: Mapping[bytes, bytes] = table.schema.metadata or {}
        try:
            values = {k: int(meta[f"{_STATS_PREFIX}{k}".encode()]) for k in cls.__annotations__}
        except KeyError:
            raise ValueError(
                "this table carries no ferrochunk counts (not a chunk_arrow output, or its "
                "schema metadata was dropped)"
            ) from None
        return cls(**values)


__all__ = [
    "BASE_COLUMNS",
    "MARKDOWN_COLUMNS",
    "PARENT_COLUMN",
    "SCHEMA_VERSION",
    "ArrowStats",
    "output_schema",
]
