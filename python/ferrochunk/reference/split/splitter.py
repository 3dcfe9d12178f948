"""The reference engine of the native API's ``Splitter`` (:mod:`ferrochunk.split.splitter`),
which :func:`ferrochunk.engines.splitter_engine` builds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .recursive import Engine
from .scan import Separator


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


__all__ = ["make_engine"]
