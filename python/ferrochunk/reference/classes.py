"""ferrochunk's public classes bound to the reference engine (the native API's ``Splitter``
is in :mod:`.api`).

Each is the class of the same name in ``ferrochunk`` with ``_stack = REFERENCE``, so
:mod:`ferrochunk.engines` builds it the pure-Python engine and nothing else: the same
arguments, validation, documents, warnings and pickling by construction, and the
differential tests compare only the engines.
"""

from __future__ import annotations

from .. import structure
from ..code import chunker as code_chunker
from ..engines.common import REFERENCE
from ..markdown import chunker, header
from ..split import textsplitter


class TextSplitter(textsplitter.TextSplitter):
    __doc__ = textsplitter.TextSplitter.__doc__
    _stack = REFERENCE


class CharacterTextSplitter(textsplitter.CharacterTextSplitter):
    __doc__ = textsplitter.CharacterTextSplitter.__doc__
    _stack = REFERENCE


class RecursiveCharacterTextSplitter(textsplitter.RecursiveCharacterTextSplitter):
    __doc__ = textsplitter.RecursiveCharacterTextSplitter.__doc__
    _stack = REFERENCE


class TokenTextSplitter(textsplitter.TokenTextSplitter):
    __doc__ = textsplitter.TokenTextSplitter.__doc__
    _stack = REFERENCE


class MarkdownChunker(chunker.MarkdownChunker):
    __doc__ = chunker.MarkdownChunker.__doc__
    _stack = REFERENCE


class CodeChunker(code_chunker.CodeChunker):
    __doc__ = code_chunker.CodeChunker.__doc__
    _stack = REFERENCE


class TextChunker(structure.TextChunker):
    __doc__ = structure.TextChunker.__doc__
    _stack = REFERENCE


class MarkdownHeaderTextSplitter(header.MarkdownHeaderTextSplitter):
    __doc__ = header.MarkdownHeaderTextSplitter.__doc__
    _stack = REFERENCE


__all__ = [
    "CharacterTextSplitter",
    "CodeChunker",
    "MarkdownChunker",
    "MarkdownHeaderTextSplitter",
    "RecursiveCharacterTextSplitter",
    "TextChunker",
    "TextSplitter",
    "TokenTextSplitter",
]
