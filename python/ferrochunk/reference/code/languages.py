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


JS = {
    "function_declaration": "function",
    "generator_function_declaration": "function*",
    "class_declaration": "class",
    "method_definition": "",
    "export_statement": "",
}
TS = {
    **JS,
    "abstract_class_declaration": "class",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "internal_module": "namespace",
}
EXPORTS = frozenset({"export_statement"})
COMMENT = frozenset({"comment"})
JAVA_COMMENTS = frozenset({"line_comment", "block_comment"})

GRAMMARS = (
    Grammar(
        ("python", "py"),
        "tree_sitter_python",
        "language",
        {"function_definition": "def", "class_definition": "class", "decorated_definition": ""},
        frozenset({"decorated_definition"}),
        COMMENT,
    ),
    Grammar(
        ("javascript", "js", "jsx"), "tree_sitter_javascript", "language", JS, EXPORTS, COMMENT
    ),
    Grammar(
        ("typescript", "ts"), "tree_sitter_typescript", "language_typescript", TS, EXPORTS, COMMENT
    ),
    Grammar(("tsx",), "tree_sitter_typescript", "language_tsx", TS, EXPORTS, COMMENT),
    Grammar(
        ("rust", "rs"),
        "tree_sitter_rust",
        "language",
        {
            "function_item": "fn",
            "impl_item": "impl",
            "trait_item": "trait",
            "struct_item": "struct",
            "enum_item": "enum",
            "mod_item": "mod",
            "macro_definition": "macro_rules!",
        },
        frozenset(),
        frozenset({"line_comment", "block_comment", "attribute_item"}),
    ),
    Grammar(
        ("go",),
        "tree_sitter_go",
        "language",
        {"function_declaration": "func", "method_declaration": "func", "type_declaration": "type"},
        frozenset(),
        COMMENT,
    ),
    Grammar(
        ("java",),
        "tree_sitter_java",
        "language",
        {
            "class_declaration": "class",
            "interface_declaration": "interface",
            "enum_declaration": "enum",
            "record_declaration": "record",
            "method_declaration": "",
            "constructor_declaration": "",
        },
        frozenset(),
        JAVA_COMMENTS,
    ),
    Grammar(
        ("c", "h"),
        "tree_sitter_c",
        "language",
        {
            "function_definition": "",
            "struct_specifier": "struct",
            "union_specifier": "union",
            "enum_specifier": "enum",
        },
        frozenset(),
        COMMENT,
    ),
    Grammar(
        ("cpp", "c++", "cc", "cxx", "hpp"),
        "tree_sitter_cpp",
        "language",
        {
            "function_definition": "",
            "class_specifier": "class",
            "struct_specifier": "struct",
            "union_specifier": "union",
            "enum_specifier": "enum",
            "namespace_definition": "namespace",
            "template_declaration": "",
        },
        frozenset({"template_declaration"}),
        COMMENT,
    ),
)


def grammar(name: str) -> Grammar | None:
    """The grammar called ``name`` or one of its aliases, case-insensitive."""
    low = name.lower()
    return next((g for g in GRAMMARS if low in g.names), None)


def names() -> list[str]:
    return [g.names[0] for g in GRAMMARS]
