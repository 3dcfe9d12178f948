"""Structure beyond Markdown on the Rust engine (mirrors ``rust/structure/``):
``TextChunker`` for reStructuredText, AsciiDoc and plain text, and the file-suffix table."""

from ..frontend import structure as front
from ..frontend.structure import FORMATS, SUFFIXES, format_for_path
from ..markdown.chunker import MarkdownChunker
from ..split.splitter import Chunk


class TextChunker(front.TextChunker[Chunk], MarkdownChunker):
    __doc__ = front.TextChunker.__doc__

    _make_engine = MarkdownChunker._make_engine


__all__ = ["FORMATS", "SUFFIXES", "TextChunker", "format_for_path"]
