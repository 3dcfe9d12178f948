"""The native API: ``ferrochunk.split``, ``ferrochunk.Splitter`` and its ``Chunk``.

``Splitter`` is one class holding one engine, which :func:`ferrochunk.engines.splitter_engine`
chooses: ``_native.Splitter`` (Rust), or the pure-Python reference for separators and sizes
Rust cannot reproduce exactly (and always for :mod:`ferrochunk.reference`'s ``Splitter``,
this class bound to it).
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Union, overload

from .. import _native, parallel  # noqa: F401 (parallel: the fork hook for the pools)
from ..engines.arrow_batch import arrow_batch, check_output
from ..engines.common import NATIVE, chunk_type, counted, is_native_length
from ..engines.spans import cached, spans, spans_batch, splitter_route
from ..engines.split import (
    splitter_batch,
    splitter_cut_levels,
    splitter_engine,
    splitter_fallback,
    splitter_specs,
)
from ..frontend.batch import check_texts, check_threads, documents, one_at_a_time
from ..frontend.checks import (
    check_pattern,
    check_sizes,
    check_text,
    metadata_dict,
    warn_oversized,
    window_overlap,
)
from ..frontend.chunks import Piece, length_name, to_chunks
from ..frontend.cuts import Cut, separator_cuts
from ..frontend.splitter import DEFAULT_SEPARATORS, SplitOptions, SplitterArgs
from .files import BUFFER_BYTES, BinarySource, split_file

if TYPE_CHECKING:  # typing.Unpack is 3.11+
    if sys.version_info >= (3, 11):
        from typing import Unpack
    else:
        from typing_extensions import Unpack

Chunk = _native.Chunk


class Splitter:
    """Splits text into chunks that are exact spans of it, with offsets and metadata.

    Separators are tried in order (paragraph, line, word, character by default) exactly as
    LangChain's ``RecursiveCharacterTextSplitter`` tries them, and chunks keep their
    separators, so ``text[chunk.start:chunk.end] == chunk.text`` always holds and
    ``chunk.byte_start``/``chunk.byte_end`` locate it in the UTF-8 encoding.

    ``chunk_size`` is the only positional argument; the others are keyword-only.
    ``chunk_overlap=None`` (the default) is a fifth of ``chunk_size`` (200 for 1000), so
    every size is valid without naming an overlap; the overlap may be at most the size.

    >>> from ferrochunk import Splitter
    >>> [c.text for c in Splitter(chunk_size=12, chunk_overlap=0).split("one two three four")]
    ['one two', 'three four']
    """

    _stack = NATIVE  # the stack ferrochunk.engines builds this class's engine on

    def __init__(
        self,
        chunk_size: int = 1000,
        *,
        chunk_overlap: Optional[int] = None,
        separators: Optional[Sequence[str]] = None,
        is_separator_regex: bool = False,
        keep_separator: Union[bool, str] = "start",
        strip_whitespace: bool = True,
        length_function: Optional[Callable[[str], int]] = None,
    ) -> None:
        size, overlap = check_sizes(chunk_size, window_overlap(chunk_size, chunk_overlap))
        seps = list(DEFAULT_SEPARATORS if separators is None else separators)
        if not all(isinstance(s, str) for s in seps) or isinstance(separators, str):
            raise TypeError("separators must be a list of str, e.g. ['\\n\\n', '\\n', ' ', '']")
        if is_separator_regex:
            for pattern in seps:
                check_pattern(pattern)
        keep = _keep_mode(keep_separator)
        if length_function is not None and not callable(length_function):
            raise TypeError(f"length_function must be callable, got {length_function!r}")
        self._args: SplitterArgs = {
            "chunk_size": size,
            "chunk_overlap": overlap,
            "separators": tuple(seps) or tuple(DEFAULT_SEPARATORS),
            "is_separator_regex": bool(is_separator_regex),
            "keep_separator": keep,
            "strip_whitespace": bool(strip_whitespace),
            "length_function": length_function,
        }
        # `_native.Splitter`, or the reference `Engine` (whose `split` gives pieces)
        self._engine: Any = splitter_engine(self._args, self._stack)

    @property
    def settings(self) -> str:
        """Everything the chunks depend on, as a string: it goes into every ``chunk_id`` the
        CLI and :mod:`ferrochunk.arrow` write, so other settings give other ids. ``len`` is
        ``chars``, a token counter's encoding name, or the length function's name."""
        a = self._args
        length = length_name(a["length_function"])
        seps = json.dumps(list(a["separators"]), ensure_ascii=True)
        return (
            f"recursive-v1|size={a['chunk_size']}|overlap={a['chunk_overlap']}|seps={seps}"
            f"|regex={int(a['is_separator_regex'])}|keep={a['keep_separator']}"
            f"|strip={int(a['strip_whitespace'])}|len={length}"
        )

    def _split_pieces(self, text: str) -> tuple[list[Piece], list[int]]:
        pieces: tuple[list[Piece], list[int]]
        pieces = self._engine.split(text, self._args["length_function"] or len)
        return pieces

    def split(self, text: str, metadata: Optional[Mapping[str, Any]] = None) -> list[Chunk]:
        """Chunks of ``text``, each carrying a read-only view of ``metadata``."""
        engine = self._engine
        if not isinstance(text, str) or not isinstance(engine, _native.Splitter):
            check_text(text)
            pieces, oversized = self._split_pieces(text)
            warn_oversized(oversized, self._args["chunk_size"])
            return to_chunks(
                text,
                pieces,
                metadata,
                make=chunk_type(self._stack),
                length=self._args["length_function"],
            )
        meta = MappingProxyType(metadata_dict(metadata)) if metadata else _NO_METADATA
        length = self._args["length_function"]
        try:
            chunks, oversized = engine.split(text, meta, length)
        except _native.Unsupported:  # lengths that are not counts: the reference engine
            pieces, oversized = splitter_fallback(self._args).split(
                text, self._args["length_function"]
            )
            warn_oversized(oversized, self._args["chunk_size"])
            return to_chunks(
                text, pieces, metadata, make=Chunk, length=self._args["length_function"]
            )
        except UnicodeEncodeError as err:
            raise ValueError(
                f"text has a lone surrogate {text[err.start]!r} at index {err.start}, which has "
                "no UTF-8 encoding; decode the input with errors='replace' or remove it"
            ) from None
        if oversized:
            warn_oversized(oversized, self._args["chunk_size"])
        # `len`'s splits (length None) skip the call: a tenth of a short document's split.
        return chunks if length is None else counted(chunks, length)

    def cuts(self, text: str) -> list[Cut]:
        """Why each chunk of ``split(text)`` ends where it does, one :class:`Cut` per chunk,
        as the splitter's recursion records it: the separator whose gap the chunk ends at
        (``paragraph``, ``line``, ``word``, ``character``, ``separator``, ``pattern``) or
        ``end``. It splits again, recording; ``split`` itself records nothing.

        >>> from ferrochunk import Splitter
        >>> [c.reason for c in Splitter(chunk_size=10, chunk_overlap=0).cuts("aaa bbb ccc\\n\\ndd")]
        ['word', 'paragraph', 'end']
        """
        check_text(text)
        try:
            levels = splitter_cut_levels(self, text)
        except UnicodeEncodeError as err:
            raise ValueError(f"text has a lone surrogate at index {err.start}") from None
        a = self._args
        return separator_cuts(levels, a["separators"], a["is_separator_regex"])

    def spans(self, text: str, *, unit: str = "char") -> Any:
        """``[(c.start, c.end) for c in self.split(text)]`` as a numpy ``int64`` array of
        shape ``(n, 2)``, made in Rust without a Python object per chunk; ``unit="byte"``
        gives the UTF-8 offsets (``byte_start``, ``byte_end``) instead.

        >>> from ferrochunk import Splitter
        >>> Splitter(12, chunk_overlap=0).spans("one two three four").tolist()
        [[0, 7], [8, 18]]
        """
        return spans(self, text, unit, cached(self, splitter_route))

    def spans_batch(
        self, texts: Iterable[str], *, threads: Optional[int] = None, unit: str = "char"
    ) -> tuple[Any, Any]:
        """``(flat, offsets)``: the :meth:`spans` of every text in one ``(N, 2)`` array,
        text ``i``'s in rows ``offsets[i]:offsets[i + 1]`` (``offsets``: ``len(texts) + 1``
        int64s), split on ``threads`` threads with the GIL released for the whole call.

        >>> from ferrochunk import Splitter
        >>> flat, offsets = Splitter(4, chunk_overlap=0).spans_batch(["a b", "c d e"])
        >>> flat.tolist(), offsets.tolist()
        ([[0, 3], [0, 3], [4, 5]], [0, 1, 3])
        """
        check_threads(threads)
        check_texts(texts)
        return spans_batch(self, texts, threads, unit, cached(self, splitter_route))

    @overload
    def split_batch(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        *,
        threads: Optional[int] = None,
        output: Literal["chunks"] = "chunks",
    ) -> list[list[Chunk]]: ...
    @overload
    def split_batch(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        *,
        threads: Optional[int] = None,
        output: Literal["arrow"],
    ) -> Any: ...
    def split_batch(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        *,
        threads: Optional[int] = None,
        output: str = "chunks",
    ) -> Any:
        """``[self.split(text, metadata) for ...]``, in input order, on ``threads`` threads
        with the GIL released (see :meth:`split_iter`). ``output="arrow"`` returns the same
        chunks as one ``pyarrow.Table`` instead, a row per chunk (``chunk_arrow``'s columns
        without ``chunk_id``, plus ``metadata``), built in Rust without a Python object per
        chunk (:func:`ferrochunk.engines.arrow_batch.arrow_batch`).

        >>> from ferrochunk import Splitter
        >>> out = Splitter(chunk_size=12, chunk_overlap=0).split_batch(["a b", "c d e"])
        >>> [[c.text for c in chunks] for chunks in out]
        [['a b'], ['c d e']]
        """
        if output != "chunks":
            check_output(output)
            return arrow_batch(self, texts, metadatas, threads, self._arrow_route())
        return list(self.split_iter(texts, metadatas, threads=threads))

    def split_iter(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        *,
        threads: Optional[int] = None,
    ) -> Iterator[list[Chunk]]:
        """Each document's chunks, in input order, as :meth:`split` gives them.

        ``texts`` (and ``metadatas``, one per text) may be any iterables, e.g. generators
        over millions of documents: they are read lazily, a bounded amount ahead of what
        has been yielded, while a pool of ``threads`` threads splits with the GIL released.
        ``threads=None`` means the ``FERROCHUNK_NUM_THREADS`` environment variable, else
        ``RAYON_NUM_THREADS``, else the CPUs this process may use (affinity and cgroup
        quota); ``threads=1`` splits on the calling thread. A ``length_function`` written in
        Python (not a native token counter) needs the GIL for every piece, so such a
        splitter, and one whose separators run on Python's ``re``, goes one document at a
        time. An invalid document raises ``TypeError``/``ValueError`` naming its index
        (``texts[3]: ...``) after the documents before it have been yielded.
        """
        check_threads(threads)
        check_texts(texts)
        batch = splitter_batch(self, texts, metadatas, threads)
        if batch is not None:
            return batch
        return one_at_a_time(self.split, documents(texts, metadatas, names=("metadatas",)))

    def _arrow_route(self) -> Optional[tuple[Any, Any, None]]:
        """The native engine and length the Rust Arrow path splits with, or ``None``."""
        length = self._args["length_function"]
        if isinstance(self._engine, _native.Splitter) and is_native_length(length):
            return self._engine, length, None
        return None

    def _rust_specs(self) -> Optional[list[tuple[str, bool, str]]]:
        """``(pattern, is_regex, original)`` per separator in the core's regex syntax, or
        ``None`` if one needs Python's ``re``."""
        return splitter_specs(self._args)

    def split_file(
        self,
        file: BinarySource,
        metadata: Optional[Mapping[str, Any]] = None,
        *,
        encoding: str = "utf-8",
        buffer_size: int = BUFFER_BYTES,
    ) -> Iterator[Chunk]:
        """The chunks of a file of any size, in order, identical to
        ``split(path.read_bytes().decode(encoding), metadata)`` (no newline translation),
        with code-point and byte offsets into the whole text (for UTF-8, the file's own).

        ``file`` is a path or a binary file object (read from its current position). The
        file is read twice, ``buffer_size`` bytes at a time: once to find the separator
        LangChain's algorithm starts with (the first of the list occurring anywhere; the
        first block usually settles it), once to split (an unseekable stream is kept for
        the second pass, on disk past 16 MB). Memory stays near the buffer plus the merge
        window, plus the longest stretch between two occurrences of that first separator
        when the stretch is at least ``chunk_size`` long: such a stretch is split on its
        own, in memory. So a file of normal paragraphs streams in a few MB; a huge stretch
        without the separator (a 1 GB line in a file of blank-line paragraphs) is held whole
        while it is split; separators with look-around (``\b``, ``^``) are decided only by
        the whole text, which is then held. Separators that need Python's ``re`` are not
        supported here (``ValueError``); a Python ``length_function`` works, slowly.

        >>> import io
        >>> from ferrochunk import Splitter
        >>> splitter = Splitter(8, chunk_overlap=0)
        >>> [c.text for c in splitter.split_file(io.BytesIO(b"one two\\n\\nthree"))]
        ['one two', 'three']
        """
        specs = self._rust_specs()
        if specs is None or not isinstance(self._engine, _native.Splitter):
            raise ValueError(
                "split_file needs separators in the regex syntax the native engine runs; "
                "these need Python's re: read the file and call split()"
            )
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, int) or buffer_size < 1:
            raise ValueError(f"buffer_size must be a positive int, got {buffer_size!r}")
        a = self._args
        engine = _native.FileSplitter(
            a["chunk_size"],
            a["chunk_overlap"],
            [(pattern, is_regex) for pattern, is_regex, _ in specs],
            a["keep_separator"],
            a["strip_whitespace"],
        )
        meta = MappingProxyType(metadata_dict(metadata)) if metadata else _NO_METADATA
        return split_file(
            engine,
            file,
            meta,
            a["length_function"],
            encoding,
            buffer_size,
            lambda oversized: warn_oversized(oversized, a["chunk_size"]),
        )

    def native_core(self) -> _native.Splitter:
        """The Rust splitter behind this one (for batch jobs such as the CLI's)."""
        if not isinstance(self._engine, _native.Splitter):
            raise ValueError("these separators run on Python's re; there is no native core")
        return self._engine

    def _finish(self, result: tuple[list[Chunk], list[int]]) -> list[Chunk]:
        chunks, oversized = result
        if oversized:
            warn_oversized(oversized, self._args["chunk_size"])
        return chunks

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._args.items())
        return f"{type(self).__name__}({args})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickles by arguments: the engine is rebuilt in the worker (Ray, Dask, multiprocessing).
        return (_rebuild, (type(self), self._args))


def _keep_mode(keep_separator: object) -> Literal["start", "end"]:
    """``keep_separator`` checked: ``True`` is ``"start"``; chunks always keep theirs."""
    if keep_separator is True or keep_separator == "start":
        return "start"
    if keep_separator == "end":
        return "end"
    raise ValueError(
        f"keep_separator must be 'start' or 'end', got {keep_separator!r}: chunks keep "
        "their separators so they are exact spans of the text (the LangChain drop-in "
        "classes accept keep_separator=False)"
    )


def _rebuild(cls: type[Splitter], args: Mapping[str, Any]) -> Splitter:
    kwargs = dict(args)
    return cls(kwargs.pop("chunk_size"), **kwargs)


_NO_METADATA: Mapping[str, Any] = MappingProxyType({})


def split(
    text: str,
    chunk_size: int = 1000,
    *,
    chunk_overlap: Optional[int] = None,
    metadata: Optional[Mapping[str, Any]] = None,
    **options: Unpack[SplitOptions],
) -> list[Chunk]:
    """Split ``text`` into :class:`Chunk` objects with a one-off :class:`Splitter`: the same
    arguments and defaults (``chunk_overlap=None`` is a fifth of ``chunk_size``), its other
    keywords as ``**options`` (typed by ``SplitOptions``).

    >>> from ferrochunk import split
    >>> [(c.text, c.start, c.end) for c in split("ab cd", chunk_size=3, chunk_overlap=0)]
    [('ab', 0, 2), ('cd', 3, 5)]
    """
    if not options:  # the common call: sizes only, found in a plain dict
        sizes = (type(chunk_size), chunk_size, type(chunk_overlap), chunk_overlap)
        hashable = True
        try:
            splitter = _BY_SIZES.get(sizes)
        except TypeError:  # an unhashable size: the constructor's error, below
            splitter, hashable = None, False
        if splitter is None:
            splitter = Splitter(chunk_size, chunk_overlap=chunk_overlap)
            if hashable:
                if len(_BY_SIZES) >= _CACHED_SPLITTERS:
                    _BY_SIZES.clear()
                _BY_SIZES[sizes] = splitter
        return splitter.split(text, metadata)
    key = _settings_key(chunk_size, chunk_overlap, options)
    if key is None:  # an argument that cannot be a key (a dict, an unhashable callable)
        return Splitter(chunk_size, chunk_overlap=chunk_overlap, **options).split(text, metadata)
    return _cached_splitter(key).split(text, metadata)


def one_off_split(cls: type[Splitter]) -> Callable[..., list[Chunk]]:
    """:func:`split` for another binding of :class:`Splitter` (``ferrochunk.reference``'s):
    a one-off ``cls`` per call, uncached."""

    def split(
        text: str,
        chunk_size: int = 1000,
        *,
        chunk_overlap: Optional[int] = None,
        metadata: Optional[Mapping[str, Any]] = None,
        **options: Unpack[SplitOptions],
    ) -> list[Chunk]:
        """Split ``text`` with a one-off :class:`Splitter`: the same arguments and defaults
        (``chunk_overlap=None`` is a fifth of ``chunk_size``), its other keywords as
        ``**options`` (typed by ``SplitOptions``)."""
        return cls(chunk_size, chunk_overlap=chunk_overlap, **options).split(text, metadata)

    return split


# Building a Splitter (validation, separator compilation, the native engine) costs several
# times a short text's split, so the one-off front door keeps the last few it built, keyed
# by the exact arguments (each with its type, so `True` never finds the splitter of `1`).
# A Splitter is immutable and thread-safe, so sharing one between calls changes nothing.
_CACHED_SPLITTERS = 32
# A call with sizes only (the README's) skips building the general key: its four fields,
# each size with its type, hash in a fraction of the nested key's time (which an
# `lru_cache` hashes again), a third of a short text's split.
_BY_SIZES: dict[tuple[type, Any, type, Any], Splitter] = {}
_Key = tuple[tuple[str, type, Any], ...]


def _settings_key(
    chunk_size: object, chunk_overlap: object, options: Mapping[str, Any]
) -> Optional[_Key]:
    """The arguments as a hashable key (lists as tuples), or ``None`` if one is not."""
    key: _Key = (
        ("chunk_size", type(chunk_size), chunk_size),
        ("chunk_overlap", type(chunk_overlap), chunk_overlap),
    )
    if options:
        key += tuple(
            (name, type(v), tuple(v) if isinstance(v, list) else v)
            for name, v in sorted(options.items())
        )
    try:
        hash(key)
    except TypeError:
        return None
    return key


@functools.lru_cache(maxsize=_CACHED_SPLITTERS)
def _cached_splitter(key: _Key) -> Splitter:
    args: dict[str, Any] = {name: list(v) if kind is list else v for name, kind, v in key}
    return Splitter(args.pop("chunk_size"), **args)


__all__ = ["Chunk", "Splitter", "counted", "is_native_length", "split"]
