"""The reference Markdown engine's output: offsets, ids, parents and metadata on the chunks
of :class:`~.chunker.MarkdownEngine` (mirrors ``rust/python/markdown/build.rs``).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Optional

from ...frontend.markdown import Options
from ..chunk_id import chunk_id, text_digest
from ..text import utf8_len
from .overlap import Overlap
from .parent import group
from .sections import Coverage, Sections

# One chunk or parent before it becomes an object: (start, end, byte_start, byte_end,
# heading_path, continuation, table_header, id, parent, coverage, tokens)
Span = tuple[
    int,
    int,
    int,
    int,
    tuple[str, ...],
    bool,
    Optional[str],
    str,
    Optional[int],
    Coverage,
    Optional[int],
]
# What :func:`spans` takes: (start, end, heading_path, continuation, table_header, coverage)
Item = tuple[int, int, tuple[str, ...], bool, Optional[str], Coverage]


def spans(text: str, doc: str, settings: str, items: list[Item], tokens: Any) -> list[Span]:
    """Byte offsets, ids and token counts (when ``tokens`` counts them) for
    ``(start, end, path, continuation, header, coverage)`` in order."""
    digest = text_digest(text)
    out: list[Span] = []
    pos = byte = 0
    for start, end, path, cont, header, cov in items:
        byte += utf8_len(text[pos:start])
        ident = chunk_id(doc, settings, digest, start, end)
        size = utf8_len(text[start:end])
        count = None if tokens is None else tokens(text[start:end])
        out.append((start, end, byte, byte + size, path, cont, header, ident, None, cov, count))
        pos = start
    return out


class ReferenceMarkdownEngine:
    """Runs the pure-Python chunker (a :class:`~.chunker.MarkdownEngine`) and adds offsets,
    ids, parents and metadata."""

    def __init__(self, engine: Any, settings: str, overlap: int = 0) -> None:
        self.engine = engine
        self.settings = settings
        self.overlap = overlap

    def cuts(self, text: str) -> list[tuple[str, int]]:
        """Per chunk of ``split``: why it ends there, and the index of the separator for
        reason ``separator`` (else -1), as the chunker decided it (``RawChunk.why``)."""
        seps = [s.text for s in self.engine.separators]
        return [_why(c.why, seps) for c in self.engine.chunk(text)]

    def split(self, text: str, options: Options) -> tuple[list[Any], list[Any]]:
        """``(chunks, parents)``; parents only with ``options.parent_size``."""
        blocks = self.engine.blocks(text)
        raw = self.engine.chunk(text, blocks)
        ups = (
            []
            if options.parent_size is None
            else group(text, raw, options.parent_size, self.engine.length)
        )
        if self.overlap:
            seams = [s.pattern for s in self.engine.separators]
            firsts = {p.first for p in ups}
            over = Overlap(text, blocks, seams, self.overlap, self.engine.max)
            raw = over.apply(raw, firsts.__contains__, lambda a, b: self.engine.size(text, a, b))
        doc = options.document_id
        doc = text_digest(text)[:32] if doc is None else doc
        sections = Sections(blocks)
        length = self.engine.length
        tokens = length if getattr(length, "counts_tokens", False) is True else None
        items = [
            (
                c.start,
                c.end,
                c.path,
                c.continuation,
                None if c.header is None else text[c.header[0] : c.header[1]],
                sections.coverage(c.start, c.end),
            )
            for c in raw
        ]
        kids = spans(text, doc, self.settings, items, tokens)
        parent_settings = f"{self.settings}|parent={options.parent_size or 0}"
        parents = spans(
            text,
            doc,
            parent_settings,
            [
                (
                    p.start,
                    p.end,
                    kids[p.first][4],
                    kids[p.first][5],
                    None,
                    sections.coverage(p.start, p.end),
                )
                for p in ups
            ],
            tokens,
        )
        for k, p in enumerate(ups):
            for i in range(p.first, p.last):
                kids[i] = (*kids[i][:8], k, *kids[i][9:])
        hierarchy = options.parent_size is not None
        made = build(text, parents, doc, options, hierarchy, None)
        parent_ids = [s[7] for s in parents]
        return build(text, kids, doc, options, hierarchy, parent_ids), made


def embedding_text(path: tuple[str, ...], header: Optional[str], text: str) -> str:
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
    for index, item in enumerate(items):
        start, end, bs, be, path, cont, header, ident, parent, cov, tokens = item
        piece = text[start:end]
        meta = dict(options.metadata)
        meta["document_id"] = doc
        meta["chunk_id"] = ident
        meta["prev_id"] = items[index - 1][7] if index else None
        meta["next_id"] = items[index + 1][7] if index + 1 < len(items) else None
        meta["heading_path"] = path
        meta["heading_paths"] = cov.paths
        meta["main_heading_path"] = cov.paths[cov.main]
        meta["continuation"] = cont
        meta["table_header"] = header
        if options.embedding_text:
            meta["embedding_text"] = embedding_text(cov.paths[cov.main], header, piece)
        if hierarchy:
            meta["parent_id"] = None if parent_ids is None or parent is None else parent_ids[parent]
        chunks.append(
            options.make(piece, start, end, bs, be, index, MappingProxyType(meta), tokens)
        )
    return chunks


def _why(why: str, separators: list[str]) -> tuple[str, int]:
    """``separator:K`` (the chunker's own separator K) as ``("separator", K)``."""
    if why.startswith("separator:"):
        return "separator", int(why.split(":", 1)[1])
    return why, -1
