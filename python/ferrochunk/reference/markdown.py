"""Markdown chunking with heading paths and stable ids (the native API, reference engine).

``ferrochunk.MarkdownChunker`` is this class with the Rust engine swapped in; arguments,
identity and metadata are shared, so both behave alike by construction.

Identity: ``chunk_id`` is the first 32 hex digits of SHA-256 over the document id, the
settings, the SHA-256 of the document text and the chunk's span. SHA-256 because it is in
Python's standard library (the reference needs no extra package) and in a vetted crate
(``sha2``) for Rust, and it is the same on every run, machine and version, unlike
``hash()`` or Rust's ``DefaultHasher``. Collisions at 128 bits are not a practical concern.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Callable, Optional, Union

from .markdown_chunk import MarkdownEngine
from .splitter import Chunk
from .text import utf8_len

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
    "continuation",
    "table_header",
    "embedding_text",
    "parent_id",
)
# (text, start, end, byte_start, byte_end, heading_path, continuation, table_header, id)
RawRow = tuple[str, int, int, int, int, tuple, bool, Optional[str], str]


def text_digest(text: str) -> str:
    """SHA-256 of the UTF-8 text, hex."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def chunk_id(document_id: str, settings: str, digest: str, start: int, end: int) -> str:
    """The stable id of the chunk ``[start, end)`` (code points) of a document."""
    key = f"{document_id}\0{settings}\0{digest}\0{start}:{end}"
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class ReferenceMarkdownEngine:
    """Runs the pure-Python chunker and adds offsets and ids."""

    def __init__(self, engine: MarkdownEngine, settings: str) -> None:
        self.engine = engine
        self.settings = settings

    def rows(self, text: str, document_id: Optional[str]) -> tuple[str, list[RawRow]]:
        digest = text_digest(text)
        doc = document_id if document_id is not None else digest[:32]
        rows: list[RawRow] = []
        pos = byte = 0
        for c in self.engine.chunk(text):
            byte += utf8_len(text[pos : c.start])
            length = utf8_len(text[c.start : c.end])
            header = None if c.header is None else text[c.header[0] : c.header[1]]
            ident = chunk_id(doc, self.settings, digest, c.start, c.end)
            row = (text[c.start : c.end], c.start, c.end, byte, byte + length, c.path)
            rows.append((*row, c.continuation, header, ident))
            pos = c.start
        return doc, rows


class MarkdownChunker:
    """Markdown-aware chunks: heading paths, atomic code and tables, stable ids.

    Sizes are in characters, or in what ``length_function`` counts (e.g. tokens). Chunks
    are exact spans (``source[c.start:c.end] == c.text``) and carry in ``c.metadata`` the
    user's metadata plus ``document_id``, ``chunk_id``, ``prev_id``, ``next_id``,
    ``heading_path``, ``continuation``, ``table_header`` (and ``embedding_text`` if asked).

    >>> from ferrochunk import MarkdownChunker
    >>> md = "# Deploy\\n\\nIntro.\\n\\n## Cluster mode\\n\\nRun it.\\n"
    >>> chunks = MarkdownChunker(chunk_size=30, min_size=0).split(md, {"source": "a.md"})
    >>> [c.metadata["heading_path"] for c in chunks]
    [('Deploy',), ('Deploy', 'Cluster mode')]
    >>> chunks[1].text
    '## Cluster mode\\n\\nRun it.'
    >>> chunks[1].metadata["prev_id"] == chunks[0].metadata["chunk_id"]
    True
    """

    def __init__(
        self,
        chunk_size: int = 1000,
        min_size: Optional[int] = None,
        *,
        separators: Union[str, list[str]] = "default",
        embedding_text: bool = False,
        length_function: Optional[Callable[[str], int]] = None,
    ) -> None:
        for name, value in (("chunk_size", chunk_size), ("min_size", min_size)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        if chunk_size <= 0:
            raise ValueError(f"chunk_size must be > 0, got {chunk_size}")
        min_size = chunk_size // 4 if min_size is None else min_size
        if not 0 <= min_size <= chunk_size:
            raise ValueError(f"min_size must be between 0 and chunk_size, got {min_size}")
        if isinstance(separators, str):
            if separators not in SEPARATOR_PRESETS:
                raise ValueError(
                    f"separators must be one of {sorted(SEPARATOR_PRESETS)} or a list of "
                    f"regexes, got {separators!r}"
                )
            separators = SEPARATOR_PRESETS[separators]
        if not all(isinstance(s, str) for s in separators):
            raise TypeError("separators must be a preset name or a list of str")
        if length_function is not None and not callable(length_function):
            raise TypeError(f"length_function must be callable, got {length_function!r}")
        self.chunk_size = chunk_size
        self.min_size = min_size
        self.separators = list(separators)
        self.embedding_text = bool(embedding_text)
        self.length_function = length_function
        self.settings = self._settings()
        self._engine = self._make_engine()

    def _settings(self) -> str:
        fn = self.length_function
        length = "chars" if fn is None else getattr(fn, "__qualname__", type(fn).__qualname__)
        seps = json.dumps(self.separators, ensure_ascii=True)
        return f"markdown-v1|size={self.chunk_size}|min={self.min_size}|seps={seps}|len={length}"

    def _make_engine(self) -> Any:
        engine = MarkdownEngine(
            self.chunk_size, self.min_size, self.separators, self.length_function
        )
        return ReferenceMarkdownEngine(engine, self.settings)

    def split(
        self,
        text: str,
        metadata: Optional[Mapping[str, Any]] = None,
        document_id: Optional[str] = None,
    ) -> list[Chunk]:
        """The chunks of one Markdown document, in order."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        if document_id is not None and not isinstance(document_id, str):
            raise TypeError(f"document_id must be str, got {type(document_id).__name__}")
        user = dict(metadata or {})
        clash = sorted(k for k in user if k in RESERVED_KEYS)
        if clash:
            raise ValueError(f"metadata keys {clash} are set by the chunker; rename them")
        doc, rows = self._engine.rows(text, document_id)
        return build_chunks(rows, doc, user, self.embedding_text, make=self._chunk_type())

    def _chunk_type(self) -> Callable[..., Any]:
        return Chunk


def embedding_text(path: tuple, header: Optional[str], text: str) -> str:
    """What to embed: the heading path, the repeated table header, then the text."""
    prefix = " > ".join(path) + "\n\n" if path else ""
    return prefix + (header + "\n" if header else "") + text


def build_chunks(
    rows: list[RawRow], doc: str, user: dict, with_embedding: bool, make: Callable[..., Any]
) -> list[Any]:
    """Chunk objects with their metadata (user keys, identity, links, structure)."""
    chunks = []
    for index, (text, start, end, bs, be, path, cont, header, ident) in enumerate(rows):
        meta = dict(user)
        meta["document_id"] = doc
        meta["chunk_id"] = ident
        meta["prev_id"] = rows[index - 1][8] if index else None
        meta["next_id"] = rows[index + 1][8] if index + 1 < len(rows) else None
        meta["heading_path"] = path
        meta["continuation"] = cont
        meta["table_header"] = header
        if with_embedding:
            meta["embedding_text"] = embedding_text(path, header, text)
        chunks.append(make(text, start, end, bs, be, index, MappingProxyType(meta)))
    return chunks


__all__ = ["RESERVED_KEYS", "SEPARATOR_PRESETS", "MarkdownChunker"]
