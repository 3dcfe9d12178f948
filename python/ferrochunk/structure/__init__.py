"""Structure beyond Markdown (mirrors ``rust/structure/``): ``TextChunker`` for
reStructuredText, AsciiDoc and plain text, and the file-suffix table.

``TextChunker`` (defined beside ``MarkdownChunker``, in :mod:`ferrochunk.markdown.chunker`)
is :class:`~ferrochunk.MarkdownChunker` reading another markup: the same
engine (:func:`ferrochunk.engines.markdown_engine`) with another block scanner
(``rust/structure/``, :mod:`ferrochunk.reference.structure`); the format is part of the
settings, so it is part of every chunk id (``format="markdown"`` gives exactly
``MarkdownChunker``'s chunks and ids).
"""

from __future__ import annotations

from ..frontend.structure import FORMATS, SUFFIXES, format_for_path
from ..markdown.chunker import TextChunker

__all__ = ["FORMATS", "SUFFIXES", "TextChunker", "format_for_path"]
