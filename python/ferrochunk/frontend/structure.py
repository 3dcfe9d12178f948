"""The formats ``TextChunker`` (:mod:`ferrochunk.structure`) reads, and the suffix table
the CLI detects them by."""

from __future__ import annotations

from os import PathLike
from pathlib import PurePath
from typing import Optional, Union

FORMATS = ("markdown", "rst", "asciidoc", "plain")
# File suffixes (lowercase) and the format they mean.
SUFFIXES = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "rst",
    ".rest": "rst",
    ".adoc": "asciidoc",
    ".asciidoc": "asciidoc",
    ".asc": "asciidoc",
    ".txt": "plain",
    ".text": "plain",
}


def format_for_path(
    path: Union[str, PathLike[str]], default: Optional[str] = None
) -> Optional[str]:
    """The format a file's suffix says (``SUFFIXES``), else ``default``.

    >>> format_for_path("docs/intro.rst"), format_for_path("README.adoc"), format_for_path("a.c")
    ('rst', 'asciidoc', None)
    """
    return SUFFIXES.get(PurePath(path).suffix.lower(), default)


__all__ = ["FORMATS", "SUFFIXES", "format_for_path"]
