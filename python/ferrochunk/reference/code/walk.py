"""The syntax tree as a flat run of pieces (mirrors ``rust/code/walk.rs``). Positions are
UTF-8 byte offsets, as tree-sitter's; whitespace is Python's ``str.isspace``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .languages import Grammar
from .pack import Measure, Piece
from .scope import Scopes


def blank(s: str) -> bool:
    return not s or s.isspace()


@dataclass
class Walk:
    data: bytes
    grammar: Grammar
    measure: Measure
    scopes: Scopes = field(default_factory=Scopes)
    pieces: list[Piece] = field(default_factory=list)
    fresh: bool = False  # the next piece starts a chunk
    head: bool = False  # the next piece is the head of a definition just opened

    def text(self, a: int, b: int) -> str:
        return self.data[a:b].decode("utf-8")

    def run(self, root: Any) -> None:
        stack: list[tuple[Any, ...]] = []
        if root.end_byte < len(self.data):
            stack.append(("lines", root.end_byte, len(self.data), 0, True))
        stack.append(("node", root, self.piece_start(0, root.start_byte), 0, False))
        while stack:
            work = stack.pop()
            if work[0] == "node":
                self.node(*work[1:], stack)  # type: ignore[call-arg]  # a tagged tuple
            elif work[0] == "group":
                self.group(*work[1:], stack)  # type: ignore[call-arg]
            else:
                self.lines(*work[1:])

    def node(
        self, node: Any, start: int, scope: int, head: bool, stack: list[tuple[Any, ...]]
    ) -> None:
        own = self.open(node, scope)
        end, code = node.end_byte, node.type not in self.grammar.comments
        lead = code_end(self.grammar, node)
        kind = "statement" if own == scope else "definition"
        if self.measure.fits(start, end):
            self.push(start, end, own, code, kind)
        elif lead < end and self.measure.fits(start, lead):
            self.push(start, lead, own, code, kind)
            self.lines(lead, end, own, False)
        elif node.is_error or node.child_count == 0:
            self.lines(start, end, own, code)
        else:
            self.fresh |= head and (own != scope or node.type in self.grammar.wrappers)
            self.head |= own != scope
            stack.extend(reversed(self.children(node, start, own)))

    def group(self, nodes: list[Any], start: int, scope: int, stack: list[tuple[Any, ...]]) -> None:
        last = nodes[-1]
        if self.measure.fits(start, last.end_byte):
            own = self.open(last, scope)
            code = any(n.type not in self.grammar.comments for n in nodes)
            kind = "statement" if own == scope else "definition"
            self.push(start, last.end_byte, own, code, kind)
            return
        self.fresh = True
        work, prev = [], start
        for i, node in enumerate(nodes):
            at = start if i == 0 else self.piece_start(prev, node.start_byte)
            work.append(("node", node, at, scope, False))
            prev = node.end_byte
        stack.extend(reversed(work))

    def children(self, node: Any, start: int, scope: int) -> list[tuple[Any, ...]]:
        kids = node.children
        work: list[tuple[Any, ...]] = []
        prev, i = start, 0
        while i < len(kids):
            at = start if i == 0 else self.piece_start(prev, kids[i].start_byte)
            j = i
            while j + 1 < len(kids) and self.attached(kids[j], kids[j + 1]):
                j += 1
            if j > i:
                work.append(("group", kids[i : j + 1], at, scope))
            else:
                work.append(("node", kids[i], at, scope, True))
            prev = kids[j].end_byte
            i = j + 1
        if prev < node.end_byte:
            work.append(("lines", prev, node.end_byte, scope, True))
        return work

    def attached(self, comment: Any, nxt: Any) -> bool:
        if comment.type not in self.grammar.comments:
            return False
        at = comment.start_byte
        between = self.text(comment.end_byte, nxt.start_byte)
        return (
            blank(self.text(self.line_start(at), at))
            and blank(between)
            and between.count("\n") <= 1
        )

    def piece_start(self, prev: int, at: int) -> int:
        if blank(self.text(prev, at)):
            return max(self.line_start(at), prev)
        return prev

    def line_start(self, at: int) -> int:
        return self.data.rfind(b"\n", 0, at) + 1

    def open(self, node: Any, scope: int) -> int:
        g = self.grammar
        keyword = g.definitions.get(node.type)
        if keyword is None:
            return scope
        if node.parent is not None and node.parent.type in g.wrappers:
            return scope
        inner = wrapped(g, node) if node.type in g.wrappers else node
        if inner is None:  # `export { a }`: wraps no definition
            return scope
        if node.type in g.wrappers:
            keyword = g.definitions.get(inner.type, keyword)
        name = name_of(inner)
        label = " ".join(s for s in (keyword, "" if name is None else self.text(*name)) if s)
        body = inner.child_by_field_name("body")
        if body is not None:
            sig_end = body.start_byte
        else:
            nl = self.data.find(b"\n", inner.start_byte)
            sig_end = inner.end_byte if nl < 0 else nl
        signature = self.text(inner.start_byte, max(sig_end, inner.start_byte)).rstrip()
        return self.scopes.open(scope, label, signature, inner.start_byte)

    def lines(self, start: int, end: int, scope: int, code: bool) -> None:
        a = start
        while a < end:
            nl = self.data.find(b"\n", a, end)
            b = end if nl < 0 else nl
            stop = b - 1 if b > a and self.data[b - 1 : b] == b"\r" else b
            if not blank(self.text(a, stop)):
                if self.measure.fits(a, stop):
                    self.push(a, stop, scope, code, "line")
                else:
                    self.chars(a, stop, scope, code)
            a = b + 1

    def chars(self, a: int, b: int, scope: int, code: bool) -> None:
        while a < b:
            cut = self.measure.longest(a, b)
            self.push(a, cut, scope, code, "character")
            a = cut

    def push(self, start: int, end: int, scope: int, code: bool, kind: str) -> None:
        piece = self.text(start, end)
        end = start + len(piece.rstrip().encode("utf-8"))
        first = end - len(self.text(start, end).lstrip().encode("utf-8"))
        start = max(self.line_start(first), start)
        if end > start:
            kind = "head" if self.head else kind
            self.pieces.append(Piece(start, end, scope, code, self.fresh, kind))
            self.fresh = self.head = False


def code_end(g: Grammar, node: Any) -> int:
    """Where ``node`` ends without the comments that close it (at any depth)."""
    if node.child_count == 0:
        return int(node.end_byte)
    at = node
    while True:
        last = next((c for c in reversed(at.children) if c.type not in g.comments), None)
        if last is None:
            return int(max(at.start_byte, node.start_byte))
        if last.end_byte < at.end_byte or last.child_count == 0:
            return int(last.end_byte)
        at = last


def wrapped(g: Grammar, node: Any) -> Any:
    inner = node.child_by_field_name("definition")
    if inner is not None:
        return inner
    kinds = [k for k in node.named_children if k.type in g.definitions]
    return kinds[-1] if kinds else None


def name_of(node: Any) -> tuple[int, int] | None:
    name = node.child_by_field_name("name")
    if name is not None:
        return name.start_byte, name.end_byte
    at = node.child_by_field_name("declarator")
    if at is not None:
        while (inner := at.child_by_field_name("declarator")) is not None:
            at = inner
        return at.start_byte, at.end_byte
    kind = node.child_by_field_name("type")
    if kind is not None:
        return kind.start_byte, kind.end_byte
    first = node.named_children[0] if node.named_child_count else None
    name = None if first is None else first.child_by_field_name("name")
    return None if name is None else (name.start_byte, name.end_byte)
