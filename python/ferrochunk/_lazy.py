"""Lazy package exports (PEP 562): ``from ferrochunk import Splitter`` imports only what
``Splitter`` needs. The LangChain drop-ins import ``langchain_core`` when it is installed,
which takes about 0.4 s; the native API and the CLI should not pay for it.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable


def exports(
    package: str, names: dict[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package`` whose ``names`` live in the given
    submodules (relative, e.g. ``".split"``); each is imported on first use and cached."""

    def __getattr__(name: str) -> Any:
        try:
            module = names[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        imported = importlib.import_module(module, package)
        value = imported if module.rsplit(".", 1)[-1] == name else getattr(imported, name)
        globals_of(package)[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(names) | set(globals_of(package)))

    return __getattr__, __dir__


def globals_of(package: str) -> dict[str, Any]:
    return vars(importlib.import_module(package))
