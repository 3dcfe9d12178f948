"""The engines of the LangChain drop-ins (``TextSplitter``, ``CharacterTextSplitter``,
``RecursiveCharacterTextSplitter``) and of the native API's ``Splitter``: which one runs, and
the fallback rows of the table in :mod:`ferrochunk.engines` that are theirs."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Optional

from .. import _native
from ..frontend.batch import drain, read_only
from ..frontend.hooks import HOOKS, overridden_hooks
from .common import REFERENCE, is_native_length, rust_separators

# The module defining the classes whose hooks a subclass may override.
TEXTSPLITTER_MODULE = "ferrochunk.split.textsplitter"


# -- the LangChain drop-ins: TextSplitter, CharacterTextSplitter, RecursiveCharacterTextSplitter


def text_engine(splitter: Any, specs: list[tuple[str, bool, str]], recursive: bool) -> Any:
    """The engine of a drop-in splitter's settings: ``split_text(text, length, warn)``."""
    from ..frontend.textsplitter import keep_mode
    from ..reference.split.textsplitter import HookedEngine, make_engine

    if overridden_hooks(splitter, TEXTSPLITTER_MODULE, HOOKS):
        return HookedEngine(splitter, specs, recursive, keep_mode(splitter._keep_separator))
    fallback = make_engine(splitter, specs, recursive)
    sizes = (splitter._chunk_size, splitter._chunk_overlap)
    converted = rust_separators(specs)
    if splitter._stack == REFERENCE or converted is None:
        return fallback
    if not all(type(v) is int for v in sizes):
        return fallback
    keep = keep_mode(splitter._keep_separator) or "drop"
    if keep != "drop" and not all(_wraps(text) for text, is_regex, _ in specs if is_regex):
        return fallback  # LangChain's re.split would raise on the wrapped pattern: so must we
    try:
        native = _native.Splitter(
            *sizes, converted, keep, bool(splitter._strip_whitespace), recursive
        )
    except (ValueError, OverflowError):  # a pattern over the regex crate's size limit, or
        return fallback  # sizes beyond i64
    # Checks the text's type, counts `len` natively and reruns on `fallback` what it cannot
    # reproduce exactly (lone surrogates, lengths that are no counts), in Rust.
    return _native.TextEngine(native, fallback)


def _wraps(pattern: str) -> bool:
    """Whether ``(pattern)`` compiles: LangChain wraps separators it keeps in a group, and
    e.g. ``(?s).`` is valid alone but not inside one."""
    try:
        re.compile(f"({pattern})")
    except re.error:
        return False
    return True


def text_batch(splitter: Any, texts: Any) -> Optional[Iterator[list[str]]]:
    """Many texts of a drop-in split on the pool, or ``None`` for one at a time."""
    length = splitter._length_function
    native_length = None if length is len else length
    if (
        not isinstance(texts, (list, tuple))
        or len(texts) < 2
        or getattr(type(splitter).split_text, "__module__", None) != TEXTSPLITTER_MODULE
        or not is_native_length(native_length)
    ):
        return None
    engine = splitter._engine(splitter._key())
    if not isinstance(engine, _native.TextEngine):
        return None

    def one_text(text: Any) -> tuple[list[str], list[int]]:
        return splitter.split_text(text), []  # logs its own warnings

    def finish(result: tuple[list[str], list[int]]) -> list[str]:
        splitter._warn(result[1])
        return result[0]

    results = _native.split_text_iter(engine.native, iter(texts), one_text, native_length, None)
    return drain(results, finish)


# -- the native API: Splitter ---------------------------------------------------------------


def splitter_specs(args: Mapping[str, Any]) -> Optional[list[tuple[str, bool, str]]]:
    """``(pattern, is_regex, original)`` per separator of a ``Splitter`` in the core's
    syntax, or ``None`` if one needs Python's ``re``."""
    regex = args["is_separator_regex"]
    return rust_separators((s, regex, s) for s in args["separators"])


def splitter_fallback(args: Mapping[str, Any]) -> Any:
    """The reference engine of a ``Splitter``'s arguments."""
    from ..reference.split.splitter import make_engine

    return make_engine(args)


def splitter_engine(args: Mapping[str, Any], stack: str) -> Any:
    """The engine of a ``Splitter``: ``_native.Splitter`` or the reference ``Engine``."""
    specs = splitter_specs(args)
    if stack == REFERENCE or specs is None or args["chunk_size"] >= 2**63:  # i64 sizes
        return splitter_fallback(args)  # Python's re and ints keep the answer exact
    keep, strip = args["keep_separator"], args["strip_whitespace"]
    try:
        return _native.Splitter(args["chunk_size"], args["chunk_overlap"], specs, keep, strip, True)
    except (ValueError, UnicodeEncodeError):  # a pattern over the regex crate's size
        return splitter_fallback(args)  # limit, or a surrogate separator: Python's re runs it


def splitter_cut_levels(splitter: Any, text: str) -> list[int]:
    """Why each chunk of ``splitter.split(text)`` ends there (``Splitter.cuts``), from the
    engine that splits it: the reference when the native one cannot measure."""
    engine, length = splitter._engine, splitter._args["length_function"]
    if isinstance(engine, _native.Splitter):
        try:
            return engine.cut_levels(text, length)
        except _native.Unsupported:  # lengths that are not counts, as in split()
            engine = splitter_fallback(splitter._args)
    from ..reference.split.cuts import cut_levels

    return cut_levels(engine, text, length or len)


def splitter_batch(
    splitter: Any, texts: Iterable[Any], metadatas: Optional[Iterable[Any]], threads: Optional[int]
) -> Optional[Iterator[list[Any]]]:
    """A ``Splitter``'s batch on the pool, or ``None`` for one document at a time."""
    length = splitter._args["length_function"]
    if not isinstance(splitter._engine, _native.Splitter) or not is_native_length(length):
        return None
    results = _native.split_iter(
        splitter._engine, iter(texts), read_only(metadatas), length, threads
    )
    return drain(results, splitter._finish)
