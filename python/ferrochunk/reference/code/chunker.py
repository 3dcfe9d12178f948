"""The reference engine of ``CodeChunker`` (mirrors ``rust/code/chunker.rs``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Optional

from ..chunk import Chunk
from .languages import grammar
from .pack import Measure, pack
from .walk import Walk


class ReferenceCodeEngine:
    """``split(text, metadata, embedding_text)``: py-tree-sitter's tree, walked and packed."""

    def __init__(
        self, language: str, size: int, length: Optional[Callable[[str], int]], chunk: Any = Chunk
    ) -> None:
        found = grammar(language)
        if found is None:
            raise ValueError(f"unknown language {language!r}")
        self.grammar, self.size, self.length, self.chunk = found, size, length, chunk
        self._parser: Any = None

    def parser(self) -> Any:
        if self._parser is None:
            from tree_sitter import Parser

            self._parser = Parser(self.grammar.language())
        return self._parser

    def packed(self, data: bytes) -> tuple[Walk, list[tuple[int, int, int, str]]]:
        """The walk of ``data``'s tree and its chunks (``pack``)."""
        tree = self.parser().parse(data)
        measure = Measure(data, self.length, self.size)
        walk = Walk(data, self.grammar, measure)
        walk.run(tree.root_node)
        return walk, pack(walk.pieces, walk.scopes, measure)

    def cuts(self, text: str) -> list[str]:
        """Why each chunk of ``split`` ends where it does (``pack.cut_reason``)."""
        return [cut for *_, cut in self.packed(text.encode("utf-8"))[1]]

    def split(self, text: str, metadata: Mapping[str, Any], embedding_text: bool) -> list[Any]:
        data = text.encode("utf-8")
        walk, packed = self.packed(data)
        scopes = walk.scopes.entries
        chunks = []
        chars, at = 0, 0  # code points before byte `at`
        for i, (a, b, scope, _) in enumerate(packed):
            chars += len(data[at:a].decode("utf-8"))
            own = data[a:b].decode("utf-8")
            start, end = chars, chars + len(own)
            chars, at = end, b
            chain = walk.scopes.chain(scope)
            meta = dict(metadata)
            meta["language"] = self.grammar.names[0]
            meta["scope_path"] = tuple(scopes[s].label for s in chain)
            if embedding_text:
                shown = [scopes[s].signature for s in chain if scopes[s].start < a]
                meta["embedding_text"] = "\n".join([*shown, own]) if shown else own
            chunks.append(self.chunk(own, start, end, a, b, i, meta))
        return chunks
