"""Programming and markup languages with separator presets for the recursive splitter.

The presets match ``langchain_text_splitters`` 1.1 so ``from_language`` gives identical
output; they are regular expressions (``from_language`` sets ``is_separator_regex``)."""

from __future__ import annotations

import json
import os
from enum import Enum
from functools import cache


class Language(str, Enum):
    """Enum of the programming languages."""

    CPP = "cpp"
    GO = "go"
    JAVA = "java"
    KOTLIN = "kotlin"
    JS = "js"
    TS = "ts"
    PHP = "php"
    PROTO = "proto"
    PYTHON = "python"
    R = "r"
    RST = "rst"
    RUBY = "ruby"
    RUST = "rust"
    SCALA = "scala"
    SWIFT = "swift"
    MARKDOWN = "markdown"
    LATEX = "latex"
    HTML = "html"
    SOL = "sol"
    CSHARP = "csharp"
    COBOL = "cobol"
    C = "c"
    LUA = "lua"
    PERL = "perl"
    HASKELL = "haskell"
    ELIXIR = "elixir"
    POWERSHELL = "powershell"
    VISUALBASIC6 = "visualbasic6"


@cache
def _separators() -> dict[str, list[str]]:
    """The presets (data/separators.json, keyed by ``Language`` value), read on first use
    beside this file: ``importlib.resources`` would add 20 ms to every start-up (a native
    extension's package is never imported from a zip, so the folder is always there)."""
    path = os.path.join(os.path.dirname(__file__), "data", "separators.json")
    with open(path, encoding="utf-8") as f:
        presets: dict[str, list[str]] = json.load(f)
    return presets


def get_separators_for_language(language: Language) -> list[str]:
    """The separators for ``language``; raises ``ValueError`` as LangChain does for others."""
    key = language.value if isinstance(language, Language) else language
    if isinstance(key, str) and key in _separators():
        return list(_separators()[key])
    if language in Language._value2member_map_:
        msg = f"Language {language} is not implemented yet!"
        raise ValueError(msg)
    msg = f"Language {language} is not supported! Please choose from {list(Language)}"
    raise ValueError(msg)
