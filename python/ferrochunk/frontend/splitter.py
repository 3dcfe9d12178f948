"""The native API's public class, ``Splitter``, shared by both engines.

Arguments, validation, metadata, warnings and pickling live here; the reference
(:mod:`ferrochunk.reference.split.splitter`) and the Rust stack
(:mod:`ferrochunk.split.splitter`) each add only their engine and chunk type.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Callable, Generic, Optional, TypedDict, TypeVar, Union

from .batch import check_texts, check_threads, documents, one_at_a_time
from .checks import check_pattern, check_sizes, check_text, warn_oversized, window_overlap
from .chunks import Piece, length_name, to_chunks

DEFAULT_SEPARATORS = ("\n\n", "\n", " ", "")
ChunkT = TypeVar("ChunkT")  # the chunk class of a stack (native or reference)


class SplitOptions(TypedDict, total=False):
    """The keyword options ``split(text, chunk_size, **options)`` passes to :class:`Splitter`
    (typed, so a type checker catches ``seperators=``; at run time a ``TypeError`` does)."""

    separators: Optional[Sequence[str]]
    is_separator_regex: bool
    keep_separator: Union[bool, str]
    strip_whitespace: bool
    length_function: Optional[Callable[[str], int]]


class Splitter(Generic[ChunkT]):
    """Splits text into chunks that are exact spans of it, with offsets and metadata.

    Separators are tried in order (paragraph, line, word, character by default), exactly as
    LangChain's ``RecursiveCharacterTextSplitter`` does; chunks keep their separators so that
    ``text[chunk.start:chunk.end] == chunk.text`` always holds.

    ``chunk_size`` is the only positional argument; the others are keyword-only.
    ``chunk_overlap=None`` (the default) is a fifth of ``chunk_size`` (200 for 1000), so
    every size is valid without naming an overlap; the overlap may be at most the size.

    >>> from ferrochunk import Splitter
    >>> [c.text for c in Splitter(chunk_size=12, chunk_overlap=0).split("one two three four")]
    ['one two', 'three four']
    """

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
        chunk_overlap = window_overlap(chunk_size, chunk_overlap)  # type: ignore[assignment]
        check_sizes(chunk_size, chunk_overlap)
        seps = list(DEFAULT_SEPARATORS if separators is None else separators)
        if not all(isinstance(s, str) for s in seps) or isinstance(separators, str):
            raise TypeError("separators must be a list of str, e.g. ['\\n\\n', '\\n', ' ', '']")
        if is_separator_regex:
            for pattern in seps:
                check_pattern(pattern)
        if keep_separator is True:
            keep_separator = "start"
        if keep_separator not in ("start", "end"):
            raise ValueError(
                f"keep_separator must be 'start' or 'end', got {keep_separator!r}: chunks keep "
                "their separators so they are exact spans of the text (the LangChain drop-in "
                "classes accept keep_separator=False)"
            )
        if length_function is not None and not callable(length_function):
            raise TypeError(f"length_function must be callable, got {length_function!r}")
        self._args = {
            "chunk_size": chunk_size,
            "chunk_overlap": chunk_overlap,
            "separators": tuple(seps) or tuple(DEFAULT_SEPARATORS),
            "is_separator_regex": bool(is_separator_regex),
            "keep_separator": keep_separator,
            "strip_whitespace": bool(strip_whitespace),
            "length_function": length_function,
        }
        self._engine = self._make_engine()

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

    def _make_engine(self) -> Any:
        """The engine for ``self._args``: each stack (reference, native) says which."""
        raise NotImplementedError

    def _chunk_type(self) -> Callable[..., Any]:
        """The chunk class this stack returns."""
        raise NotImplementedError

    def _split_pieces(self, text: str) -> tuple[list[Piece], list[int]]:
        return self._engine.split(text, self._args["length_function"] or len)

    def split(self, text: str, metadata: Optional[Mapping[str, Any]] = None) -> list[ChunkT]:
        """Chunks of ``text``, each carrying a read-only view of ``metadata``."""
        check_text(text)
        pieces, oversized = self._split_pieces(text)
        warn_oversized(oversized, self._args["chunk_size"])
        return to_chunks(
            text, pieces, metadata, make=self._chunk_type(), length=self._args["length_function"]
        )

    def split_batch(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        *,
        threads: Optional[int] = None,
    ) -> list[list[ChunkT]]:
        """``[self.split(text, metadata) for ...]``, in input order, on ``threads`` threads
        with the GIL released (see :meth:`split_iter`).

        >>> from ferrochunk import Splitter
        >>> out = Splitter(chunk_size=12, chunk_overlap=0).split_batch(["a b", "c d e"])
        >>> [[c.text for c in chunks] for chunks in out]
        [['a b'], ['c d e']]
        """
        return list(self.split_iter(texts, metadatas, threads=threads))

    def split_iter(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        *,
        threads: Optional[int] = None,
    ) -> Iterator[list[ChunkT]]:
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
        parallel = self._parallel(texts, metadatas, threads)
        if parallel is not None:
            return parallel
        return one_at_a_time(self.split, documents(texts, metadatas, names=("metadatas",)))

    def _parallel(
        self, texts: Iterable[Any], metadatas: Optional[Iterable[Any]], threads: Optional[int]
    ) -> Optional[Iterator[list[ChunkT]]]:
        """The batch on a thread pool, or ``None`` for one document at a time."""
        return None

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._args.items())
        return f"{type(self).__name__}({args})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickles by arguments: the engine is rebuilt in the worker (Ray, Dask, multiprocessing).
        return (_rebuild, (type(self), self._args))


def _rebuild(cls: type, args: dict[str, Any]) -> Splitter:
    args = dict(args)
    return cls(args.pop("chunk_size"), **args)


__all__ = ["DEFAULT_SEPARATORS", "SplitOptions", "Splitter"]
