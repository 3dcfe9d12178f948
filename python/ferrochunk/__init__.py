"""ferrochunk: fast text chunking for RAG, with LangChain-identical drop-in splitters.

>>> from ferrochunk import RecursiveCharacterTextSplitter, split
>>> splitter = RecursiveCharacterTextSplitter(chunk_size=10, chunk_overlap=0)
>>> splitter.split_text("Hello world. Bye.")
['Hello', 'world.', 'Bye.']
"""

from .documents import Document
from .language import Language
from .splitter import Chunk, Splitter, split
from .textsplitter import CharacterTextSplitter, RecursiveCharacterTextSplitter, TextSplitter

__version__ = "0.1.0"

__all__ = [
    "CharacterTextSplitter",
    "Chunk",
    "Document",
    "Language",
    "RecursiveCharacterTextSplitter",
    "Splitter",
    "TextSplitter",
    "__version__",
    "split",
]
