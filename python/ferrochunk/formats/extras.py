"""The optional packages the format chunkers read with, imported on first use so that
``import ferrochunk`` needs neither; a missing one is an ``ImportError`` naming its extra."""

from __future__ import annotations

import importlib
from types import ModuleType

# module -> (pip name, extra of pyproject.toml that installs it)
PACKAGES = {
    "lxml.html": ("lxml", "html"),
    "pypdfium2": ("pypdfium2", "pdf"),
}


def require(module: str, chunker: str) -> ModuleType:
    """``module`` imported, or an ``ImportError`` telling how to install it."""
    package, extra = PACKAGES[module]
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            f"{chunker} needs {package}: pip install 'ferrochunk[{extra}]' (or pip install "
            f"{package})"
        ) from error
