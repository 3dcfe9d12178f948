"""Markdown-aware chunking: ``ferrochunk.MarkdownChunker``, and ``TextChunker`` (the same
chunker reading reStructuredText, AsciiDoc or plain text; :mod:`ferrochunk.structure`
exports it).

One class holding one engine, which :func:`ferrochunk.engines.markdown_engine` chooses: the
Rust chunker, with the pure-Python reference for separators outside the regex syntax both
engines share and lengths that are not counts, so the output never differs, only the speed
(the reference alone for :mod:`ferrochunk.reference`'s ``MarkdownChunker``). Text with lone
surrogates is refused with the ``ValueError`` of :func:`ferrochunk.split`.

Identity: ``chunk_id`` is the first 32 hex digits of SHA-256 over the document id, the
settings, the SHA-256 of the document text and the chunk's span. SHA-256 because it is in
Python's standard library (the reference needs no extra package) and in a vetted crate
(``sha2``) for Rust, and it is the same on every run, machine and version, unlike
``hash()`` or Rust's ``DefaultHasher``. Collisions at 128 bits are not a practical concern.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Callable, Literal, Optional, Union, overload

from .. import _native
from ..engines.arrow_batch import arrow_batch, check_output
from ..engines.common import NATIVE, chunk_type
from ..engines.markdown import NativeMarkdownEngine, markdown_batch, markdown_engine
from ..engines.spans import cached, markdown_route, spans, spans_batch
from ..frontend.batch import check_texts, check_threads, documents, one_at_a_time
from ..frontend.checks import check_encodable
from ..frontend.chunks import length_name
from ..frontend.cuts import Cut, separator_cuts
from ..frontend.markdown import RESERVED_KEYS, SEPARATOR_PRESETS, Options, user_metadata
from ..frontend.structure import FORMATS

Chunk = _native.Chunk  # (the reference's `Chunk` on the reference stack)


class MarkdownChunker:
    """Markdown-aware chunks: heading paths, atomic code and tables, stable ids.

    Sizes are in characters, or in what ``length_function`` counts (e.g. tokens). Chunks
    are exact spans (``source[c.start:c.end] == c.text``) and carry in ``c.metadata`` the
    user's metadata plus ``document_id``, ``chunk_id``, ``prev_id``, ``next_id``,
    ``heading_path`` (where the chunk starts), ``heading_paths`` (every heading path its text
    covers, in order), ``main_heading_path`` (the one holding most of its text, which
    ``embedding_text`` starts with), ``continuation``, ``table_header`` (and
    ``embedding_text`` if asked). Sized by a ferrochunk or Hugging Face token counter,
    chunks carry their ``token_count``.
    ``chunk_size`` is the only positional argument; the others are keyword-only.
    Chunks under ``min_size`` (default ``chunk_size // 4``) merge into a neighbour when the
    result still fits ``chunk_size``.
    ``chunk_overlap`` (< ``chunk_size``) defaults to 0, unlike :class:`~ferrochunk.Splitter`'s
    fifth of the size: these chunks are whole sections, blocks and sentences under their
    heading path, so none needs the text before it to be read; with an overlap, a chunk may
    start with up to that much of the end of the chunk before it, from a sentence (else
    line, clause, word) start, never across a heading or from inside a code block or table
    that is not itself cut.
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

    format = "markdown"  # the markup texts are read as (TextChunker reads others)
    _stack = NATIVE  # the stack ferrochunk.engines builds this class's engine on

    def __init__(
        self,
        chunk_size: int = 1000,
        *,
        min_size: Optional[int] = None,
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
        # A preset cuts inside blocks sentence-first (rust/markdown/prose.rs) and keeps its
        # separators for the overlap's seams; a list of regexes cuts at those regexes.
        self.sentence_cuts = isinstance(separators, str)
        self._preset = separators if isinstance(separators, str) else None  # for pickling
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
        self._engine = markdown_engine(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickles (and deep-copies) by arguments: the engine is rebuilt in the worker.
        return (_rebuild, (type(self), self._arguments()))

    def _arguments(self) -> dict[str, Any]:
        """The arguments that rebuild this chunker (a preset by its name: it cuts
        sentence-first, a list of the same regexes would not)."""
        return {
            "chunk_size": self.chunk_size,
            "min_size": self.min_size,
            "separators": self._preset or list(self.separators),
            "embedding_text": self.embedding_text,
            "length_function": self.length_function,
            "parent_size": self.parent_size,
            "chunk_overlap": self.chunk_overlap,
        }

    def _settings(self) -> str:
        length = length_name(self.length_function)
        seps = json.dumps(self.separators, ensure_ascii=True)
        over = f"|overlap={self.chunk_overlap}" if self.chunk_overlap else ""
        return (
            f"markdown-v2|size={self.chunk_size}|min={self.min_size}|seps={seps}|len={length}"
            + over
        )

    def split(
        self,
        text: str,
        metadata: Optional[Mapping[str, Any]] = None,
        document_id: Optional[str] = None,
    ) -> list[Chunk]:
        """The chunks of one Markdown document, in order (with ``parent_id`` in their
        metadata when the chunker has a ``parent_size``)."""
        return self._split(text, metadata, document_id)[0]

    def cuts(self, text: str) -> list[Cut]:
        """Why each chunk of ``split(text)`` ends where it does, one :class:`Cut` per chunk,
        as the packer decided it: ``heading`` (one follows), ``block`` (a block ends),
        ``atomic`` (a code block or table kept whole ends), a seam inside a block that did
        not fit (``sentence``, ``clause``, ``line``, ``word``, ``character``; in code
        ``paragraph`` and ``statement``), the chunker's own ``separators`` (``separator``,
        ``pattern``), or ``end``.

        >>> from ferrochunk import MarkdownChunker
        >>> text = "# A\\n\\nOne. Two.\\n\\n# B\\n\\nThree."
        >>> [c.reason for c in MarkdownChunker(16, min_size=0).cuts(text)]
        ['heading', 'end']
        """
        from ..engines.markdown import markdown_cuts

        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        try:
            reasons = markdown_cuts(self._engine, text)
        except UnicodeEncodeError:
            check_encodable(text)  # a lone surrogate: say so, as ``split`` does
            raise
        return [
            separator_cuts([k], self.separators, True)[0] if k >= 0 else Cut(why)
            for why, k in reasons
        ]

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

    def spans(self, text: str, *, unit: str = "char") -> Any:
        """``[(c.start, c.end) for c in self.split(text)]`` as a numpy ``int64`` array of
        shape ``(n, 2)``, made in Rust without a Python object per chunk (no ids, no
        metadata); ``unit="byte"`` gives the UTF-8 offsets instead.

        >>> from ferrochunk import MarkdownChunker
        >>> MarkdownChunker(20, min_size=0).spans("# A\\n\\nOne.\\n\\n# B\\n\\nTwo.").tolist()
        [[0, 9], [11, 20]]
        """
        return spans(self, text, unit, cached(self, markdown_route))

    def spans_batch(
        self, texts: Iterable[str], *, threads: Optional[int] = None, unit: str = "char"
    ) -> tuple[Any, Any]:
        """``(flat, offsets)``: the :meth:`spans` of every text in one ``(N, 2)`` array,
        text ``i``'s in rows ``offsets[i]:offsets[i + 1]``, split on ``threads`` threads
        with the GIL released for the whole call."""
        check_threads(threads)
        check_texts(texts)
        return spans_batch(self, texts, threads, unit, cached(self, markdown_route))

    @overload
    def split_batch(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        document_ids: Optional[Iterable[Optional[str]]] = None,
        *,
        threads: Optional[int] = None,
        output: Literal["chunks"] = "chunks",
    ) -> list[list[Chunk]]: ...
    @overload
    def split_batch(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        document_ids: Optional[Iterable[Optional[str]]] = None,
        *,
        threads: Optional[int] = None,
        output: Literal["arrow"],
    ) -> Any: ...
    def split_batch(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        document_ids: Optional[Iterable[Optional[str]]] = None,
        *,
        threads: Optional[int] = None,
        output: str = "chunks",
    ) -> Any:
        """``[self.split(text, metadata, document_id) for ...]``, in input order, on
        ``threads`` threads with the GIL released (see :meth:`split_iter`).
        ``output="arrow"`` returns them as one ``pyarrow.Table``, a row per chunk, made in
        Rust without a Python object per chunk (as ``Splitter.split_batch``; without
        ``document_ids``: each document's id is its text's digest)."""
        if output != "chunks":
            check_output(output)
            if document_ids is not None:
                raise ValueError("output='arrow' takes no document_ids: use chunk_arrow")
            return arrow_batch(self, texts, metadatas, threads, self._arrow_route())
        return list(self.split_iter(texts, metadatas, document_ids, threads=threads))

    def _arrow_route(self) -> Optional[tuple[Any, Any, Optional[int]]]:
        """The native engine, length and parent size the Rust Arrow path chunks with, or
        ``None`` (``embedding_text`` and Python lengths go through ``split``)."""
        engine = self._engine
        route = markdown_route(self)
        if route is None or self.embedding_text or not isinstance(engine, NativeMarkdownEngine):
            return None
        return engine._native, engine._length, self.parent_size

    def split_iter(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        document_ids: Optional[Iterable[Optional[str]]] = None,
        *,
        threads: Optional[int] = None,
    ) -> Iterator[list[Chunk]]:
        """Each document's chunks, in input order, as :meth:`split` gives them; ``texts``,
        ``metadatas`` and ``document_ids`` (one per text each) may be lazy iterables.

        Read a bounded amount ahead and split on ``threads`` threads with the GIL released
        (``None``: ``FERROCHUNK_NUM_THREADS``, else ``RAYON_NUM_THREADS``, else the CPUs this
        process may use; ``1``: the calling thread). A ``length_function`` written in Python
        (not a native token counter) goes one document at a time. An invalid document
        raises naming its index (``texts[3]: ...``).
        """
        check_threads(threads)
        check_texts(texts)
        parallel = markdown_batch(self, texts, metadatas, document_ids, threads)
        if parallel is not None:
            return parallel
        rows = documents(texts, metadatas, document_ids, names=("metadatas", "document_ids"))
        return one_at_a_time(self.split, rows)

    def _split(
        self, text: str, metadata: Optional[Mapping[str, Any]], document_id: Optional[str]
    ) -> tuple[list[Chunk], list[Chunk]]:
        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        if document_id is not None and not isinstance(document_id, str):
            raise TypeError(f"document_id must be str, got {type(document_id).__name__}")
        user = user_metadata(metadata)
        options = Options(
            user,
            document_id,
            self.embedding_text,
            self.parent_size,
            chunk_type(self._stack),
        )
        try:
            return self._engine.split(text, options)
        except UnicodeEncodeError:
            check_encodable(text)  # a lone surrogate: say so, as ``split`` does
            raise


class TextChunker(MarkdownChunker):
    """Structure-aware chunks of reStructuredText, AsciiDoc, plain text (or Markdown).

    The same guarantees and metadata as :class:`~ferrochunk.MarkdownChunker`: section
    titles give ``heading_path`` (RST's over- and underlined titles, levels in the order
    their styles first appear; AsciiDoc's ``=`` titles and two-line titles; underlined
    titles in plain text) and never end a chunk; literal and code blocks (``::`` blocks,
    ``.. code-block::``, AsciiDoc ``----``/``....``) and tables (RST grid and simple
    tables, table directives, AsciiDoc ``|===``) are kept whole unless one alone exceeds
    ``chunk_size``; directives and admonitions (``.. note::`` and its body), AsciiDoc
    example and sidebar blocks are kept whole when they fit and otherwise cut with their
    head glued to their body; targets, block titles and attribute lines stay with what
    follows them; list items, fields and definitions are seams; long paragraphs are cut at
    sentence ends first. The arguments are :class:`~ferrochunk.MarkdownChunker`'s, with the
    same defaults (``chunk_overlap`` 0 included), plus ``format``, one of ``FORMATS``;
    :func:`format_for_path` maps a file name to one.

    >>> from ferrochunk import TextChunker
    >>> rst = "Install\\n=======\\n\\nRun this::\\n\\n    pip install x\\n\\nThen go.\\n"
    >>> chunks = TextChunker(chunk_size=40, min_size=0, format="rst").split(rst)
    >>> [c.text for c in chunks]
    ['Install\\n=======\\n\\nRun this::', 'pip install x\\n\\nThen go.']
    >>> [c.metadata["heading_path"] for c in chunks]
    [('Install',), ('Install',)]
    """

    def __init__(
        self,
        chunk_size: int = 1000,
        *,
        min_size: Optional[int] = None,
        format: str = "plain",
        separators: Union[str, list[str]] = "default",
        embedding_text: bool = False,
        length_function: Optional[Callable[[str], int]] = None,
        parent_size: Optional[int] = None,
        chunk_overlap: int = 0,
    ) -> None:
        if not isinstance(format, str) or format not in FORMATS:
            raise ValueError(f"format must be one of {list(FORMATS)}, got {format!r}")
        self.format = format
        super().__init__(
            chunk_size,
            min_size=min_size,
            separators=separators,
            embedding_text=embedding_text,
            length_function=length_function,
            parent_size=parent_size,
            chunk_overlap=chunk_overlap,
        )

    def _arguments(self) -> dict[str, Any]:
        return {**super()._arguments(), "format": self.format}

    def _settings(self) -> str:
        markdown = super()._settings()
        if self.format == "markdown":
            return markdown
        return markdown.replace("markdown-v2|", f"{self.format}-v1|", 1)


def _rebuild(cls: type[MarkdownChunker], args: dict[str, Any]) -> MarkdownChunker:
    kwargs = dict(args)
    return cls(kwargs.pop("chunk_size"), **kwargs)


__all__ = [
    "RESERVED_KEYS",
    "SEPARATOR_PRESETS",
    "MarkdownChunker",
    "NativeMarkdownEngine",
    "TextChunker",
]
