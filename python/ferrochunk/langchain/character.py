"""``langchain_text_splitters.character``: the character and recursive splitters (Rust)."""

from ..split.textsplitter import CharacterTextSplitter, RecursiveCharacterTextSplitter

__all__ = ["CharacterTextSplitter", "RecursiveCharacterTextSplitter"]
