"""Markdown-aware chunking (mirrors ``rust/markdown/chunker.rs``): the reference engine of
``MarkdownChunker`` and ``TextChunker``, which :func:`ferrochunk.engines.markdown_engine`
builds.

Blocks from :mod:`.blocks` become units: a run of headings is glued to the block
after it (no chunk ends with a dangling heading); a unit larger than ``chunk_size`` is cut
(code, tables, lists, quotes and HTML at line boundaries, each table piece sized to repeat
the header row and delimiter row; paragraphs at sentences, then lines, clauses, words,
characters). Units are packed greedily up to ``chunk_size``, an oversize paragraph's first
sentences filling the room the chunk before it left while that chunk is under nine tenths
full; a heading closes the chunk before it once that chunk has ``min_size``. Finally
chunks under ``min_size`` merge into a neighbour when the result still fits. Every chunk is
a span of the source.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional

from ..sentences import sentence_ends
from ..split.recursive import Engine
from ..split.scan import Separator
from .blocks import CODE, HEADING, HTML, LIST, PARAGRAPH, QUOTE, TABLE, Block
from .build import ReferenceMarkdownEngine
from .chunk import RawChunk
from .lines import LABEL
from .prose import END, Prose

# The seams of ``Prose`` as cut reasons (code: blank lines, then statements).
_PROSE_WHYS = {0: "sentence", 1: "clause", 2: "line", 3: "word", 4: "character"}
_PROSE_WHYS.update({5: "paragraph", 6: "statement"})

LengthFunction = Optional[Callable[[str], int]]
Path = tuple[str, ...]
_LINE_KINDS = (CODE, TABLE, HTML, LIST, QUOTE)


class Unit(NamedTuple):
    """A span to pack, with what it starts with."""

    start: int
    end: int
    path: tuple[str, ...]
    heading: bool = False  # starts with a heading
    heading_only: bool = False
    continuation: bool = False  # a later piece of a block that was cut
    header: Optional[tuple[int, int]] = None  # table header + delimiter rows, repeated
    prose: bool = False  # a whole paragraph, cut when packed (see ``fill``)
    why: str = "block"  # what a chunk ending with this unit ends at (``RawChunk.why``)


class MarkdownEngine:
    """Chunks one Markdown text; ``separators`` are regexes used to cut long paragraphs."""

    def __init__(
        self,
        chunk_size: int,
        min_size: int,
        separators: list[str],
        length: LengthFunction,
        fmt: str = "markdown",
        sentence_cuts: bool = False,
    ):
        self.format = fmt
        self.sentence_cuts = sentence_cuts
        self.max = chunk_size
        self.min = min_size
        self.separators = [Separator(s, is_regex=True) for s in separators]
        self.length = length

    def size(self, text: str, a: int, b: int) -> int:
        return b - a if self.length is None else self.length(text[a:b])

    def blocks(self, text: str) -> list[Block]:
        from ..structure import scan  # the scanners import this package's line helpers

        return scan(self.format, text)

    def chunk(self, text: str, blocks: Optional[list[Block]] = None) -> list[RawChunk]:
        units = self.units(text, self.blocks(text) if blocks is None else blocks)
        chunks = self.merge_small(text, self.pack(text, units))
        if chunks:
            chunks[-1] = chunks[-1]._replace(why="end")
        return chunks

    # -- units -----------------------------------------------------------------------------

    def units(self, text: str, blocks: list[Block]) -> list[Unit]:
        out: list[Unit] = []
        stack: list[tuple[int, str]] = []
        heads: list[tuple[Block, Path]] = []  # pending headings and labels, the path at each
        i = 0
        while i < len(blocks):
            block = blocks[i]
            i += 1
            if block.kind == LABEL:
                heads.append((block, tuple(t for _, t in stack)))
                continue
            if block.parts > 0:
                # A container: whole when it fits, else its parts take its place.
                unit = self.whole(text, heads, block, tuple(t for _, t in stack))
                if unit is not None:
                    out.append(unit)
                    heads = []
                    i += block.parts
                continue
            if block.kind == HEADING:
                while stack and stack[-1][0] >= block.level:
                    stack.pop()
                stack.append((block.level, block.title))
                path = tuple(t for _, t in stack)
                # Labels just before a heading belong to the section it opens.
                k = len(heads)
                while k > 0 and heads[k - 1][0].kind == LABEL:
                    k -= 1
                heads[k:] = [(b, path) for b, _ in heads[k:]]
                heads.append((block, path))
                continue
            out.extend(self.atom(text, heads, block, tuple(t for _, t in stack)))
            heads = []
        tail = self.headings_alone(text, heads)
        if all(b.kind == LABEL for b, _ in heads):  # labels ending the text are content
            tail = [u._replace(heading_only=False) for u in tail]
        return out + tail

    def headings_alone(self, text: str, heads: list[tuple[Block, Path]]) -> list[Unit]:
        out: list[Unit] = []
        for block, path in heads:
            units = self.cut_prose(text, block.start, block.end, self.max, path)
            out.extend(
                u._replace(heading=k == 0 and block.kind == HEADING, heading_only=True)
                for k, u in enumerate(units)
            )
        return out

    def atom(
        self, text: str, heads: list[tuple[Block, Path]], block: Block, path: Path
    ) -> list[Unit]:
        if not heads and self.sentence_cuts and block.kind == PARAGRAPH:
            return [Unit(block.start, block.end, path, prose=True)]  # cut when packed
        unit = self.whole(text, heads, block, path)
        if unit is not None:
            return [unit]
        start = heads[0][0].start if heads else block.start
        if not heads:
            return self.cut(text, block, self.max, self.max, path)
        budget = self.max - self.size(text, start, block.start)
        if budget < self.max // 2 and len(heads) > 1:
            # Too many heads for one chunk: those before the last heading go alone, and the
            # last heading (with the labels after it) still opens its text.
            last = max((k for k, (b, _) in enumerate(heads) if b.kind == HEADING), default=0)
            k = last if last > 0 else len(heads) - 1
            return self.headings_alone(text, heads[:k]) + self.atom(text, heads[k:], block, path)
        atomic = block.kind in (CODE, TABLE) and self.size(text, block.start, block.end) <= self.max
        if budget < self.max // 2 or atomic:
            return self.headings_alone(text, heads) + self.cut(
                text, block, self.max, self.max, path
            )
        pieces = self.cut(text, block, budget, self.max, path)
        if block.kind in (CODE, TABLE) and self.cuts_a_line(text, pieces[0].end, block.end):
            # The room beside the heads would cut a code line or row that fits a chunk.
            return self.headings_alone(text, heads) + self.cut(
                text, block, self.max, self.max, path
            )
        heading = any(b.kind == HEADING for b, _ in heads)
        first = pieces[0]._replace(start=start, heading=heading, path=heads[0][1])
        if self.size(text, start, first.end) > self.max:
            return self.headings_alone(text, heads) + pieces
        return [first, *pieces[1:]]

    def cuts_a_line(self, text: str, at: int, b: int) -> bool:
        """Whether a piece ending at ``at`` ends inside a line of ``text[:b]`` that fits."""
        ls = text.rfind("\n", 0, at) + 1
        nl = text.find("\n", at, b)
        le = ls + len(text[ls : b if nl < 0 else nl].rstrip())
        return ls < at < le and self.size(text, ls, le) <= self.max

    def whole(
        self, text: str, heads: list[tuple[Block, Path]], block: Block, path: Path
    ) -> Optional[Unit]:
        """The pending heads and ``block`` as one unit, if that fits a chunk."""
        start = heads[0][0].start if heads else block.start
        if self.size(text, start, block.end) > self.max:
            return None
        heading = any(b.kind == HEADING for b, _ in heads)
        why = "atomic" if block.kind in (CODE, TABLE) else "block"
        return Unit(start, block.end, heads[0][1] if heads else path, heading=heading, why=why)

    def cut(self, text: str, block: Block, first: int, rest: int, path: Path) -> list[Unit]:
        """Pieces of a block too large for one chunk, the last ending with the block."""
        units = self._cut(text, block, first, rest, path)
        if units:
            units[-1] = units[-1]._replace(why="block")
        return units

    def _cut(self, text: str, block: Block, first: int, rest: int, path: Path) -> list[Unit]:
        prose_like = block.kind in (LIST, QUOTE) and self.sentence_cuts
        if block.kind not in _LINE_KINDS or prose_like:
            return self.cut_prose_first(text, block.start, block.end, first, rest, path)
        header = None
        if block.kind == TABLE:
            head = block.head
            if head == 0:  # Markdown: the header row and the delimiter row
                delim = _line_start(text, block.start)
                head = delim + len(text[delim : _line_start(text, delim)].rstrip())
            rows = _line_start(text, head)
            hdr = self.size(text, block.start, rows)
            if rows < block.end and rest - hdr >= rest // 2:
                rest -= hdr
                header = (block.start, head)
        if block.kind == CODE and self.sentence_cuts:
            units = self.sentence_cut(text, block.start, block.end, first, rest, path, code=True)
        else:
            units = self.cut_lines(text, block.start, block.end, first, rest, path)
        return [u._replace(header=header) if u.continuation else u for u in units]

    def cut_lines(self, text: str, a: int, b: int, first: int, rest: int, path: Path) -> list[Unit]:
        """Greedy groups of whole lines; a line is cut as prose only when it alone exceeds
        the chunk size (one that fits it but not the budget is a piece alone)."""
        pieces: list[tuple[int, int, str]] = []
        cur: Optional[list[int]] = None
        budget = first
        pos = a
        while pos < b:
            nl = text.find("\n", pos, b)
            line_end = b if nl < 0 else nl
            ls, le = pos, pos + len(text[pos:line_end].rstrip())
            pos = line_end + 1
            if le == ls:
                continue  # blank lines are never a piece's first or last line
            if cur is not None and self.size(text, cur[0], le) <= budget:
                cur[1] = le
                continue
            if cur is not None:
                pieces.append((cur[0], cur[1], "line"))
                budget = rest
            if self.size(text, ls, le) <= max(budget, self.max):
                cur = [ls, le]
            else:
                cur = None
                cuts = self.cut_prose(text, ls, le, budget, path, tail="line")
                pieces.extend((u.start, u.end, u.why) for u in cuts)
                budget = rest
        if cur is not None:
            pieces.append((cur[0], cur[1], "line"))
        return [Unit(s, e, path, continuation=k > 0, why=w) for k, (s, e, w) in enumerate(pieces)]

    def cut_prose_first(
        self, text: str, a: int, b: int, first: int, rest: int, path: Path
    ) -> list[Unit]:
        """``cut_prose`` with budget ``first`` for the first piece only; the rest is cut
        again at ``rest``."""
        if self.sentence_cuts:
            return self.sentence_cut(text, a, b, first, rest, path)
        units = self.cut_prose(text, a, b, first, path)
        if first == rest or len(units) < 2:
            return units
        more = self.cut_prose(text, units[1].start, b, rest, path)
        return [units[0], *(u._replace(continuation=True) for u in more)]

    def sentence_cut(
        self,
        text: str,
        a: int,
        b: int,
        first: int,
        rest: int,
        path: Path,
        code: bool = False,
        tail: str = "block",
    ) -> list[Unit]:
        """Pieces of ``text[a:b]`` cut sentence-first (:class:`.prose.Prose`), each with the
        seam after it (``tail`` after the last)."""
        prose = Prose(text, lambda s, e: self.size(text, s, e), code)
        pieces, whys = prose.cut_why(a, b, first, rest)
        return [
            Unit(s, e, path, continuation=k > 0, why=tail if w == END else _PROSE_WHYS[w])
            for k, ((s, e), w) in enumerate(zip(pieces, whys))
        ]

    def cut_prose(
        self, text: str, a: int, b: int, budget: int, path: Path, tail: str = "block"
    ) -> list[Unit]:
        """Sentence-first recursive splitting of ``text[a:b]`` into spans of ``budget``."""
        if self.sentence_cuts:
            return self.sentence_cut(text, a, b, budget, budget, path, tail=tail)
        from ..split.cuts import cut_levels

        engine = Engine(max(budget, 1), 0, self.separators, "end", True, recursive=True)
        pieces, _ = engine.split(text[a:b], self.length or len)
        levels = cut_levels(engine, text[a:b], self.length or len)
        whys = [tail if i < 0 else f"separator:{i}" for i in levels]
        units = []
        for k, ((t, s), w) in enumerate(zip(pieces, whys)):
            assert s is not None  # separators kept: every piece is a slice of the text
            units.append(Unit(a + s, a + s + len(t), path, continuation=k > 0, why=w))
        return units

    # -- packing ---------------------------------------------------------------------------

    def pack(self, text: str, units: list[Unit]) -> list[RawChunk]:
        out: list[RawChunk] = []
        cur: Optional[RawChunk] = None
        for u in units:
            if u.prose:
                cur, pieces = self.fill(text, cur, u)
                for piece in pieces:
                    cur = self.pack_one(text, cur, piece, out)
            else:
                cur = self.pack_one(text, cur, u, out)
        if cur is not None:
            out.append(cur)
        return out

    def pack_one(
        self, text: str, cur: Optional[RawChunk], u: Unit, out: list[RawChunk]
    ) -> RawChunk:
        """``u`` added to the open chunk if it fits, else the chunk it opens."""
        # Table pieces that repeat a header are sized for it: they stay alone.
        if (
            cur is not None
            and (cur.heading_only or not u.heading_only)
            and u.header is None
            and cur.header is None
        ):
            closes = (
                u.heading
                and not cur.heading_only  # headings alone belong to what follows
                and self.size(text, cur.start, cur.end) >= self.min
            )
            if not closes and self.size(text, cur.start, u.end) <= self.max:
                only = cur.heading_only and u.heading_only
                return cur._replace(end=u.end, heading_only=only, why=u.why)
        if cur is not None:
            out.append(cur._replace(why="heading") if u.heading else cur)
        return RawChunk(u.start, u.end, u.path, u.continuation, u.header, u.heading_only, u.why)

    def fill(
        self, text: str, cur: Optional[RawChunk], u: Unit
    ) -> tuple[Optional[RawChunk], list[Unit]]:
        """The paragraph ``u`` as units to pack: whole if it fits a chunk; else, when the
        open chunk is under nine tenths full, its first sentences join that chunk, and the
        rest is cut at the full size (every piece then a continuation)."""
        if self.size(text, u.start, u.end) <= self.max:
            return cur, [u._replace(prose=False)]  # never cut: joins or opens a chunk
        start = u.start
        if cur is not None and cur.header is None:
            if self.size(text, cur.start, cur.end) * 10 < self.max * 9:
                found = self.leading_sentences(text, cur.start, u.start, u.end)
                if found is not None:
                    cur = cur._replace(end=found[0], heading_only=False, why="sentence")
                    start = found[1]
        pieces = self.sentence_cut(text, start, u.end, self.max, self.max, u.path)
        if start > u.start:
            pieces = [p._replace(continuation=True) for p in pieces]
        return cur, pieces

    def leading_sentences(self, text: str, frm: int, a: int, b: int) -> Optional[tuple[int, int]]:
        """The longest run of whole sentences opening ``text[a:b]`` that fits beside the
        chunk starting at ``frm``: where that chunk would end, and where the rest starts."""
        best = None
        for end in sentence_ends(text[a:b]):
            end += a
            if end == b:
                break  # the whole paragraph did not fit
            kept = a + len(text[a:end].rstrip())
            if kept == a or self.size(text, frm, kept) > self.max:
                break
            best = (kept, end)
        return best

    def merge_small(self, text: str, chunks: list[RawChunk]) -> list[RawChunk]:
        out: list[RawChunk] = []
        for c in chunks:
            p = out[-1] if out else None
            if (
                p is not None
                and (p.heading_only or not c.heading_only)
                and c.header is None
                and p.header is None
            ):
                small = min(self.size(text, p.start, p.end), self.size(text, c.start, c.end))
                if small < self.min and self.size(text, p.start, c.end) <= self.max:
                    only = p.heading_only and c.heading_only
                    out[-1] = p._replace(end=c.end, heading_only=only, why=c.why)
                    continue
            out.append(c)
        return out


def _line_start(text: str, pos: int) -> int:
    """The start of the line after the one at ``pos`` (or the end of the text)."""
    nl = text.find("\n", pos)
    return len(text) if nl < 0 else nl + 1


def make_engine(chunker: Any) -> ReferenceMarkdownEngine:
    """The reference engine for a chunker's settings (also the Rust stack's fallback)."""
    engine = MarkdownEngine(
        chunker.chunk_size,
        chunker.min_size,
        chunker.separators,
        chunker.length_function,
        chunker.format,
        chunker.sentence_cuts,
    )
    return ReferenceMarkdownEngine(engine, chunker.settings, chunker.chunk_overlap)
