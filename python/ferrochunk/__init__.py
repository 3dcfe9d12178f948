"""ferrochunk: fast text chunking for RAG, with LangChain-identical drop-in splitters.

>>> from ferrochunk import RecursiveCharacterTextSplitter, split
>>> splitter = RecursiveCharacterTextSplitter(chunk_size=10, chunk_overlap=0)
>>> splitter.split_text("Hello world. Bye.")
['Hello', 'world.', 'Bye.']
"""

from .documents import Document
from .language import Language
from .markdown import MarkdownChunker, MarkdownHeaderTextSplitter, MarkdownTextSplitter
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
    "Document",
    "Language",
    "MarkdownChunker",
    "MarkdownHeaderTextSplitter",
    "MarkdownTextSplitter",
    "RecursiveCharacterTextSplitter",
    "Splitter",
    "TextSplitter",
    "TokenTextSplitter",
    "Tokenizer",
    "__version__",
    "encoding_for_model",
    "get_encoding",
    "huggingface_counter",
    "split",
    "split_tokens",
    "tiktoken_encoding",
]
