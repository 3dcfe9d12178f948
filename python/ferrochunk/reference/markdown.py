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
from typing import Any, Callable, NamedTuple, Optional, Union

from .markdown_blocks import scan
from .markdown_chunk import MarkdownEngine
from .markdown_overlap import Overlap
from .markdown_parent import group
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
# One chunk or parent before it becomes an object:
# (start, end, byte_start, byte_end, heading_path, continuation, table_header, id, parent)
Span = tuple[int, int, int, int, tuple, bool, Optional[str], str, Optional[int]]


def text_digest(text: str) -> str:
    """SHA-256 of the UTF-8 text, hex."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def chunk_id(document_id: str, settings: str, digest: str, start: int, end: int) -> str:
    """The stable id of the chunk ``[start, end)`` (code points) of a document."""
    key = f"{document_id}\0{settings}\0{digest}\0{start}:{end}"
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def spans(text: str, doc: str, settings: str, items: list[tuple]) -> list[Span]:
    """Byte offsets and ids for ``(start, end, path, continuation, header)`` in order."""
    digest = text_digest(text)
    out: list[Span] = []
    pos = byte = 0
    for start, end, path, cont, header in items:
        byte += utf8_len(text[pos:start])
        ident = chunk_id(doc, settings, digest, start, end)
        out.append(
            (start, end, byte, byte + utf8_len(text[start:end]), path, cont, header, ident, None)
        )
        pos = start
    return out


class ReferenceMarkdownEngine:
    """Runs the pure-Python chunker and adds offsets, ids, parents and metadata."""

    def __init__(self, engine: MarkdownEngine, settings: str, overlap: int = 0) -> None:
        self.engine = engine
        self.settings = settings
        self.overlap = overlap

    def split(self, text: str, options: Options) -> tuple[list[Any], list[Any]]:
        """``(chunks, parents)``; parents only with ``options.parent_size``."""
        raw = self.engine.chunk(text)
        ups = (
            []
            if options.parent_size is None
            else group(text, raw, options.parent_size, self.engine.length)
        )
        if self.overlap:
            seams = [s.pattern for s in self.engine.separators]
            firsts = {p.first for p in ups}
            over = Overlap(text, scan(text), seams, self.overlap, self.engine.max)
            raw = over.apply(raw, firsts.__contains__, lambda a, b: self.engine.size(text, a, b))
        doc = options.document_id
        doc = text_digest(text)[:32] if doc is None else doc
        items = [
            (
                c.start,
                c.end,
                c.path,
                c.continuation,
                None if c.header is None else text[c.header[0] : c.header[1]],
            )
            for c in raw
        ]
        kids = spans(text, doc, self.settings, items)
        parent_settings = f"{self.settings}|parent={options.parent_size or 0}"
        parents = spans(
            text,
            doc,
            parent_settings,
            [(p.start, p.end, kids[p.first][4], kids[p.first][5], None) for p in ups],
        )
        for k, p in enumerate(ups):
            for i in range(p.first, p.last):
                kids[i] = (*kids[i][:8], k)
        hierarchy = options.parent_size is not None
        made = build(text, parents, doc, options, hierarchy, None)
        parent_ids = [s[7] for s in parents]
        return build(text, kids, doc, options, hierarchy, parent_ids), made


class Options(NamedTuple):
    """What one ``split`` call asks for."""

    metadata: dict
    document_id: Optional[str]
    embedding_text: bool
    parent_size: Optional[int]
    make: Callable[..., Any]


class MarkdownChunker:
    """Markdown-aware chunks: heading paths, atomic code and tables, stable ids.

    Sizes are in characters, or in what ``length_function`` counts (e.g. tokens). Chunks
    are exact spans (``source[c.start:c.end] == c.text``) and carry in ``c.metadata`` the
    user's metadata plus ``document_id``, ``chunk_id``, ``prev_id``, ``next_id``,
    ``heading_path``, ``continuation``, ``table_header`` (and ``embedding_text`` if asked).
    With ``chunk_overlap`` (< ``chunk_size``), a chunk may start with up to that much of
    the end of the chunk before it, from a sentence (else line, clause, word) start, never
    across a heading or from inside a code block or table that is not itself cut.
    With ``parent_size`` (>= ``chunk_size``), chunks also get a ``parent_id``, and
    :meth:`split_hierarchy` returns the parents: runs of whole chunks, up to ``parent_size``,
    closed at a new heading path once a quarter full.

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
        parent_size: Optional[int] = None,
        chunk_overlap: int = 0,
    ) -> None:
        sizes = (
            ("chunk_size", chunk_size),
            ("min_size", min_size),
            ("parent_size", parent_size),
            ("chunk_overlap", chunk_overlap),
        )
        for name, value in sizes:
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        if chunk_size <= 0:
            raise ValueError(f"chunk_size must be > 0, got {chunk_size}")
        min_size = chunk_size // 4 if min_size is None else min_size
        if not 0 <= min_size <= chunk_size:
            raise ValueError(f"min_size must be between 0 and chunk_size, got {min_size}")
        if not 0 <= chunk_overlap < chunk_size:
            raise ValueError(f"chunk_overlap must be >= 0 and < chunk_size, got {chunk_overlap}")
        if parent_size is not None and parent_size < chunk_size:
            raise ValueError(f"parent_size must be >= chunk_size, got {parent_size}")
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
        self.parent_size = parent_size
        self.chunk_overlap = chunk_overlap
        self.settings = self._settings()
        self._engine = self._make_engine()

    def _settings(self) -> str:
        fn = self.length_function
        length = "chars" if fn is None else getattr(fn, "__qualname__", type(fn).__qualname__)
        seps = json.dumps(self.separators, ensure_ascii=True)
        over = f"|overlap={self.chunk_overlap}" if self.chunk_overlap else ""
        return (
            f"markdown-v1|size={self.chunk_size}|min={self.min_size}|seps={seps}|len={length}"
            + over
        )

    def _make_engine(self) -> Any:
        engine = MarkdownEngine(
            self.chunk_size, self.min_size, self.separators, self.length_function
        )
        return ReferenceMarkdownEngine(engine, self.settings, self.chunk_overlap)

    def split(
        self,
        text: str,
        metadata: Optional[Mapping[str, Any]] = None,
        document_id: Optional[str] = None,
    ) -> list[Chunk]:
        """The chunks of one Markdown document, in order (with ``parent_id`` in their
        metadata when the chunker has a ``parent_size``)."""
        return self._split(text, metadata, document_id)[0]

    def split_hierarchy(
        self,
        text: str,
        metadata: Optional[Mapping[str, Any]] = None,
        document_id: Optional[str] = None,
    ) -> tuple[list[Chunk], list[Chunk]]:
        """``(parents, children)``: children are :meth:`split`'s chunks, each with the
        ``parent_id`` of the parent span that contains it; needs ``parent_size``."""
        if self.parent_size is None:
            raise ValueError("split_hierarchy needs MarkdownChunker(parent_size=...)")
        chunks, parents = self._split(text, metadata, document_id)
        return parents, chunks

    def _split(
        self, text: str, metadata: Optional[Mapping[str, Any]], document_id: Optional[str]
    ) -> tuple[list[Chunk], list[Chunk]]:
        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        if document_id is not None and not isinstance(document_id, str):
            raise TypeError(f"document_id must be str, got {type(document_id).__name__}")
        user = dict(metadata or {})
        clash = sorted(k for k in user if k in RESERVED_KEYS)
        if clash:
            raise ValueError(f"metadata keys {clash} are set by the chunker; rename them")
        options = Options(
            user, document_id, self.embedding_text, self.parent_size, self._chunk_type()
        )
        return self._engine.split(text, options)

    def _chunk_type(self) -> Callable[..., Any]:
        return Chunk


def embedding_text(path: tuple, header: Optional[str], text: str) -> str:
    """What to embed: the heading path, the repeated table header, then the text."""
    prefix = " > ".join(path) + "\n\n" if path else ""
    return prefix + (header + "\n" if header else "") + text


def build(
    text: str,
    items: list[Span],
    doc: str,
    options: Options,
    hierarchy: bool,
    parent_ids: Optional[list[str]],
) -> list[Any]:
    """Chunk objects with their metadata (user keys, identity, links, structure)."""
    chunks = []
    for index, (start, end, bs, be, path, cont, header, ident, parent) in enumerate(items):
        piece = text[start:end]
        meta = dict(options.metadata)
        meta["document_id"] = doc
        meta["chunk_id"] = ident
        meta["prev_id"] = items[index - 1][7] if index else None
        meta["next_id"] = items[index + 1][7] if index + 1 < len(items) else None
        meta["heading_path"] = path
        meta["continuation"] = cont
        meta["table_header"] = header
        if options.embedding_text:
            meta["embedding_text"] = embedding_text(path, header, piece)
        if hierarchy:
            meta["parent_id"] = None if parent_ids is None or parent is None else parent_ids[parent]
        chunks.append(options.make(piece, start, end, bs, be, index, MappingProxyType(meta)))
    return chunks


__all__ = ["RESERVED_KEYS", "SEPARATOR_PRESETS", "MarkdownChunker"]
