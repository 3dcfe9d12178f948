"""Chunkers under evaluation, each reduced to one shape: ``text -> [(start, end)]``.

A configuration (:class:`Config`) names a chunker, a size, an overlap and the unit both are
counted in (``chars`` = code points, or ``tokens`` = cl100k_base). :func:`build` turns it into
a span function through the registry :data:`CHUNKERS`; :func:`register` adds one (a factory
``Config -> SpanFn``). Any chunker plugs in through :func:`to_spans`, which accepts what
chunkers return: ``(start, end)`` pairs, objects with ``.start``/``.end`` (ferrochunk) or
``.start_index``/``.end_index`` (chonkie), or plain strings (located in order). Every span
is checked: inside the text and ``start <= end``.

Peers (LangChain, semantic-text-splitter, chonkie, semchunk) are optional: a missing package
raises :class:`Skip` with a message, and so does a setting a chunker does not have.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable, Optional

Spans = list[tuple[int, int]]
SpanFn = Callable[[str], Spans]
UNITS = ("chars", "tokens")
ENCODING = "cl100k_base"


class Skip(Exception):
    """This configuration cannot run here (package missing or setting unsupported)."""


@dataclass(frozen=True)
class Config:
    """One point of the grid: chunker x size x overlap, in ``unit``."""

    chunker: str
    size: int
    overlap: int = 0
    unit: str = "chars"

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"unit must be one of {', '.join(UNITS)}, got {self.unit!r}")
        for name in ("size", "overlap"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, got {value!r}")
        if not 0 <= self.overlap < self.size:
            raise ValueError(
                f"need size > overlap >= 0, got size={self.size}, overlap={self.overlap}"
            )

    @property
    def label(self) -> str:
        """A short name for tables: ``markdown 400t/0``."""
        return f"{self.chunker} {self.size}{self.unit[0]}/{self.overlap}"


def to_spans(output: Sequence[Any], text: str) -> Spans:
    """Spans of a chunker's output over ``text`` (see the module docstring). A chunk object
    whose ``.text`` differs from the text at its offsets is located by its text instead,
    without the U+FFFD a token window leaves where it cut a character in two (chonkie's
    ``TokenChunker`` on CJK text; its offsets drift after such a cut): the broken
    characters then belong to neither chunk, which the coverage measure shows."""
    if all(isinstance(c, str) for c in output):
        return locate(text, output)
    spans: Spans = []
    for c in output:
        if isinstance(c, tuple) and len(c) == 2:
            a, b = c
        elif hasattr(c, "start_index"):
            a, b = c.start_index, c.end_index
        else:
            a, b = c.start, c.end
        if not (isinstance(a, int) and isinstance(b, int) and 0 <= a <= b <= len(text)):
            a = b = -1
        own = getattr(c, "text", None)
        if isinstance(own, str) and (a < 0 or text[a:b] != own):
            a, b = _find(text, own, spans[-1][0] + 1 if spans else 0)
        elif a < 0:
            raise ValueError(f"chunk span {c!r} is outside the text (0..{len(text)})")
        spans.append((a, b))
    return spans


def _find(text: str, chunk: str, start: int) -> tuple[int, int]:
    core = chunk.strip("\ufffd")
    at = text.find(core, start)
    if at < 0 or not core:
        raise ValueError(f"chunk {chunk[:40]!r} is not in the text at its offsets or after")
    return at, at + len(core)


def locate(text: str, chunks: Sequence[str], overlap: Optional[int] = None) -> Spans:
    """Exact spans of chunk strings found in order: each one at or after the previous
    start + 1 (and, given the overlap in characters, no earlier than the previous end minus
    it: LangChain's ``add_start_index`` rule). A chunk that is not in the text is an error."""
    spans: Spans = []
    for chunk in chunks:
        lo = spans[-1][0] + 1 if spans else 0
        if spans and overlap is not None:
            lo = max(lo, spans[-1][1] - overlap)
        at = text.find(chunk, lo)
        if at < 0 and spans:
            at = text.find(chunk, spans[-1][0] + 1)
        if at < 0:
            raise ValueError(f"chunk {chunk[:40]!r} is not found in order in the text")
        spans.append((at, at + len(chunk)))
    return spans


def _import(module: str, package: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise Skip(f"{package} is not installed (pip install 'ferrochunk[bench]')") from None


def _counter() -> Any:
    from .. import get_encoding

    return get_encoding(ENCODING).length_function()


def _length(config: Config) -> Optional[Any]:
    return _counter() if config.unit == "tokens" else None


def _no_overlap(config: Config) -> None:
    if config.overlap:
        raise Skip(f"{config.chunker} has no overlap setting")


def _splitter(config: Config) -> SpanFn:
    from .. import Splitter

    s = Splitter(config.size, chunk_overlap=config.overlap, length_function=_length(config))
    return lambda text: [(c.start, c.end) for c in s.split(text)]


def _markdown(config: Config) -> SpanFn:
    from .. import MarkdownChunker

    m = MarkdownChunker(config.size, chunk_overlap=config.overlap, length_function=_length(config))
    return lambda text: [(c.start, c.end) for c in m.split(text)]


def _text(config: Config) -> SpanFn:
    """``TextChunker`` with the format of each document's file suffix (Markdown for
    ``.md``, RST for ``.rst``, AsciiDoc for ``.adoc``, plain otherwise): the runner passes
    the document id as ``path``."""
    from .. import TextChunker
    from ..frontend.structure import FORMATS, format_for_path

    length = _length(config)
    over = config.overlap
    chunkers = {
        fmt: TextChunker(config.size, format=fmt, chunk_overlap=over, length_function=length)
        for fmt in FORMATS
    }

    def split(text: str, path: str = "") -> Spans:
        chunker = chunkers[format_for_path(path, "plain") or "plain"]
        return [(c.start, c.end) for c in chunker.split(text)]

    split.by_path = True  # type: ignore[attr-defined]
    return split


def _recursive(config: Config, module: str = "ferrochunk", package: str = "") -> SpanFn:
    cls = _import(module, package or module).RecursiveCharacterTextSplitter
    counter = _length(config)
    length = len if counter is None else counter
    s = cls(chunk_size=config.size, chunk_overlap=config.overlap, length_function=length)
    bound = None if counter is not None else config.overlap
    return lambda text: locate(text, s.split_text(text), bound)


def _langchain(config: Config) -> SpanFn:
    return _recursive(config, "langchain_text_splitters", "langchain-text-splitters")


def _token_windows(config: Config) -> SpanFn:
    from .. import split_tokens

    if config.unit != "tokens":
        raise Skip("token windows are sized in tokens (unit = tokens)")
    return lambda text: [
        (c.start, c.end) for c in split_tokens(text, config.size, chunk_overlap=config.overlap)
    ]


def _semantic_text_splitter(config: Config) -> SpanFn:
    sts = _import("semantic_text_splitter", "semantic-text-splitter")
    if config.unit == "tokens":  # gpt-4 is cl100k_base; the ranks are built into the wheel
        s = sts.TextSplitter.from_tiktoken_model("gpt-4", config.size, config.overlap)
    else:
        s = sts.TextSplitter(config.size, config.overlap)
    return lambda text: [(a, a + len(c)) for a, c in s.chunk_indices(text)]


def _chonkie_tokenizer(config: Config) -> Any:
    if config.unit == "chars":
        return "character"
    from .. import tiktoken_encoding

    _import("tiktoken", "tiktoken")
    return tiktoken_encoding(ENCODING)


def _chonkie_recursive(config: Config) -> SpanFn:
    chonkie = _import("chonkie", "chonkie")
    _no_overlap(config)
    c = chonkie.RecursiveChunker(tokenizer=_chonkie_tokenizer(config), chunk_size=config.size)
    return lambda text: to_spans(c(text), text)


def _chonkie_token(config: Config) -> SpanFn:
    chonkie = _import("chonkie", "chonkie")
    tok = _chonkie_tokenizer(config)
    c = chonkie.TokenChunker(tokenizer=tok, chunk_size=config.size, chunk_overlap=config.overlap)
    return lambda text: to_spans(c(text), text)


def _semchunk(config: Config) -> SpanFn:
    semchunk = _import("semchunk", "semchunk")
    counter = _length(config)
    chunker = semchunk.chunkerify(len if counter is None else counter, config.size)
    overlap = config.overlap or None

    def split(text: str) -> Spans:
        _, offsets = chunker(text, offsets=True, overlap=overlap)
        return [(a, b) for a, b in offsets]

    return split


CHUNKERS: dict[str, Callable[[Config], SpanFn]] = {
    "splitter": _splitter,
    "markdown": _markdown,
    "text": _text,
    "recursive": _recursive,
    "tokens": _token_windows,
    "langchain": _langchain,
    "semantic-text-splitter": _semantic_text_splitter,
    "chonkie-recursive": _chonkie_recursive,
    "chonkie-token": _chonkie_token,
    "semchunk": _semchunk,
}
"""Name -> factory. ferrochunk's: ``splitter`` (``Splitter``), ``markdown``
(``MarkdownChunker``), ``text`` (``TextChunker``, the format by file suffix), ``recursive``
(the drop-in ``RecursiveCharacterTextSplitter``), ``tokens`` (``split_tokens`` windows);
peers: the rest."""

PEERS = ("langchain", "semantic-text-splitter", "chonkie-recursive", "chonkie-token", "semchunk")


def register(name: str, factory: Callable[[Config], Any]) -> None:
    """Add a chunker: ``factory(config)`` returns ``text -> chunks`` in any form
    :func:`to_spans` reads (e.g. ``lambda c: MyChunker(c.size).split``)."""

    def spans(config: Config) -> SpanFn:
        split = factory(config)
        return lambda text: to_spans(split(text), text)

    CHUNKERS[name] = spans


def build(config: Config) -> SpanFn:
    """The span function of ``config`` (``ValueError`` for an unknown chunker, :class:`Skip`
    when it cannot run here)."""
    factory = CHUNKERS.get(config.chunker)
    if factory is None:
        raise ValueError(f"unknown chunker {config.chunker!r}; choose from {', '.join(CHUNKERS)}")
    return factory(config)
