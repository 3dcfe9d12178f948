"""ferrochunk: fast text chunking for RAG, with LangChain-identical drop-in splitters.

>>> from ferrochunk import RecursiveCharacterTextSplitter, split
>>> splitter = RecursiveCharacterTextSplitter(chunk_size=10, chunk_overlap=0)
>>> splitter.split_text("Hello world. Bye.")
['Hello', 'world.', 'Bye.']
"""

from . import langchain  # noqa: F401  (LangChain's namespace; registers isinstance with it)
from . import parallel
from .documents import Document
from .language import Language
from .markdown import MarkdownChunker, MarkdownHeaderTextSplitter, MarkdownTextSplitter
from .sentences import sentence_ends, sentence_spans, split_sentences
from .split import (
    CharacterTextSplitter,
    Chunk,
    RecursiveCharacterTextSplitter,
    Splitter,
    TextSplitter,
    TokenTextSplitter,
    split,
)
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

# Semantic and late chunking need numpy (the `semantic` extra), so they load on first use.
_SEMANTIC = ("SemanticChunker", "SemanticSplitter", "late_chunk", "pool_chunks")


def __getattr__(name: str) -> object:
    if name in _SEMANTIC:
        from . import semantic

        return getattr(semantic, name)
    raise AttributeError(f"module 'ferrochunk' has no attribute {name!r}")


__all__ = [
    "CharacterTextSplitter",
    "Chunk",
    "Document",
    "Language",
    "MarkdownChunker",
    "MarkdownHeaderTextSplitter",
    "MarkdownTextSplitter",
    "RecursiveCharacterTextSplitter",
    "SemanticChunker",
    "SemanticSplitter",
    "Splitter",
    "TextSplitter",
    "TokenSplitter",
    "TokenTextSplitter",
    "Tokenizer",
    "__version__",
    "encoding_for_model",
    "get_encoding",
    "huggingface_counter",
    "late_chunk",
    "pool_chunks",
    "parallel",
    "sentence_ends",
    "sentence_spans",
    "split",
    "split_sentences",
    "split_tokens",
    "tiktoken_encoding",
]
