"""Token windows as a splitter object: ``TokenSplitter`` (``split_tokens`` with its sizes and
encoding kept), with ``split_batch`` / ``split_iter`` on a thread pool."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Optional

from .. import _native, parallel  # noqa: F401 (parallel: the fork hook for the pools)
from ..engines.spans import cached, spans, spans_batch, window_route
from ..frontend.batch import check_texts, check_threads, drain, read_only
from ..frontend.checks import window_overlap
from ..frontend.cuts import Cut
from .tokenizer import _check_window, _native_window, get_encoding, split_tokens


class TokenSplitter:
    """Windows of ``chunk_size`` tokens of a bundled encoding, stepping by
    ``chunk_size - chunk_overlap``, each an exact span of the text (see :func:`split_tokens`,
    whose arguments and defaults these are: ``chunk_overlap`` a fifth of ``chunk_size``).

    >>> from ferrochunk import TokenSplitter
    >>> out = TokenSplitter(2, chunk_overlap=0).split_batch(["one two three", "four"])
    >>> [[(c.text, c.token_count) for c in chunks] for chunks in out]
    [[('one two', 2), (' three', 1)], [('four', 1)]]
    """

    def __init__(
        self,
        chunk_size: int = 512,
        *,
        chunk_overlap: Optional[int] = None,
        encoding: str = "cl100k_base",
    ) -> None:
        size, overlap = _check_window(chunk_size, window_overlap(chunk_size, chunk_overlap))
        self.chunk_size = size
        self.chunk_overlap = overlap

        self.encoding = encoding
        self._encoder = get_encoding(encoding)._native

    def split(self, text: str, metadata: Optional[Mapping[str, Any]] = None) -> list[Any]:
        """The windows of one text, each carrying a read-only view of ``metadata``."""
        return split_tokens(
            text,
            self.chunk_size,
            chunk_overlap=self.chunk_overlap,
            encoding=self.encoding,
            metadata=metadata,
        )

    def spans(self, text: str, *, unit: str = "char") -> Any:
        """``[(c.start, c.end) for c in self.split(text)]`` as a numpy ``int64`` array of
        shape ``(n, 2)``, made in Rust without a Python object per window; ``unit="byte"``
        gives the UTF-8 offsets instead.

        >>> from ferrochunk import TokenSplitter
        >>> TokenSplitter(2, chunk_overlap=0).spans("one two three").tolist()
        [[0, 7], [7, 13]]
        """
        return spans(self, text, unit, self._route())

    def spans_batch(
        self, texts: Iterable[str], *, threads: Optional[int] = None, unit: str = "char"
    ) -> tuple[Any, Any]:
        """``(flat, offsets)``: the :meth:`spans` of every text in one ``(N, 2)`` array,
        text ``i``'s in rows ``offsets[i]:offsets[i + 1]``, encoded on ``threads`` threads
        with the GIL released for the whole call."""
        check_threads(threads)
        check_texts(texts)
        return spans_batch(self, texts, threads, unit, self._route())

    def _route(self) -> Any:
        sizes = _native_window(self.chunk_size, self.chunk_overlap)
        return cached(self, lambda s: window_route(s._encoder, *sizes))

    def cuts(self, text: str) -> list[Cut]:
        """Why each window of ``split(text)`` ends where it does: every one but the last at
        the token ``limit`` (windows know no other seam), the last at the ``end``."""
        count = len(self.split(text))
        return [Cut("limit")] * (count - 1) + [Cut("end")] if count else []

    def split_batch(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        *,
        threads: Optional[int] = None,
    ) -> list[list[Any]]:
        """``[self.split(text, metadata) for ...]`` on ``threads`` threads, in order."""
        return list(self.split_iter(texts, metadatas, threads=threads))

    def split_iter(
        self,
        texts: Iterable[str],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        *,
        threads: Optional[int] = None,
    ) -> Iterator[list[Any]]:
        """Each text's windows in input order, reading lazily a bounded amount ahead while
        ``threads`` threads encode with the GIL released (``None``: ``FERROCHUNK_NUM_THREADS``,
        else ``RAYON_NUM_THREADS``, else the CPUs this process may use). An invalid document
        raises naming its index."""
        check_threads(threads)
        check_texts(texts)
        results = _native.windows_iter(
            self._encoder,
            iter(texts),
            read_only(metadatas),
            *_native_window(self.chunk_size, self.chunk_overlap),
            threads,
        )
        return drain(results, lambda chunks: chunks)

    def __repr__(self) -> str:
        return (
            f"TokenSplitter(chunk_size={self.chunk_size}, chunk_overlap={self.chunk_overlap}, "
            f"encoding={self.encoding!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.chunk_size, self.chunk_overlap, self.encoding))


def _rebuild(size: int, overlap: int, encoding: str) -> TokenSplitter:
    return TokenSplitter(size, chunk_overlap=overlap, encoding=encoding)


__all__ = ["TokenSplitter"]
