"""``Document`` and ``BaseDocumentTransformer``: LangChain's when installed, else small
compatible stand-ins, so the splitters work inside LangChain pipelines and without them."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable, Optional, cast

if TYPE_CHECKING:
    from ._native import DocumentMaker


try:
    from langchain_core.documents import BaseDocumentTransformer, Document
except ImportError:  # langchain-core is optional

    class Document:  # type: ignore[no-redef]
        """A piece of text and its metadata (the fields of LangChain's ``Document``)."""

        def __init__(
            self,
            page_content: str,
            metadata: Optional[dict[str, Any]] = None,
            id: Optional[str] = None,
        ) -> None:
            self.page_content = page_content
            self.metadata = {} if metadata is None else metadata
            self.id = id

        def __eq__(self, other: object) -> bool:
            return (
                isinstance(other, Document)
                and self.page_content == other.page_content
                and self.metadata == other.metadata
                and self.id == other.id
            )

        def __repr__(self) -> str:
            return f"Document(page_content={self.page_content!r}, metadata={self.metadata!r})"

    class BaseDocumentTransformer(ABC):  # type: ignore[no-redef]
        """Transforms a sequence of documents (LangChain's interface)."""

        @abstractmethod
        def transform_documents(
            self, documents: Sequence[Document], **kwargs: Any
        ) -> Sequence[Document]:
            """Transform documents."""

        async def atransform_documents(
            self, documents: Sequence[Document], **kwargs: Any
        ) -> Sequence[Document]:
            """Transform documents in a worker thread."""
            return await asyncio.to_thread(self.transform_documents, documents, **kwargs)


def _document_maker() -> Callable[[str, dict[str, Any]], Document]:
    """``Document(page_content=text, metadata=metadata)`` for a ``str`` and a fresh ``dict``
    we built, in a fraction of the time of LangChain's pydantic ``Document``: the object is
    laid out as its constructor lays it out (``__dict__`` in field order, fields set, no
    extras), in Rust (``_native.DocumentMaker``) or else in Python, and the maker is checked
    at import to make objects indistinguishable from constructed ones; anything else (our
    stand-in, another pydantic or ``Document``) uses the constructor."""

    def construct(text: str, metadata: dict[str, Any]) -> Document:
        return Document(page_content=text, metadata=metadata)

    probe = Document(page_content="p", metadata={"k": "v"})
    state = getattr(probe, "__dict__", None)
    if not isinstance(state, dict) or list(state) != ["id", "metadata", "page_content", "type"]:
        return construct
    new, setattr_ = object.__new__, object.__setattr__
    kind = state["type"]

    def fast(text: str, metadata: dict[str, Any]) -> Document:
        doc = new(Document)
        fields = {"id": None, "metadata": metadata, "page_content": text, "type": kind}
        setattr_(doc, "__dict__", fields)
        setattr_(doc, "__pydantic_fields_set__", {"page_content", "metadata"})
        setattr_(doc, "__pydantic_extra__", None)
        setattr_(doc, "__pydantic_private__", None)
        return doc

    def same(make: Callable[[str, dict[str, Any]], Document]) -> bool:
        try:
            made = make("p", {"k": "v"})
            return (
                made == probe
                and made.__getstate__() == probe.__getstate__()
                and repr(made) == repr(probe)
            )
        except Exception:
            return False

    try:
        from ._native import DocumentMaker

        native: Optional[Callable[[str, dict[str, Any]], Document]] = DocumentMaker(Document, kind)
    except (ImportError, TypeError):
        native = None
    for make in (native, fast):
        if make is not None and same(make):
            return make
    return construct


make_document = _document_maker()


def make_documents(
    texts: list[str], metadata: dict[str, Any], starts: Optional[list[int]] = None
) -> list[Document]:
    """``make_document(text, metadata.copy())`` for each of ``texts``, each copy holding
    ``start_index`` from ``starts`` when given: ``create_documents``' loop for one text whose
    metadata is a plain ``dict`` of strings, numbers, ``bytes`` and ``None`` (the caller
    checks; a shallow copy is then a deep one). The native maker makes them all in one call,
    with the cyclic collector paused."""
    many = getattr(make_document, "many", None)
    if many is not None:
        made: list[Document] = many(texts, metadata, starts)
        return made
    documents = []
    for k, text in enumerate(texts):
        copy = metadata.copy()
        if starts is not None:
            copy["start_index"] = starts[k]
        documents.append(make_document(text, copy))
    return documents


def all_plain(metadatas: Any, count: int) -> bool:
    """Whether :func:`make_all_documents` can make the documents of ``count`` texts: the
    native maker is in use and ``metadatas`` is a list whose first ``count`` are plain
    ``dict``s (strings, numbers, ``bytes`` and ``None``, for which a deep copy is a copy)."""
    plain = getattr(make_document, "plain", None)
    return plain is not None and type(metadatas) is list and plain(metadatas, count)


def make_all_documents(
    chunk_lists: list[list[str]], metadatas: list[dict[str, Any]], starts: Optional[list[list[int]]]
) -> list[Document]:
    """:func:`make_documents` of each text's chunks with its metadata (and ``start_index``
    from ``starts``), all in one native call with the cyclic collector paused (after
    :func:`all_plain` said yes, so ``make_document`` is the native maker)."""
    maker = cast("DocumentMaker", make_document)
    made: list[Document] = maker.batch(chunk_lists, metadatas, starts)
    return made


__all__ = [
    "BaseDocumentTransformer",
    "Document",
    "all_plain",
    "make_all_documents",
    "make_document",
    "make_documents",
]
