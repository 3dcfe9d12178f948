"""Peers to compare with in ``ferrochunk view --compare "langchain OPTIONS"``: their chunks
located in the text, so the page shows them as it shows ours (their cut reasons are
``unknown``: they report none)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, NamedTuple

from ..cli import UsageError

PEERS = ("langchain",)


class PeerChunk(NamedTuple):
    """A peer's chunk as the view reads one: where it lies, and what the peer attached."""

    text: str
    start: int
    end: int
    metadata: Any


class LangChain:
    """LangChain's ``RecursiveCharacterTextSplitter`` with ``add_start_index`` (its own
    location of each chunk)."""

    def __init__(self, size: int, overlap: int) -> None:
        try:
            from langchain_text_splitters import RecursiveCharacterTextSplitter
        except ImportError:
            raise UsageError(
                'comparing with langchain needs it: pip install "langchain-text-splitters"'
            ) from None
        self._splitter = RecursiveCharacterTextSplitter(
            chunk_size=size, chunk_overlap=overlap, add_start_index=True
        )
        self.label = f"LangChain RecursiveCharacterTextSplitter size={size} overlap={overlap}"

    def split(self, text: str) -> list[PeerChunk]:
        out = []
        for doc in self._splitter.create_documents([text]):
            start = doc.metadata["start_index"]
            end = start + len(doc.page_content)
            out.append(PeerChunk(doc.page_content, start, end, MappingProxyType(doc.metadata)))
        return out


def peer(name: str, size: int, overlap: int) -> Any:
    """The peer chunker ``name`` at ``size`` and ``overlap`` (characters)."""
    if name == "langchain":
        return LangChain(size, overlap)
    raise UsageError(f"unknown peer {name!r} (peers: {', '.join(PEERS)})")


__all__ = ["PEERS", "LangChain", "PeerChunk", "peer"]
