"""What the format chunkers share: arguments, the Markdown chunker they hand the rendition
to, batches and pickling. A subclass says how to ``render`` its format."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Callable, Optional, Union

from ..frontend.cuts import Cut
from ..markdown import MarkdownChunker
from ..split import Chunk
from .rendition import Rendition


class RenderingChunker:
    """Chunks a document by its Markdown rendition (``render``) with a
    :class:`~ferrochunk.MarkdownChunker` of the same arguments."""

    format = ""  # the document format, named by the subclass
    _extra_keys: tuple[str, ...] = ()  # metadata keys the subclass adds to every chunk

    def __init__(
        self,
        chunk_size: int = 1000,
        *,
        min_size: Optional[int] = None,
        separators: Union[str, list[str]] = "default",
        embedding_text: bool = False,
        length_function: Optional[Callable[[str], int]] = None,
        chunk_overlap: int = 0,
    ) -> None:
        self.markdown = MarkdownChunker(
            chunk_size,
            min_size=min_size,
            separators=separators,
            embedding_text=embedding_text,
            length_function=length_function,
            chunk_overlap=chunk_overlap,
        )
        m = self.markdown  # its arguments, validated
        self.chunk_size, self.min_size, self.chunk_overlap = m.chunk_size, m.min_size, chunk_overlap
        self.separators, self.embedding_text = m.separators, m.embedding_text
        self.length_function = length_function

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickles by arguments, as every ferrochunk chunker does.
        arguments = self.markdown._arguments()
        arguments.pop("parent_size")
        return (_rebuild, (type(self), arguments))

    def render(self, source: Any) -> Rendition:
        """The Markdown rendition of ``source``, which the chunks' offsets index into."""
        raise NotImplementedError

    def split(
        self,
        source: Any,
        metadata: Optional[Mapping[str, Any]] = None,
        document_id: Optional[str] = None,
    ) -> list[Chunk]:
        """The chunks of one document: exact spans of ``self.render(source).text``."""
        return self.split_rendition(self.render(source), metadata, document_id)

    def split_rendition(
        self,
        rendition: Rendition,
        metadata: Optional[Mapping[str, Any]] = None,
        document_id: Optional[str] = None,
    ) -> list[Chunk]:
        """The chunks of a rendition :meth:`render` made."""
        if not isinstance(rendition, Rendition):
            raise TypeError(f"rendition must be a Rendition, got {type(rendition).__name__}")
        self._check_metadata(metadata)
        chunks = self.markdown.split(rendition.text, metadata, document_id)
        return self._annotate(rendition, chunks)

    def cuts(self, source: Any) -> list[Cut]:
        """Why each chunk of ``split(source)`` ends where it does, one :class:`Cut` per
        chunk: the Markdown chunker's reasons on the rendition (``heading``, ``block``,
        ``atomic``, ``sentence``, ..., ``end``; see ``MarkdownChunker.cuts``)."""
        return self.markdown.cuts(self.render(source).text)

    def split_batch(
        self,
        sources: Iterable[Any],
        metadatas: Optional[Iterable[Optional[Mapping[str, Any]]]] = None,
        document_ids: Optional[Iterable[Optional[str]]] = None,
        *,
        threads: Optional[int] = None,
    ) -> list[list[Chunk]]:
        """``[self.split(source, metadata, document_id) for ...]``: the documents rendered
        in turn, their renditions chunked on ``threads`` threads with the GIL released."""
        if isinstance(sources, (str, bytes)):
            raise TypeError("sources must be an iterable of documents, not one document")
        renditions = [self.render(source) for source in sources]
        metadatas = None if metadatas is None else list(metadatas)
        for metadata in metadatas or ():
            self._check_metadata(metadata)
        texts = [r.text for r in renditions]
        batches = self.markdown.split_batch(texts, metadatas, document_ids, threads=threads)
        return [self._annotate(r, chunks) for r, chunks in zip(renditions, batches)]

    def _check_metadata(self, metadata: Optional[Mapping[str, Any]]) -> None:
        if isinstance(metadata, Mapping):
            clash = sorted(k for k in metadata if k in self._extra_keys)
            if clash:
                raise ValueError(f"metadata keys {clash} are set by the chunker; rename them")

    def _annotate(self, rendition: Rendition, chunks: list[Chunk]) -> list[Chunk]:
        """The chunks with the subclass's metadata added (none by default)."""
        return chunks


def _rebuild(cls: type[RenderingChunker], arguments: dict[str, Any]) -> RenderingChunker:
    kwargs = dict(arguments)
    return cls(kwargs.pop("chunk_size"), **kwargs)


def source_bytes(source: Any, name: str, *, text_ok: bool) -> Union[bytes, str]:
    """The document ``source`` names: ``bytes`` as given, a path's bytes, or (when
    ``text_ok``) a ``str`` of markup."""
    import os

    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, str) and text_ok:
        return source
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as file:
                return file.read()
        except OSError as error:
            raise ValueError(f"cannot read {name} file {os.fsdecode(source)!r}: {error}") from None
    kinds = "str, bytes or a path" if text_ok else "a path or bytes"
    raise TypeError(f"{name} source must be {kinds}, got {type(source).__name__}")
