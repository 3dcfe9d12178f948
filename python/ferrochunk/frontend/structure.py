"""``TextChunker``'s public class, shared by both engines: :class:`MarkdownChunker`'s
arguments, guarantees and metadata for texts in reStructuredText, AsciiDoc or plain text
(``format=``), and the suffix table the CLI detects formats by.

The engines are the Markdown chunker's with another block scanner
(``rust/structure/``, :mod:`ferrochunk.reference.structure`); the format is part of the
settings, so it is part of every chunk id (``format="markdown"`` gives exactly
``MarkdownChunker``'s chunks and ids).
"""

from __future__ import annotations

from os import PathLike
from pathlib import PurePath
from typing import Any, Callable, Optional, Union

from .markdown import ChunkT, MarkdownChunker

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


def format_for_path(path: Union[str, PathLike], default: Optional[str] = None) -> Optional[str]:
    """The format a file's suffix says (``SUFFIXES``), else ``default``.

    >>> format_for_path("docs/intro.rst"), format_for_path("README.adoc"), format_for_path("a.c")
    ('rst', 'asciidoc', None)
    """
    return SUFFIXES.get(PurePath(path).suffix.lower(), default)


class TextChunker(MarkdownChunker[ChunkT]):
    """Structure-aware chunks of reStructuredText, AsciiDoc, plain text (or Markdown).

    The same guarantees and metadata as :class:`~ferrochunk.MarkdownChunker`: section
    titles give ``heading_path`` (RST's over- and underlined titles, levels in the order
    their styles first appear; AsciiDoc's ``=`` titles and two-line titles; underlined
    titles in plain text) and never end a chunk; literal and code blocks (``::`` blocks,
    ``.. code-block::``, AsciiDoc ``----``/``....``) and tables (RST grid and simple
    tables, table directives, AsciiDoc ``|===``) are kept whole unless one alone exceeds
    ``chunk_size``; directives and admonitions (``.. note::`` and its body), AsciiDoc
    example and sidebar blocks are kept whole when they fit and otherwise cut with their
    head glued to their body; targets, block titles and attribute lines stay with what
    follows them; list items, fields and definitions are seams; long paragraphs are cut at
    sentence ends first. The arguments are :class:`~ferrochunk.MarkdownChunker`'s, with the
    same defaults (``chunk_overlap`` 0 included), plus ``format``, one of ``FORMATS``;
    :func:`format_for_path` maps a file name to one.

    >>> from ferrochunk import TextChunker
    >>> rst = "Install\\n=======\\n\\nRun this::\\n\\n    pip install x\\n\\nThen go.\\n"
    >>> chunks = TextChunker(chunk_size=40, min_size=0, format="rst").split(rst)
    >>> [c.text for c in chunks]
    ['Install\\n=======\\n\\nRun this::', 'pip install x\\n\\nThen go.']
    >>> [c.metadata["heading_path"] for c in chunks]
    [('Install',), ('Install',)]
    """

    def __init__(
        self,
        chunk_size: int = 1000,
        *,
        min_size: Optional[int] = None,
        format: str = "plain",
        separators: Union[str, list[str]] = "default",
        embedding_text: bool = False,
        length_function: Optional[Callable[[str], int]] = None,
        parent_size: Optional[int] = None,
        chunk_overlap: int = 0,
    ) -> None:
        if not isinstance(format, str) or format not in FORMATS:
            raise ValueError(f"format must be one of {list(FORMATS)}, got {format!r}")
        self.format = format
        super().__init__(
            chunk_size,
            min_size=min_size,
            separators=separators,
            embedding_text=embedding_text,
            length_function=length_function,
            parent_size=parent_size,
            chunk_overlap=chunk_overlap,
        )

    def _arguments(self) -> dict[str, Any]:
        return {**super()._arguments(), "format": self.format}

    def _settings(self) -> str:
        markdown = super()._settings()
        if self.format == "markdown":
            return markdown
        return markdown.replace("markdown-v2|", f"{self.format}-v1|", 1)

    def _make_engine(self) -> Any:
        raise NotImplementedError


__all__ = ["FORMATS", "SUFFIXES", "TextChunker", "format_for_path"]
