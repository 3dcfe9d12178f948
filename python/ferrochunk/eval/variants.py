"""Prose variants: real English paragraphs rewritten in the forms real corpora have, with
every answer span carried through the rewrite exactly.

- ``plain``: the paragraphs, a blank line between (the source of the others);
- ``wikitext``: tokenised WikiText style, a space before ``. , ; : ! ? )`` at a word's end
  and after ``(``, `` @-@ `` for a hyphen between letters;
- ``chat``: ONE line of JSON, ``[{"role": "user", "content": "...\\n\\n..."}, ...]``,
  one to three paragraphs per message (``\\n`` escapes between them), roles alternating;
- ``pdf``: hard-wrapped at 80 columns, some words hyphenated across a line end, and only
  some paragraphs with a blank line between.

A rewrite is built character by character (:class:`Rewrite`), recording which source
character each output character comes from; a span ``[a, b)`` of the source maps to the
output from the first character of ``a`` to the last of ``b - 1``, and
:meth:`Rewrite.span` checks that exactly the source's ``[a, b)`` is in it. Answers are drawn
on the plain text (runs of 1-3 pysbd sentences, a third across a paragraph seam,
:mod:`.draw`), one span per paragraph they touch.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence

from .data import Answer, Dataset, Question
from .draw import Block, draw
from .synthetic import make_query

VARIANTS = ("plain", "wikitext", "chat", "pdf")
WIDTH = 80
SUFFIX = {"plain": ".txt", "wikitext": ".txt", "chat": ".json", "pdf": ".txt"}


class Rewrite:
    """An output text built from a source, each output character tied to the source
    character it comes from (``-1``: inserted)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.parts: list[str] = []
        self.origin: list[int] = []

    def keep(self, i: int, out: str | None = None) -> None:
        """Source character ``i``, written as ``out`` (default: itself)."""
        out = self.source[i] if out is None else out
        self.parts.append(out)
        self.origin.extend([i] * len(out))

    def insert(self, out: str) -> None:
        self.parts.append(out)
        self.origin.extend([-1] * len(out))

    def text(self) -> str:
        return "".join(self.parts)

    def span(self, a: int, b: int) -> tuple[int, int] | None:
        """The output span of source ``[a, b)``; ``None`` when it does not hold exactly
        those source characters (one was dropped, or the order changed)."""
        if not hasattr(self, "_first"):
            self._first: dict[int, int] = {}
            self._last: dict[int, int] = {}
            for j, o in enumerate(self.origin):
                self._first.setdefault(o, j)
                self._last[o] = j
        if a not in self._first or b - 1 not in self._last:
            return None
        lo, hi = self._first[a], self._last[b - 1] + 1
        inside = [o for o in self.origin[lo:hi] if o >= 0]
        kept = sorted(set(inside))
        return (lo, hi) if kept == list(range(a, b)) and inside == sorted(inside) else None


def plain(paragraphs: Sequence[str]) -> str:
    """The source text: paragraphs (each on one line), a blank line between."""
    return "\n\n".join(paragraphs)


def wikitext(source: str, rng: random.Random) -> Rewrite:
    """WikiText-style tokens (see the module docstring)."""
    r = Rewrite(source)
    for i, c in enumerate(source):
        after = source[i + 1] if i + 1 < len(source) else " "
        before = source[i - 1] if i else " "
        if c in ".,;:!?" and after.isspace() and not before.isspace():
            r.insert(" ")
            r.keep(i)
        elif c == ")" and not before.isspace():
            r.insert(" ")
            r.keep(i)
        elif c == "(" and not after.isspace():
            r.keep(i)
            r.insert(" ")
        elif c == "-" and before.isalpha() and after.isalpha():
            r.keep(i, " @-@ ")
        else:
            r.keep(i)
    return r


def chat(source: str, rng: random.Random) -> Rewrite:
    """One line of JSON messages (see the module docstring)."""
    r = Rewrite(source)
    roles = ("user", "assistant")
    seams = [m.start() for m in re.finditer("\n\n", source)]
    ends = {s for s in seams if rng.random() < 0.5}  # a message ends at about half the seams
    turn = 0
    r.insert(f'[{{"role": "{roles[0]}", "content": "')
    i = 0
    while i < len(source):
        if i in ends:
            turn += 1
            r.insert(f'"}}, {{"role": "{roles[turn % 2]}", "content": "')
            i += 2
            continue
        r.keep(i, json.dumps(source[i], ensure_ascii=False)[1:-1])
        i += 1
    r.insert('"}]')
    return r


def pdf(source: str, rng: random.Random) -> Rewrite:
    """Hard-wrapped text (see the module docstring)."""
    r = Rewrite(source)
    column = 0
    for m in re.finditer(r"\S+|\s+", source):
        a, b = m.span()
        piece = m[0]
        if piece.isspace():
            if "\n\n" in piece:
                r.keep(a, "\n")
                if rng.random() < 0.3:
                    r.keep(a + 1, "\n")
                column = 0
            elif column + 1 + len(_next_word(source, b)) > WIDTH:
                r.keep(a, "\n")
                column = 0
            else:
                r.keep(a)
                column += 1
            continue
        column = _word(r, a, b, column, rng)
    return r


def _next_word(source: str, at: int) -> str:
    m = re.compile(r"\S+").match(source, at)
    return m[0] if m else ""


def _word(r: Rewrite, a: int, b: int, column: int, rng: random.Random) -> int:
    """Writes ``source[a:b]`` (hyphenated across the line end now and then); the column."""
    word = r.source[a:b]
    room = WIDTH - column
    if len(word) >= 8 and word.isalpha() and room < len(word) + 12 and rng.random() < 0.5:
        cut = a + rng.randint(3, len(word) - 3)
        for i in range(a, cut):
            r.keep(i)
        r.insert("-\n")
        for i in range(cut, b):
            r.keep(i)
        return b - cut
    for i in range(a, b):
        r.keep(i)
    return column + len(word)


REWRITES = {"wikitext": wikitext, "chat": chat, "pdf": pdf}


def prose_variants(
    paragraphs: dict[str, Sequence[str]],
    n: int = 300,
    *,
    seed: int = 0,
    hold_out: float = 0.5,
    variants: Sequence[str] = VARIANTS,
) -> dict[str, Dataset]:
    """Each variant as a span :class:`Dataset` (named ``prose-<variant>``) over the same
    answers: ``paragraphs`` maps a document name to its paragraphs (whitespace folded)."""
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise ValueError(f"unknown prose variant {unknown[0]!r}; choose from {VARIANTS}")
    sources = {d: plain([" ".join(p.split()) for p in ps]) for d, ps in paragraphs.items() if ps}
    if not sources:
        raise ValueError("no paragraphs to make prose variants of")
    blocks = [b for d, t in sources.items() for b in _paragraph_blocks(d, t)]
    drawn, notes = draw(sources, blocks, n, random.Random(seed))
    out = {}
    for variant in variants:
        rng = random.Random(seed)
        rewrite = REWRITES.get(variant)
        rewrites = {d: rewrite(t, rng) for d, t in sources.items()} if rewrite else {}
        out[variant] = _dataset(variant, sources, rewrites, drawn, seed, hold_out, notes)
    return out


def _paragraph_blocks(doc_id: str, text: str) -> list[Block]:
    spans = [(m.start(), m.end()) for m in re.finditer(r"[^\n]+", text)]
    return [Block(doc_id, a, b, i + 1 < len(spans)) for i, (a, b) in enumerate(spans)]


def _dataset(
    variant: str,
    sources: dict[str, str],
    rewrites: dict[str, Rewrite],
    drawn: list[tuple[str, tuple[tuple[int, int], ...]]],
    seed: int,
    hold_out: float,
    notes: dict[str, object],
) -> Dataset:
    """The span set of one variant: its documents, the drawn answers carried over."""
    ids = {d: f"{d.rsplit('.', 1)[0]}{SUFFIX[variant]}" for d in sources}
    texts = {ids[d]: rewrites[d].text() if rewrites else t for d, t in sources.items()}
    rng = random.Random(seed)
    questions, lost = [], 0
    for k, (doc, spans) in enumerate(drawn):
        query = make_query(" ".join(sources[doc][a:b] for a, b in spans), rng, hold_out)
        mapped = [rewrites[doc].span(a, b) if rewrites else (a, b) for a, b in spans]
        kept = [m for m in mapped if m is not None]
        if len(kept) < len(mapped):
            lost += 1
            continue
        answers = tuple(Answer(ids[doc], a, b) for a, b in kept)

        questions.append(Question(f"{variant}-{k}", query, answers))
    extra = {"variant": variant, "answers not carried through the rewrite": lost}
    return Dataset(f"prose-{variant}", "spans", texts, questions, {**notes, **extra})
