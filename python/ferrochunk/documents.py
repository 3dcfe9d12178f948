"""``Document`` and ``BaseDocumentTransformer``: LangChain's when installed, else small
compatible stand-ins, so the splitters work inside LangChain pipelines and without them."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Optional

try:
    from langchain_core.documents import BaseDocumentTransformer, Document
except ImportError:  # langchain-core is optional

    class Document:  # type: ignore[no-redef]
        """A piece of text and its metadata (the fields of LangChain's ``Document``)."""

        def __init__(
            self, page_content: str, metadata: Optional[dict] = None, id: Optional[str] = None
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


__all__ = ["BaseDocumentTransformer", "Document"]
