"""``ferrochunk chunk --chunker auto``: every file by its own chunker, in one run.

Text files go to the Rust corpus job with ``TextChunker``'s markup by suffix (``.md``
Markdown, ``.rst`` reStructuredText, ``.adoc`` AsciiDoc, else plain text); HTML and PDF
files (``.html``, ``.htm``, ``.pdf``) to :class:`~ferrochunk.HtmlChunker` and
:class:`~ferrochunk.PdfChunker` here, after the job, with the same sizes, and CSV and TSV
files to :func:`ferrochunk.tables.chunk_table` (groups of rows), source code (``.py``,
``.js``, ``.ts``, ``.rs``, ``.go``, ``.java``, ``.c``, ``.cpp``, ...) to
:class:`~ferrochunk.CodeChunker` by its syntax tree. Every row gains a ``type``
(``markdown``, ``rst``, ``asciidoc``, ``plain``, ``html``, ``pdf``, ``table``, ``code``;
code rows also ``language`` and ``scope_path``); HTML and
PDF rows index their offsets into the document's Markdown rendition (PDF rows also carry
``page_start`` and ``page_end``), table rows carry ``embedding_text`` (the header with the
group's rows), ``row_start`` and ``row_end``. JSON Lines only: rows of several shapes have no one
Parquet schema.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from json.decoder import scanstring  # type: ignore[attr-defined]
from pathlib import Path
from typing import IO, Any

from ..frontend.structure import format_for_path
from .inputs import DEFAULT_GLOBS, Source, Walk, source_inputs

# suffix -> CodeChunker's language (one of CodeChunker.languages)
CODE = {
    **dict.fromkeys((".py", ".pyi"), "python"),
    **dict.fromkeys((".js", ".mjs", ".cjs", ".jsx"), "javascript"),
    **{".ts": "typescript", ".mts": "typescript", ".tsx": "tsx", ".rs": "rust", ".go": "go"},
    **{".java": "java", ".c": "c", ".h": "c"},
    **dict.fromkeys((".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx"), "cpp"),
}
# suffix -> type, for the files chunked here rather than in the job
RENDERED = {
    **{".html": "html", ".htm": "html", ".pdf": "pdf", ".csv": "table", ".tsv": "table"},
    **dict.fromkeys(CODE, "code"),
}
GLOBS = (*DEFAULT_GLOBS, *(f"*{suffix}" for suffix in RENDERED))
_SOURCE = b'{"source":'


def rendered_type(path: str) -> str | None:
    """``html``, ``pdf`` or ``table`` for a file chunked here, else None."""
    return RENDERED.get(os.path.splitext(path)[1].lower())


def job_inputs(
    walk: Walk, text_column: str, id_column: str | None, held: list[Source]
) -> Iterator[tuple[Any, ...]]:
    """The corpus job's inputs, but HTML and PDF files, which go to ``held``."""
    for source in walk:
        if source.kind == "text" and rendered_type(source.path):
            held.append(source)
        else:
            yield from source_inputs(source, text_column, id_column, walk)


class TypedWriter:
    """JSON Lines with each row's ``type``: the job's rows (typed by their source's
    suffix, as the job read them) and the rendered documents' rows."""

    native_format = "jsonl"
    path = None  # the job hands its rows back: a type goes into each

    def __init__(self, file: IO[bytes]) -> None:
        self.file = file
        self.documents: Counter[str] = Counter()
        self._last = ""

    def write(self, payload: bytes) -> None:
        out = []
        for line in payload.splitlines(keepends=True):
            source, _ = scanstring(line[len(_SOURCE) + 1 :].decode(), 0)  # fast: no parse
            kind = format_for_path(source, "plain") or "plain"
            if source != self._last:
                self.documents[kind] += 1
                self._last = source
            out.append(b'{"type":"' + kind.encode() + b'",' + line[1:])
        self.file.write(b"".join(out))

    def write_rows(self, rows: list[dict[str, Any]], kind: str) -> None:
        self.documents[kind] += 1
        self.file.write(
            "".join(
                json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n" for row in rows
            ).encode()
        )

    def close(self) -> None:
        self.file.flush()


def rendered_rows(
    source: Source, kind: str, chunker: Any, rendition: Any
) -> Iterator[dict[str, Any]]:
    """The rows of an HTML or PDF file, as the job's rows are laid out."""
    for c in chunker.split_rendition(rendition, None, source.name):
        meta = c.metadata
        row = {
            "type": kind,
            "source": source.name,
            "row": None,
            "document_id": meta["document_id"],
            "index": c.index,
            "start": c.start,
            "end": c.end,
            "byte_start": c.byte_start,
            "byte_end": c.byte_end,
            "text": c.text,
            "chunk_id": meta["chunk_id"],
            "token_count": c.token_count,
            "heading_path": list(meta["heading_path"]),
            "continuation": meta["continuation"],
            "table_header": meta["table_header"],
        }
        if kind == "pdf":
            row["page_start"], row["page_end"] = meta["page_start"], meta["page_end"]
        yield row


def by_type(documents: Counter[str]) -> str:
    """``ferrochunk: by type: 2 markdown, 1 pdf``."""
    return "ferrochunk: by type: " + ", ".join(f"{n} {k}" for k, n in sorted(documents.items()))


def chunk_rendered(
    source: Source, writer: TypedWriter, walk: Walk, args: Any, length: Any
) -> tuple[int, int, int]:
    """Writes the rows of an HTML or PDF file: ``(documents, chunks, UTF-8 bytes of its
    rendition)``; a file that cannot be read or rendered is named in ``walk.skipped``."""
    kind = rendered_type(source.path) or "html"
    if kind == "table":
        return _table(source, writer, walk, args, length)
    if kind == "code":
        return _code(source, writer, walk, args, length)
    chunker = _chunker(kind, args, length)
    try:
        rendition = chunker.render(Path(source.path))  # a path (a str would be markup)
        rows = list(rendered_rows(source, kind, chunker, rendition))
    except (ValueError, ImportError) as error:
        walk.skipped.append((source.path, str(error)))
        return 0, 0, 0
    writer.write_rows(rows, kind)
    return 1, len(rows), len(rendition.text.encode())


def _chunker(kind: str, args: Any, length: Any) -> Any:
    """The HtmlChunker or PdfChunker with the settings of the job's TextChunker
    (``cli/chunk.py``, ``_markdown``)."""
    from ..formats import HtmlChunker, PdfChunker

    cls = HtmlChunker if kind == "html" else PdfChunker
    return cls(
        args.chunk_size or (512 if args.encoding else 1000),
        min_size=args.min_size,
        separators="cjk" if args.cjk else "default",
        length_function=length,
        chunk_overlap=args.chunk_overlap or 0,
    )


def _code(
    source: Source, writer: TypedWriter, walk: Walk, args: Any, length: Any
) -> tuple[int, int, int]:
    """A source file's chunks by its syntax tree (:class:`ferrochunk.CodeChunker`), ids as
    the other chunkers make them (``reference/chunk_id.py``)."""
    from ..code import CodeChunker
    from ..frontend.chunks import length_name
    from ..reference.chunk_id import chunk_id, text_digest

    language = CODE[os.path.splitext(source.path)[1].lower()]
    size = args.chunk_size or (512 if args.encoding else 1000)
    try:
        with open(source.path, encoding="utf-8", newline="") as file:
            text = file.read()
        chunks = CodeChunker(size, language=language, length_function=length).split(text)
    except (OSError, ValueError) as error:  # UnicodeDecodeError too
        walk.skipped.append((source.path, str(error)))
        return 0, 0, 0
    settings = f"code-v1|language={language}|size={size}|len={length_name(length)}"
    digest = text_digest(text)
    rows = [
        {
            **{"type": "code", "source": source.name, "row": None, "document_id": source.name},
            **{"index": c.index, "start": c.start, "end": c.end},
            **{"byte_start": c.byte_start, "byte_end": c.byte_end, "text": c.text},
            "chunk_id": chunk_id(source.name, settings, digest, c.start, c.end),
            "token_count": None if length is None else length(c.text),
            **{"heading_path": [], "continuation": False, "table_header": None},
            "language": language,
            "scope_path": list(c.metadata["scope_path"]),
        }
        for c in chunks
    ]
    writer.write_rows(rows, "code")
    return 1, len(rows), len(text.encode())


def _table(
    source: Source, writer: TypedWriter, walk: Walk, args: Any, length: Any
) -> tuple[int, int, int]:
    """A CSV or TSV file's rows, in groups (:func:`ferrochunk.tables.chunk_table`): each
    chunk an exact span of the file, its ``embedding_text`` the groups' rows under the
    header; ids as the other chunkers make them (``reference/chunk_id.py``)."""
    from ..frontend.chunks import length_name
    from ..reference.chunk_id import chunk_id, text_digest
    from ..tables import chunk_table

    fmt = "tsv" if source.path.lower().endswith(".tsv") else "csv"
    size = args.chunk_size or (512 if args.encoding else 1000)
    try:
        with open(source.path, encoding="utf-8", newline="") as file:
            text = file.read()
        chunks = chunk_table(text, format=fmt, chunk_size=size, length_function=length)
    except (OSError, ValueError) as error:  # UnicodeDecodeError too
        walk.skipped.append((source.path, str(error)))
        return 0, 0, 0
    settings = f"table-v1|format={fmt}|size={size}|len={length_name(length)}"
    digest = text_digest(text)
    rows = []
    for c in chunks:
        meta = c.metadata
        rows.append(
            {
                "type": "table",
                "source": source.name,
                "row": None,
                "document_id": source.name,
                "index": c.index,
                "start": c.start,
                "end": c.end,
                "byte_start": c.byte_start,
                "byte_end": c.byte_end,
                "text": c.text,
                "chunk_id": chunk_id(source.name, settings, digest, c.start, c.end),
                "token_count": None if length is None else length(meta["embedding_text"]),
                "heading_path": [],
                "continuation": meta["continuation"],
                "table_header": None,
                "embedding_text": meta["embedding_text"],
                "row_start": meta["row_start"],
                "row_end": meta["row_end"],
            }
        )
    writer.write_rows(rows, "table")
    return 1, len(rows), len(text.encode())
