"""LangChain's splitting hooks a subclass may override, and whether it does.

Such a subclass is split by the reference engine calling its methods
(:mod:`ferrochunk.reference.hooks`, which each stack builds through ``_make_hooked_engine``);
this module only tells, so the shared layer does not import the reference.
"""

from __future__ import annotations

from typing import Any

HOOKS = ("_merge_splits", "_join_docs", "_split_text")
HEADER_HOOKS = ("_is_custom_header", "aggregate_lines_to_chunks")


def overridden_hooks(splitter: Any, base: type, names: tuple[str, ...] = HOOKS) -> bool:
    """Whether ``splitter``'s class overrides one of the hooks ``base`` defines."""
    cls = type(splitter)
    return any(
        getattr(cls, name) is not getattr(base, name) for name in names if hasattr(base, name)
    )
