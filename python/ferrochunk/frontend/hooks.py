"""LangChain's splitting hooks a subclass may override, and whether it does.

Such a subclass is split by the reference engine calling its methods (``HookedEngine``,
``HookedHeaderEngine``, which :mod:`ferrochunk.engines` chooses); this module only tells.
"""

from __future__ import annotations

from typing import Any

HOOKS = ("_merge_splits", "_join_docs", "_split_text")
HEADER_HOOKS = ("_is_custom_header", "aggregate_lines_to_chunks")


def overridden_hooks(splitter: Any, home: str, names: tuple[str, ...] = HOOKS) -> bool:
    """Whether ``splitter``'s class overrides one of the hooks ``names`` that ferrochunk's
    classes in the module ``home`` define (a hook only a subclass defines overrides none)."""
    mro = type(splitter).__mro__
    for name in names:
        owners = [cls for cls in mro if name in cls.__dict__]
        if owners and owners[0].__module__ != home and any(c.__module__ == home for c in owners):
            return True
    return False
