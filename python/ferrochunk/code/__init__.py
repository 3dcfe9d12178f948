"""Source code chunked along its syntax tree: :class:`CodeChunker` (docs/code.md)."""

from .chunker import CodeChunker

__all__ = ["CodeChunker"]
