"""The table of languages (mirrors ``rust/code/languages.rs``): for each, the PyPI grammar
module, its definitions with their label keywords, wrappers and comments."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Grammar:
    names: tuple[str, ...]
    module: str  # the grammar wheel's module (``tree_sitter_python``)
    function: str  # its function returning the language pointer
    definitions: dict[str, str]
    wrappers: frozenset[str]
    comments: frozenset[str]

    def language(self) -> Any:
        """The py-tree-sitter ``Language``; the grammar wheel is the ``code`` extra."""
        try:
            from tree_sitter import Language

            module = importlib.import_module(self.module)
        except ImportError as err:
            raise ImportError(
                f"the reference CodeChunker needs py-tree-sitter and {self.module}: "
                "pip install 'ferrochunk[code]'"
            ) from err
        return Language(getattr(module, self.function)())


GRAMMARS = (
    Grammar(
        ("python", "py"),
        "tree_sitter_python",
        "language",
        {"function_definition": "def", "class_definition": "class", "decorated_definition": ""},
        frozenset({"decorated_definition"}),
        frozenset({"comment"}),
    ),
)


def grammar(name: str) -> Grammar | None:
    """The grammar called ``name`` or one of its aliases, case-insensitive."""
    low = name.lower()
    return next((g for g in GRAMMARS if low in g.names), None)


def names() -> list[str]:
    return [g.names[0] for g in GRAMMARS]
