"""``isinstance`` across the two packages: ferrochunk's splitters registered as virtual
subclasses of LangChain's abstract classes (``TextSplitter`` and every drop-in that derives
from it), so code that checks ``isinstance(s, langchain_text_splitters.TextSplitter)``
accepts them. Registration changes nothing in either class; LangChain's plain classes
(``MarkdownHeaderTextSplitter``, ``HTMLHeaderTextSplitter``, ...) cannot take it and need
none (nothing derives from them). Without ``langchain_text_splitters`` it does nothing.
"""

from __future__ import annotations

import sys
from abc import ABCMeta
from collections.abc import Mapping
from typing import Any

from ..split.textsplitter import TextSplitter as SharedTextSplitter


def _theirs() -> Any:
    """LangChain's package, or None when absent, still loading, or ferrochunk's stand-in
    (LangChain's test suite runs with ``langchain_text_splitters`` aliased to us)."""
    module = sys.modules.get("langchain_text_splitters")
    if module is None:
        try:
            import langchain_text_splitters as module
        except ImportError:
            return None
    text_splitter = getattr(module, "TextSplitter", None)
    if not isinstance(text_splitter, ABCMeta) or text_splitter.__module__.startswith("ferrochunk"):
        return None
    return module


def register_with_langchain(ours: Mapping[str, Any]) -> None:
    """Register each class of ``ours`` (a namespace like LangChain's) under LangChain's
    class of the same name when that one is abstract; the shared ``TextSplitter`` (so the
    reference splitters too) under LangChain's ``TextSplitter``."""
    theirs = _theirs()
    if theirs is None:
        return
    pairs: list[tuple[str, type[Any]]] = [("TextSplitter", SharedTextSplitter)]

    pairs += [(name, ours[name]) for name in theirs.__all__ if isinstance(ours.get(name), type)]
    for name, cls in pairs:
        try:
            their_cls = getattr(theirs, name)
        except (AttributeError, ImportError):
            continue
        if isinstance(their_cls, ABCMeta) and not issubclass(cls, their_cls):
            their_cls.register(cls)


__all__ = ["register_with_langchain"]
