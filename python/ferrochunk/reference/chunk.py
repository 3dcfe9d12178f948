"""The reference ``Chunk`` record (mirrors ``rust/python/chunk.rs``, the native ``Chunk``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Optional


@dataclass(frozen=True)
class Chunk:
    """A chunk of the native API: ``text == source[start:end]``, with UTF-8 byte offsets."""

    text: str
    start: int
    end: int
    byte_start: int
    byte_end: int
    index: int
    metadata: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: Tokens in the chunk, when a tokenizer sized it (a length with ``counts_tokens``).
    token_count: Optional[int] = None

    def __post_init__(self) -> None:
        if not isinstance(self.metadata, MappingProxyType):  # read-only, and not the caller's
            object.__setattr__(self, "metadata", MappingProxyType(dict(self.metadata)))

    def __len__(self) -> int:
        return self.end - self.start

    def __reduce__(self) -> tuple[Any, ...]:
        # A mappingproxy does not pickle; its contents do, and __post_init__ re-wraps them.
        args = (self.text, self.start, self.end, self.byte_start, self.byte_end, self.index)
        return (type(self), (*args, dict(self.metadata), self.token_count))


__all__ = ["Chunk"]
