"""See the chunks: one self-contained HTML page (or a terminal view) showing where every
chunk of a document begins and ends and why each was cut there, as the chunker reports it.

>>> from ferrochunk import Splitter
>>> from ferrochunk.view import view
>>> html = view("one two three\\n\\nfour", Splitter(10, chunk_overlap=0))
>>> html.startswith("<!DOCTYPE html>"), '"paragraph"' in html
(True, True)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional, Union

from .._atomic import write_text
from .chunks import records
from .page import page

Source = Union[str, "os.PathLike[str]"]


def label_of(chunker: Any) -> str:
    """A chunker's name and settings, short: ``Splitter size=1000 overlap=200``."""
    if isinstance(getattr(chunker, "label", None), str):  # a peer (view/peers.py)
        return str(chunker.label)
    settings = getattr(chunker, "settings", None)
    name = type(chunker).__name__
    if not isinstance(settings, str):
        return name
    keep = [
        p
        for p in settings.split("|")[1:]
        if p.split("=")[0] in ("size", "overlap", "min", "len", "format")
    ]
    return " ".join([name, *keep])


def documents(
    sources: Union[Source, Sequence[Source]],
    chunkers: Sequence[Any],
    *,
    labels: Optional[Sequence[str]] = None,
    tokens: Optional[str] = "cl100k_base",
) -> list[dict[str, Any]]:
    """The page's data: each source (a ``str`` is text, a path is read as UTF-8) with one
    view per chunker."""
    items = [sources] if isinstance(sources, (str, os.PathLike)) else list(sources)
    count = _counter(tokens)
    names = list(labels) if labels is not None else [label_of(c) for c in chunkers]
    docs = []
    for n, item in enumerate(items):
        if isinstance(item, os.PathLike):
            name, text = os.fspath(item), Path(item).read_text(encoding="utf-8")
        elif isinstance(item, str):
            name, text = f"text {n + 1}" if len(items) > 1 else "text", item
        else:
            raise TypeError(f"a source is a str (text) or a path, got {type(item).__name__}")
        views = [
            {"label": names[i], "chunks": records(c, text, count)} for i, c in enumerate(chunkers)
        ]
        docs.append({"name": name, "text": text, "length": len(text), "views": views})
    return docs


def view(
    sources: Union[Source, Sequence[Source]],
    chunker: Any = None,
    *,
    compare: Any = None,
    tokens: Optional[str] = "cl100k_base",
    title: str = "ferrochunk view",
    out: Optional[Source] = None,
) -> str:
    """The HTML page showing ``chunker``'s chunks of ``sources`` (a ``Splitter()`` when
    ``None``), side by side with ``compare``'s if given; written to ``out`` if given.
    Sizes are shown in characters and in tokens of the ``tokens`` encoding (``None``: only
    the counts the chunker reports)."""
    if chunker is None:
        from ..split.splitter import Splitter

        chunker = Splitter()
    chunkers = [chunker] if compare is None else [chunker, compare]
    html = page(documents(sources, chunkers, tokens=tokens), title)
    if out is not None:
        write_text(out, html)  # whole or not at all
    return html


def _counter(encoding: Optional[str]) -> Any:
    if encoding is None:
        return None
    from ..tokens.tokenizer import get_encoding

    return get_encoding(encoding).length_function()


__all__ = ["documents", "label_of", "view"]
