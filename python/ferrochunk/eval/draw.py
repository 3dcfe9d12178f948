"""Answers drawn from blocks of text: runs of 1 to 3 consecutive sentences (pysbd's, see
:mod:`.segmenter`), a fixed share of them crossing a paragraph seam (the last sentence of
one block and the first of the next), as real answers do.

An answer is a tuple of spans, one per block it touches, so an answer crossing a seam has
two and is whole only in a chunk that holds both (and what lies between). Every span's text
occurs once in the corpus (a repeated one would have more than one right place); drawing is
seeded (``random.Random``) and reads only the blocks it draws from.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable

from . import segmenter

Span = tuple[int, int]
Drawn = tuple[str, tuple[Span, ...]]  # (document id, spans)
WORDS = re.compile(f"[{segmenter.CJK.pattern[1:-1]}]|[^\\W_]+")
# what may lie between two blocks that a seam joins: blank lines, a list or quote marker
SEAM_GAP = re.compile(r"\s*(?:[-*+>]|\d{1,3}[.)])?\s*")


@dataclass(frozen=True)
class Block:
    """A paragraph (or list item, table row...) of a document; ``joins_next``: the next
    block follows with only a seam between (no code, heading or other block)."""

    doc_id: str
    start: int
    end: int
    joins_next: bool = False


def blocks_of(doc_id: str, text: str, spans: Sequence[Span]) -> list[Block]:
    """Blocks from ordered spans of one document, joined where only :data:`SEAM_GAP` is
    between one and the next."""
    out = []
    for i, (a, b) in enumerate(spans):
        nxt = spans[i + 1][0] if i + 1 < len(spans) else -1
        out.append(Block(doc_id, a, b, nxt >= b and bool(SEAM_GAP.fullmatch(text[b:nxt]))))
    return out


def words(text: str) -> int:
    """Words of ``text`` (a CJK character counts as one)."""
    return len(WORDS.findall(text))


def draw(
    documents: dict[str, str],
    blocks: Sequence[Block],
    n: int,
    rng: random.Random,
    *,
    seam_share: float = 1 / 3,
    min_words: int = 8,
    max_words: int = 150,
    sentences: Callable[[str, int, int], list[Span]] = segmenter.sentences,
) -> tuple[list[Drawn], dict[str, Any]]:
    """Up to ``n`` answers, about ``seam_share`` of them across a seam, in document order;
    and notes saying how many of each and what was left out."""
    drawn_by = segmenter.name() if sentences is segmenter.sentences else "given"
    corpus = "\x00".join(documents.values())
    cache: dict[int, list[Span]] = {}

    def sents(i: int) -> list[Span]:
        if i not in cache:
            b = blocks[i]
            cache[i] = sentences(documents[b.doc_id], b.start, b.end)
        return cache[i]

    order = list(range(len(blocks)))
    rng.shuffle(order)
    seen: set[Drawn] = set()
    counts = {"not unique": 0, "word count": 0}

    def take(doc: str, spans: tuple[Span, ...], out: list[Drawn]) -> None:
        text = documents[doc]
        total = sum(words(text[a:b]) for a, b in spans)
        if not min_words <= total <= max_words:
            counts["word count"] += 1
        elif any(corpus.count(text[a:b]) != 1 for a, b in spans):
            counts["not unique"] += 1
        elif (doc, spans) not in seen:
            seen.add((doc, spans))
            out.append((doc, spans))

    inside: list[Drawn] = []
    quota = n - round(n * seam_share)
    for i in order:
        if len(inside) >= quota:
            break
        s = sents(i)
        if s:
            run = rng.randint(1, min(3, len(s)))
            j = rng.randrange(len(s) - run + 1)
            take(blocks[i].doc_id, ((s[j][0], s[j + run - 1][1]),), inside)
    want = min(round(n * seam_share), round(len(inside) * seam_share / (1 - seam_share)))
    seams: list[Drawn] = []
    for i in order:
        if len(seams) >= want:
            break
        if blocks[i].joins_next and sents(i) and sents(i + 1):
            take(blocks[i].doc_id, (sents(i)[-1], sents(i + 1)[0]), seams)
    ids = {d: k for k, d in enumerate(documents)}
    drawn = sorted(inside + seams, key=lambda d: (ids[d[0]], d[1]))
    notes = {
        "segmenter": drawn_by,
        "answers within a block": len(inside),
        "answers crossing a paragraph seam": len(seams),
        "drawn answers left out (span text repeated in the corpus)": counts["not unique"],
        f"drawn answers left out (not {min_words}-{max_words} words)": counts["word count"],
    }
    return drawn, notes
