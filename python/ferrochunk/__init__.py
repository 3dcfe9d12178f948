"""ferrochunk: fast text chunking for RAG, with LangChain-identical drop-in splitters.

>>> from ferrochunk import RecursiveCharacterTextSplitter, split
>>> splitter = RecursiveCharacterTextSplitter(chunk_size=10, chunk_overlap=0)
>>> splitter.split_text("Hello world. Bye.")
['Hello', 'world.', 'Bye.']
"""

import importlib
from typing import TYPE_CHECKING, Any

from ._lazy import exports

# Every name loads on first use (ferrochunk/_lazy.py): the native API and the CLI do not
# import langchain_core (0.4 s), nor semantic chunking numpy.
_EXPORTS = {
    "parallel": ".parallel",
    "langchain": ".langchain",
    "Document": ".documents",
    "Language": ".language",
    "CodeChunker": ".code",
    "MarkdownChunker": ".markdown",
    # HTML and PDF: lxml and pypdfium2 (the `html` and `pdf` extras), imported on first use.
    "HtmlChunker": ".formats",
    "PdfChunker": ".formats",
    "MarkdownHeaderTextSplitter": ".markdown",
    "MarkdownTextSplitter": ".markdown",
    "TextChunker": ".structure",
    "sentence_ends": ".sentences",
    "sentence_spans": ".sentences",
    "split_sentences": ".sentences",
    "CharacterTextSplitter": ".split",
    "Chunk": ".split",
    "RecursiveCharacterTextSplitter": ".split",
    "Splitter": ".split",
    "TextSplitter": ".split",
    "TokenTextSplitter": ".split",
    "Tokenizer": ".tokens",
    "TokenSplitter": ".tokens",
    "encoding_for_model": ".tokens",
    "get_encoding": ".tokens",
    "huggingface_counter": ".tokens",
    "split_tokens": ".tokens",
    "tiktoken_encoding": ".tokens",
    # Semantic and late chunking need numpy (the `semantic` extra).
    "SemanticChunker": ".semantic",
    "SemanticSplitter": ".semantic",
    "late_chunk": ".semantic",
    "pool_chunks": ".semantic",
}
_load, __dir__ = exports(__name__, _EXPORTS)
# The LangChain drop-ins: the first time one is taken from here, ferrochunk.langchain loads,
# which registers them with langchain_text_splitters' abstract classes (isinstance works).
_DROP_INS = {
    "CharacterTextSplitter",
    "Document",
    "MarkdownHeaderTextSplitter",
    "MarkdownTextSplitter",
    "PdfChunker",
    "RecursiveCharacterTextSplitter",
    "TextSplitter",
    "TokenTextSplitter",
}


def __getattr__(name: str) -> Any:
    value = _load(name)
    if name in _DROP_INS:
        importlib.import_module(".langchain", __name__)
    return value


# `split` is both a subpackage and the function: bound here, after the subpackage loads,
# so the name is the function (the native API needs no LangChain import).
from .split.splitter import split  # noqa: E402

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load on first use
    from . import parallel
    from .code import CodeChunker
    from .documents import Document
    from .formats import HtmlChunker, PdfChunker
    from .language import Language
    from .markdown import MarkdownChunker, MarkdownHeaderTextSplitter, MarkdownTextSplitter
    from .semantic import SemanticChunker, SemanticSplitter, late_chunk, pool_chunks
    from .sentences import sentence_ends, sentence_spans, split_sentences
    from .split import (
        CharacterTextSplitter,
        Chunk,
        RecursiveCharacterTextSplitter,
        Splitter,
        TextSplitter,
        TokenTextSplitter,
    )
    from .structure import TextChunker
    from .tokens import (
        Tokenizer,
        TokenSplitter,
        encoding_for_model,
        get_encoding,
        huggingface_counter,
        split_tokens,
        tiktoken_encoding,
    )

__version__ = "0.1.0"

__all__ = [
    "CharacterTextSplitter",
    "Chunk",
    "CodeChunker",
    "Document",
    "HtmlChunker",
    "Language",
    "MarkdownChunker",
    "MarkdownHeaderTextSplitter",
    "MarkdownTextSplitter",
    "PdfChunker",
    "RecursiveCharacterTextSplitter",
    "SemanticChunker",
    "SemanticSplitter",
    "Splitter",
    "TextChunker",
    "TextSplitter",
    "TokenSplitter",
    "TokenTextSplitter",
    "Tokenizer",
    "__version__",
    "encoding_for_model",
    "get_encoding",
    "huggingface_counter",
    "late_chunk",
    "parallel",
    "pool_chunks",
    "sentence_ends",
    "sentence_spans",
    "split",
    "split_sentences",
    "split_tokens",
    "tiktoken_encoding",
]
