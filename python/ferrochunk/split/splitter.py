"""The native API, ``ferrochunk.split`` and ``ferrochunk.Splitter``, on the Rust engine."""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Optional

from .. import _native, parallel  # noqa: F401 (parallel: the fork hook for the pools)
from ..frontend import splitter as front
from ..frontend.batch import drain, read_only
from ..frontend.checks import check_text, metadata_dict, warn_oversized
from ..frontend.chunks import to_chunks
from ..frontend.patterns import to_rust
from ..frontend.splitter import SplitOptions
from .files import BUFFER_BYTES, BinarySource, split_file

if TYPE_CHECKING:  # typing.Unpack is 3.11+
    if sys.version_info >= (3, 11):
        from typing import Unpack
    else:
        from typing_extensions import Unpack


def reference_engine(args: dict[str, Any]) -> Any:
    """The pure-Python engine, imported when first needed (the CLI and most splits never
    need it, and importing it is a fifth of ``import ferrochunk``)."""
    from ..reference.split.splitter import make_engine

    return make_engine(args)


Chunk = _native.Chunk


class Splitter(front.Splitter[Chunk]):
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

    def _make_engine(self) -> Any:
        a = self._args
        specs = self._rust_specs()
        if specs is None or a["chunk_size"] >= 2**63:  # beyond the core's i64 sizes
            return reference_engine(a)  # Python's re and ints keep the answer exact
        keep, strip = a["keep_separator"], a["strip_whitespace"]
        try:
            return _native.Splitter(a["chunk_size"], a["chunk_overlap"], specs, keep, strip, True)
        except (ValueError, UnicodeEncodeError):  # a pattern over the regex crate's size
            return reference_engine(a)  # limit, or a surrogate separator: Python's re runs it

    def _rust_specs(self) -> Optional[list[tuple[str, bool, str]]]:
        """``(pattern, is_regex, original)`` per separator in the core's regex syntax, or
        ``None`` if one needs Python's ``re``."""
        a = self._args
        specs = []
        for s in a["separators"]:
            rust = to_rust(s) if a["is_separator_regex"] and s else None
            if a["is_separator_regex"] and s and rust is None:
                return None
            specs.append((rust or s, rust is not None, s))
        return specs

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

    def _chunk_type(self) -> Any:
        return Chunk

    def native_core(self) -> _native.Splitter:
        """The Rust splitter behind this one (for batch jobs such as the CLI's)."""
        if not isinstance(self._engine, _native.Splitter):
            raise ValueError("these separators run on Python's re; there is no native core")
        return self._engine

    def _parallel(
        self, texts: Iterable[Any], metadatas: Optional[Iterable[Any]], threads: Optional[int]
    ) -> Optional[Iterator[list[Chunk]]]:
        length = self._args["length_function"]
        if not isinstance(self._engine, _native.Splitter) or not is_native_length(length):
            return None
        results = _native.split_iter(
            self._engine, iter(texts), read_only(metadatas), length, threads
        )
        return drain(results, self._finish)

    def _finish(self, result: tuple[list[Chunk], list[int]]) -> list[Chunk]:
        chunks, oversized = result
        if oversized:
            warn_oversized(oversized, self._args["chunk_size"])
        return chunks

    def split(self, text: str, metadata: Optional[Mapping[str, Any]] = None) -> list[Chunk]:
        """Chunks of ``text``, each carrying a read-only view of ``metadata``."""
        engine = self._engine
        if not isinstance(text, str) or not isinstance(engine, _native.Splitter):
            check_text(text)
            pieces, oversized = self._split_pieces(text)
            warn_oversized(oversized, self._args["chunk_size"])
            return to_chunks(
                text, pieces, metadata, make=Chunk, length=self._args["length_function"]
            )
        meta = MappingProxyType(metadata_dict(metadata)) if metadata else _NO_METADATA
        length = self._args["length_function"]
        try:
            chunks, oversized = engine.split(text, meta, length)
        except _native.Unsupported:  # lengths that are not counts: the reference engine
            pieces, oversized = reference_engine(self._args).split(
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


_NO_METADATA: Mapping[str, Any] = MappingProxyType({})
_NATIVE_LENGTHS = (_native.TokenCounter, _native.HfTokenCounter)


def counted(chunks: list[Chunk], length: Any) -> list[Chunk]:
    """``chunks`` with their ``token_count`` when a Python ``length`` counts tokens (marked
    ``counts_tokens``, as the reference reads it); Rust fills it for its own counters."""
    if getattr(length, "counts_tokens", False) is not True or is_native_length(length):
        return chunks
    return [
        Chunk(c.text, c.start, c.end, c.byte_start, c.byte_end, c.index, c.metadata, length(c.text))
        for c in chunks
    ]


def is_native_length(length: object) -> bool:
    """Whether a batch can measure with ``length`` off the GIL: none, or a native counter."""
    return length is None or isinstance(length, _NATIVE_LENGTHS)


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
    key = _settings_key(chunk_size, chunk_overlap, options)
    if key is None:  # an argument that cannot be a key (a dict, an unhashable callable)
        return Splitter(chunk_size, chunk_overlap=chunk_overlap, **options).split(text, metadata)
    return _cached_splitter(key).split(text, metadata)


# Building a Splitter (validation, separator compilation, the native engine) costs several
# times a short text's split, so the one-off front door keeps the last few it built, keyed
# by the exact arguments (each with its type, so `True` never finds the splitter of `1`).
# A Splitter is immutable and thread-safe, so sharing one between calls changes nothing.
_CACHED_SPLITTERS = 32
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
    args = {name: list(v) if kind is list else v for name, kind, v in key}
    return Splitter(args.pop("chunk_size"), **args)


__all__ = ["Chunk", "Splitter", "counted", "is_native_length", "split"]
