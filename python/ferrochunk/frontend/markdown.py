"""What ``MarkdownChunker`` (:mod:`ferrochunk.markdown.chunker`) shares with its engines:
the separator presets, the metadata keys the chunker sets, one call's ``Options``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, NamedTuple, Optional

from .checks import metadata_dict

# Cutting long paragraphs: sentence ends (kept at the end of the piece), then lines,
# clauses, words, characters. Regexes in the syntax Python's re and Rust's regex share.
_CLOSE = "\"'\u201d\u2019)\\]"  # closing quotes and brackets after a sentence end
_CJK_END = "\u3002\uff01\uff1f\uff1b\u2026"  # 。！？；…  # noqa: RUF003
_CJK_CLOSE = "\u201d\u2019\u300d\u300f\uff09)"  # ”’」』）)  # noqa: RUF003
_CJK_CLAUSE = "\uff0c\u3001,\uff1a:"  # ，、,：:  # noqa: RUF003
SEPARATOR_PRESETS: dict[str, list[str]] = {
    "default": [f"[.!?]+[{_CLOSE}]*[ \\t\\n]+", "\\n", "[;:,][ \\t\\n]+", " ", ""],
    "cjk": [
        f"[{_CJK_END}]+[{_CJK_CLOSE}]*[ \\t\\n]*|[.!?]+[{_CLOSE}]*[ \\t\\n]+",
        "\\n",
        f"[{_CJK_CLAUSE}][ \\t\\n]*",
        " ",
        "",
    ],
}
# Keys the chunker sets in every chunk's metadata; user metadata may not use them.
RESERVED_KEYS = (
    "document_id",
    "chunk_id",
    "prev_id",
    "next_id",
    "heading_path",
    "heading_paths",
    "main_heading_path",
    "continuation",
    "table_header",
    "embedding_text",
    "parent_id",
)


class Options(NamedTuple):
    """What one ``split`` call asks for."""

    metadata: dict[str, Any]
    document_id: Optional[str]
    embedding_text: bool
    parent_size: Optional[int]
    make: Callable[..., Any]


def user_metadata(metadata: Optional[Mapping[str, Any]]) -> dict[str, Any]:
    """A copy of the user's metadata: ``TypeError`` if it is not a mapping (or pairs),
    ``ValueError`` if it uses a key the chunker sets."""
    user = metadata_dict(metadata)
    clash = sorted(k for k in user if k in RESERVED_KEYS)
    if clash:
        raise ValueError(f"metadata keys {clash} are set by the chunker; rename them")
    return user


__all__ = ["RESERVED_KEYS", "SEPARATOR_PRESETS", "Options", "user_metadata"]
