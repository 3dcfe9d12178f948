"""The public API of ``langchain_text_splitters`` 1.1, on ferrochunk's engines.

Every name of LangChain's ``__all__`` with the same signatures, defaults, output, warnings
and exceptions, so a program switches by its import alone::

    import ferrochunk.langchain as langchain_text_splitters

The submodules mirror LangChain's (``ferrochunk.langchain.html`` for
``langchain_text_splitters.html``, ...). Text splitting runs on the Rust engine (the
character, recursive, token, code and Markdown header splitters, and the recursive pass of
the HTML splitters); the classes that wrap a parser or model (BeautifulSoup, lxml, NLTK,
spaCy, KoNLPy, sentence-transformers) call the same library the same way and raise
LangChain's ``ImportError`` when it is missing. ``Tokenizer`` here is LangChain's dataclass
for :func:`split_text_on_tokens`, not :class:`ferrochunk.Tokenizer`. With
``langchain_text_splitters`` installed, the splitters are also instances of its
``TextSplitter`` (see :mod:`.register`).

>>> import ferrochunk.langchain as langchain_text_splitters
>>> lts = langchain_text_splitters
>>> lts.RecursiveCharacterTextSplitter(chunk_size=10, chunk_overlap=0).split_text("Hi you. Bye.")
['Hi you.', 'Bye.']
"""

from .base import Language, TextSplitter, Tokenizer, TokenTextSplitter, split_text_on_tokens
from .character import CharacterTextSplitter, RecursiveCharacterTextSplitter
from .html import (
    ElementType,
    HTMLHeaderTextSplitter,
    HTMLSectionSplitter,
    HTMLSemanticPreservingSplitter,
)
from .json import RecursiveJsonSplitter
from .jsx import JSFrameworkTextSplitter
from .konlpy import KonlpyTextSplitter
from .latex import LatexTextSplitter
from .markdown import (
    ExperimentalMarkdownSyntaxTextSplitter,
    HeaderType,
    LineType,
    MarkdownHeaderTextSplitter,
    MarkdownTextSplitter,
)
from .nltk import NLTKTextSplitter
from .python import PythonCodeTextSplitter
from .register import register_with_langchain
from .sentence_transformers import SentenceTransformersTokenTextSplitter
from .spacy import SpacyTextSplitter

__all__ = [
    "CharacterTextSplitter",
    "ElementType",
    "ExperimentalMarkdownSyntaxTextSplitter",
    "HTMLHeaderTextSplitter",
    "HTMLSectionSplitter",
    "HTMLSemanticPreservingSplitter",
    "HeaderType",
    "JSFrameworkTextSplitter",
    "KonlpyTextSplitter",
    "Language",
    "LatexTextSplitter",
    "LineType",
    "MarkdownHeaderTextSplitter",
    "MarkdownTextSplitter",
    "NLTKTextSplitter",
    "PythonCodeTextSplitter",
    "RecursiveCharacterTextSplitter",
    "RecursiveJsonSplitter",
    "SentenceTransformersTokenTextSplitter",
    "SpacyTextSplitter",
    "TextSplitter",
    "TokenTextSplitter",
    "Tokenizer",
    "split_text_on_tokens",
]

register_with_langchain(globals())
