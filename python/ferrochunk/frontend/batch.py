"""Many documents at once: argument checks and the one-at-a-time path, shared by every
class with ``split_batch`` / ``split_iter`` (both engines).

The native classes run batches on a thread pool (``rust/python/batch.rs``); this module is
what they fall back to when a document must be measured by a Python ``length_function``
(which needs the GIL for every piece), and what the reference engine always uses. Either
way the output is exactly ``[split(text, metadata) for ...]``, and an error names the
document it came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, Callable, Optional, TypeVar

T = TypeVar("T")
NO_METADATA: Mapping[str, Any] = MappingProxyType({})


# The most threads a call may ask for: ``MAX_THREADS`` of rust/parallel/threads.rs (why it
# refuses more is said there). Checked here too, for ints too large to reach Rust.
MAX_THREADS = 1024


def check_threads(threads: object) -> Optional[int]:
    """``threads`` if it is ``None`` or an int from 1 to ``MAX_THREADS``, else a
    ``TypeError``/``ValueError``."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be a positive int or None, got {type(threads).__name__}")
    if threads < 1:
        raise ValueError(
            f"threads must be a positive int, or None for all the CPUs this process may use; "
            f"got {threads}"
        )
    if threads > MAX_THREADS:
        raise ValueError(f"threads must be at most {MAX_THREADS}, got {threads}")
    return threads


def check_texts(texts: object) -> Iterable[Any]:
    """``texts`` if it can be iterated and is not a single ``str``."""
    if isinstance(texts, (str, bytes)):
        raise TypeError("texts must be an iterable of str, not a single str; use split() for one")
    if not isinstance(texts, Iterable):
        raise TypeError(f"texts must be an iterable of str, got {type(texts).__name__}")
    return texts


def read_only(metadatas: Optional[Iterable[Any]]) -> Optional[Iterator[Mapping[str, Any]]]:
    """The metadatas as the read-only views ``split`` gives chunks, lazily, errors naming
    the position (``None`` stays ``None``: every chunk then gets an empty view)."""
    if metadatas is None:
        return None
    if isinstance(metadatas, Mapping):
        raise TypeError("metadatas must be an iterable of mappings (one per text), not a mapping")
    return (_view(i, m) for i, m in enumerate(metadatas))


def _view(index: int, metadata: Any) -> Mapping[str, Any]:
    if not metadata:
        return NO_METADATA
    try:  # what `split` takes (a mapping, or pairs: `dict(metadata)`), so must a batch
        return MappingProxyType(dict(metadata))
    except (TypeError, ValueError):
        raise TypeError(
            f"metadatas[{index}] must be a mapping or None, got {type(metadata).__name__}"
        ) from None


def documents(
    texts: Iterable[Any], *extras: Optional[Iterable[Any]], names: tuple[str, ...] = ()
) -> Iterator[tuple[Any, ...]]:
    """``(index, text, *extras)`` in lock-step; an extra input that runs out before or after
    the texts is a ``ValueError`` (``None`` extras give ``None``)."""
    iters = [None if e is None else iter(e) for e in extras]
    end = object()
    for index, text in enumerate(texts):
        row: list[Any] = [index, text]
        for name, it in zip(names, iters):
            value = None if it is None else next(it, end)
            if value is end:
                raise ValueError(f"{name} has fewer items than texts: it ended at index {index}")
            row.append(value)
        yield tuple(row)
    for name, it in zip(names, iters):
        if it is not None and next(it, end) is not end:
            raise ValueError(f"{name} has more items than texts")


def one_at_a_time(split_one: Callable[..., T], rows: Iterator[tuple[Any, ...]]) -> Iterator[T]:
    """``split_one(text, *extras)`` for each row, errors re-raised naming the document."""
    for index, *args in rows:
        try:
            yield split_one(*args)
        except (TypeError, ValueError) as err:
            kind = TypeError if isinstance(err, TypeError) else ValueError
            raise kind(f"texts[{index}]: {err}") from err


def drain(results: Iterator[Any], finish: Callable[[Any], T]) -> Iterator[T]:
    """``finish(result)`` for each result of a native batch iterator. The collector is left
    alone: the native side untracks the ``Chunk`` objects it builds (they have no
    ``__traverse__``), so building many no longer sets off collections."""
    for result in results:
        yield finish(result)


__all__ = [
    "NO_METADATA",
    "check_texts",
    "check_threads",
    "documents",
    "drain",
    "one_at_a_time",
    "read_only",
]
