"""The native API (``Splitter``, ``split``) on the pure-Python engine.

Mirrors :mod:`ferrochunk.split.splitter`: the class is the shared front end
(:mod:`ferrochunk.frontend.splitter`) with the reference engine and chunk type.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable, Optional

from ...frontend import splitter as front
from ...frontend.splitter import SplitOptions
from ..chunk import Chunk
from .recursive import Engine
from .scan import Separator

if TYPE_CHECKING:  # typing.Unpack is 3.11+
    if sys.version_info >= (3, 11):
        from typing import Unpack
    else:
        from typing_extensions import Unpack


def make_engine(args: Mapping[str, Any]) -> Engine:
    """The reference engine for a ``Splitter``'s arguments (also the Rust stack's fallback)."""
    seps = [Separator(s, args["is_separator_regex"]) for s in args["separators"]]
    return Engine(
        args["chunk_size"],
        args["chunk_overlap"],
        seps,
        args["keep_separator"],
        args["strip_whitespace"],
        recursive=True,
    )


class Splitter(front.Splitter[Chunk]):
    __doc__ = front.Splitter.__doc__

    def _make_engine(self) -> Any:
        return make_engine(self._args)

    def _chunk_type(self) -> Callable[..., Any]:
        return Chunk


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
    return Splitter(chunk_size, chunk_overlap=chunk_overlap, **options).split(text, metadata)


__all__ = ["Chunk", "Splitter", "make_engine", "split"]
