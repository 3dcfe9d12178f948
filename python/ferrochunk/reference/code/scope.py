"""Scopes: the tree of definitions pieces lie in (mirrors ``rust/code/scope.rs``)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Scope:
    parent: int
    depth: int
    label: str
    signature: str
    start: int  # bytes


@dataclass
class Scopes:
    entries: list[Scope] = field(default_factory=lambda: [Scope(0, 0, "", "", 0)])

    def open(self, parent: int, label: str, signature: str, start: int) -> int:
        depth = self.entries[parent].depth + 1
        self.entries.append(Scope(parent, depth, label, signature, start))
        return len(self.entries) - 1

    def common(self, a: int, b: int) -> int:
        e = self.entries
        while e[a].depth > e[b].depth:
            a = e[a].parent
        while e[b].depth > e[a].depth:
            b = e[b].parent
        while a != b:
            a, b = e[a].parent, e[b].parent
        return a

    def chain(self, scope: int) -> list[int]:
        out = []
        while scope != 0:
            out.append(scope)
            scope = self.entries[scope].parent
        return out[::-1]
