"""Cutting text that does not fit one chunk (mirrors ``rust/markdown/prose.rs``, which says
why): sentence ends first, then clause ends, line ends, words, characters; runs of atoms
that fit grouped greedily, each piece as full as the budget allows; sizes exact, never over
budget.
"""

from __future__ import annotations

from typing import Callable

from ..sentences import sentence_ends
from .lines import indent

SENTENCE, CLAUSE, LINE, WORD, CHAR, BLANK, TOP = range(7)
NEXT = {SENTENCE: CLAUSE, CLAUSE: LINE, BLANK: TOP, TOP: LINE, LINE: WORD, WORD: CHAR}
_CLAUSE_MARKS = "\uff0c\u3001\uff1b\uff1a"  # CJK comma, enumeration comma, semicolon, colon
Pieces = list[tuple[int, int]]
Whys = list[int]  # per piece, the level whose seam follows it; END: the span's own end
Sink = tuple[Pieces, Whys]
END = -1


def continues(line: str) -> bool:
    """A doctest continuation (``...`` then a space or the line's end): no statement."""
    rest = line[indent(line)[1] :]
    return rest.startswith("...") and (len(rest) == 3 or rest[3].isspace())


class Prose:
    """``text`` and the exact size of any span of it (``size(a, b)``); ``code``: cut after
    blank lines, then lines, each piece from the start of its first line."""

    def __init__(self, text: str, size: Callable[[int, int], int], code: bool = False) -> None:
        self.text = text
        self.size = size
        self.code = code

    def cut(self, a: int, b: int, first: int, rest: int) -> Pieces:
        """Pieces of ``text[a:b]`` (trimmed, none empty), the first up to ``first``."""
        return self.cut_why(a, b, first, rest)[0]

    def cut_why(self, a: int, b: int, first: int, rest: int) -> tuple[Pieces, Whys]:
        """:meth:`cut`, and per piece the level of the seam after it (``END``: the span's
        end): the pieces of a range get the range's level, its last piece the range's tail."""
        out: Pieces = []
        whys: Whys = []
        a, b = self.trim(a, b)
        if a < b:
            top = BLANK if self.code else SENTENCE
            self.level(a, b, (max(first, 1), max(rest, 1)), top, (out, whys), END)
        return out, whys

    def trim(self, a: int, b: int) -> tuple[int, int]:
        piece = self.text[a:b]
        lead = len(piece) - len(piece.lstrip())
        if self.code:  # back to the start of that line: code keeps its indentation
            lead = piece.rfind("\n", 0, lead) + 1
        end = a + len(piece.rstrip())
        return a + lead, max(end, a + lead)

    def level(
        self, a: int, b: int, caps: tuple[int, int], level: int, sink: Sink, tail: int
    ) -> None:
        out, whys = sink
        before = len(out)
        self._level(a, b, caps, level, sink)
        if len(out) > before:
            whys[-1] = tail  # the range's last piece ends where the range does

    def _level(self, a: int, b: int, caps: tuple[int, int], level: int, sink: Sink) -> None:
        out, whys = sink
        cap = caps[1] if out else caps[0]
        if self.size(a, b) <= cap:
            out.append((a, b))
            whys.append(level)
            return
        if level == CHAR:
            self.chars(a, b, caps, sink)
            return
        atoms = self.atoms(a, b, level)
        if len(atoms) < 2:
            self._level(a, b, caps, NEXT[level], sink)
            return
        run: list[tuple[int, int, int]] = []
        for s, e in atoms:
            cap = caps[1] if out or run else caps[0]
            n = self.size(s, e)
            if n <= cap:
                run.append((s, e, n))
                continue
            self.group(run, caps, sink, level)
            run = []
            self.level(s, e, caps, NEXT[level], sink, level)
        self.group(run, caps, sink, level)

    def atoms(self, a: int, b: int, level: int) -> Pieces:
        text = self.text
        if level == SENTENCE:
            seams = [a + e for e in sentence_ends(text[a:b])]
        elif level == BLANK:  # after a blank line
            seams, line = [], a
            for i in range(a, b):
                if text[i] == "\n":
                    if line > a and all(c.isspace() for c in text[line:i]):
                        seams.append(i + 1)
                    line = i + 1
        elif level == CLAUSE:
            seams = [
                i + 1
                for i in range(a, b)
                if text[i] in _CLAUSE_MARKS
                or (text[i] in ",;:" and i + 1 < b and text[i + 1].isspace())
            ]
        elif level == TOP:  # before a line indented no deeper than the first (a statement)
            span = text[a:b]
            base = indent(text[text.rfind("\n", 0, a) + 1 : b])[0]  # from the line's start
            seams = []
            for i, c in enumerate(span):
                if c == "\n":
                    rest = span[i + 1 :].split("\n", 1)[0]
                    if rest.strip() and indent(rest)[0] <= base and not continues(rest):
                        seams.append(a + i + 1)
        elif level == LINE:
            seams = [i + 1 for i in range(a, b) if text[i] == "\n"]
        else:  # WORD
            seams = [i for i in range(a + 1, b) if text[i - 1].isspace() and not text[i].isspace()]
        out: Pieces = []
        start = a
        for p in [*seams, b]:
            p = min(p, b)
            s, e = self.trim(start, p)
            if s < e:
                out.append((s, e))
            start = p
        return out

    def group(
        self, run: list[tuple[int, int, int]], caps: tuple[int, int], sink: Sink, level: int
    ) -> None:
        """A run of atoms (each fits) as pieces, each as full as the budget allows."""
        out, whys = sink
        if run:
            groups = self.greedy(run, caps[1] if out else caps[0], caps[1])
            out.extend(groups)
            whys.extend([level] * len(groups))

    def greedy(self, run: list[tuple[int, int, int]], first: int, cap: int) -> Pieces:
        groups: Pieces = []
        cur = (run[0][0], run[0][1])
        for s, e, _ in run[1:]:
            limit = cap if groups else first
            if self.size(cur[0], e) <= limit:
                cur = (cur[0], e)
            else:
                groups.append(cur)
                cur = (s, e)
        groups.append(cur)
        return groups

    def chars(self, a: int, b: int, caps: tuple[int, int], sink: Sink) -> None:
        out, whys = sink
        k = a
        while k < b:
            cap = caps[1] if out else caps[0]
            left = self.size(k, b)
            if left <= cap:
                out.append(self.trim(k, b))
                whys.append(CHAR)
                break
            share = min(-(-left // -(-left // cap)), cap)
            lo, hi = k + 1, b
            while lo < hi:
                mid = -(-(lo + hi) // 2)
                if self.size(k, mid) <= share:
                    lo = mid
                else:
                    hi = mid - 1
            s, e = self.trim(k, lo)
            if s < e:
                out.append((s, e))
                whys.append(CHAR)
            k = lo
            while k < b and self.text[k].isspace():
                k += 1
