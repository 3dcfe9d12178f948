"""Retrieval measures over ranked chunks, with their definitions.

A retrieved chunk is ``(doc_id, start, end)``. An *answer unit* is one :class:`~.data.Answer`:
a span of a document, or a whole relevant document (BEIR qrels).

- A chunk **covers** a span answer *strictly* when it contains the whole span
  (``start <= a.start and a.end <= end``, same document), *leniently* when they overlap
  (``start < a.end and a.start < end``). It covers a document answer when it is a chunk of
  that document (strict and lenient agree).
- Each answer unit is credited once, at the rank of the first chunk that covers it; later
  chunks covering the same unit gain nothing (so overlapping or duplicate chunks cannot
  inflate a score).
- **Recall@K** = credited units / all units of the question; **MRR@K** = 1 / rank of the first
  chunk that credits a unit (0 if none in the top K); **nDCG@K** = DCG / ideal DCG, with
  DCG = sum over ranks i <= K of (grade of the units credited at i) / log2(i + 1), and the
  ideal DCG putting one unit per rank, highest grade first (grades are 1 for spans), capped
  at 1 (one chunk may credit several spans of a question at one rank).
- **Span precision / recall / IoU** compare the code points of the retrieved context (the
  union of the top-K chunks, per document) with those of the answers (whole documents for
  document answers): |R ∩ A| / |R|, |R ∩ A| / |A|, |R ∩ A| / |R u A| — the character-level
  measures of Chroma's chunking evaluation ("token-wise" there, counted in characters too).

Every measure is a mean over questions, in [0, 1].
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple, Optional

from .data import Answer

Hit = tuple[str, int, int]  # (doc_id, start, end) of a retrieved chunk


def covers(hit: Hit, answer: Answer, strict: bool) -> bool:
    """Whether a retrieved chunk covers an answer unit (see the module docstring)."""
    doc, start, end = hit
    if doc != answer.doc_id:
        return False
    if answer.start is None or answer.end is None:
        return True
    if strict:
        return start <= answer.start and answer.end <= end
    return start < answer.end and answer.start < end


def credits(hits: Sequence[Hit], answers: Sequence[Answer], strict: bool) -> list[list[int]]:
    """For each rank, the answer units first covered there (indices into ``answers``)."""
    done: set[int] = set()
    out = []
    for hit in hits:
        new = [i for i, a in enumerate(answers) if i not in done and covers(hit, a, strict)]
        done.update(new)
        out.append(new)
    return out


class RankScores(NamedTuple):
    """Recall@K, MRR@K and nDCG@K of one question."""

    recall: float
    mrr: float
    ndcg: float


def rank_scores(hits: Sequence[Hit], answers: Sequence[Answer], k: int, strict: bool) -> RankScores:
    """The rank measures of one question from its ranked hits (only the first ``k`` count)."""
    if not answers:
        raise ValueError("a question needs at least one answer")
    per_rank = credits(hits[:k], answers, strict)
    found = sum(len(c) for c in per_rank)
    first: Optional[int] = next((i for i, c in enumerate(per_rank) if c), None)
    dcg = sum(sum(answers[j].grade for j in c) / math.log2(i + 2) for i, c in enumerate(per_rank))
    ideal = sorted((a.grade for a in answers), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return RankScores(
        found / len(answers),
        0.0 if first is None else 1.0 / (first + 1),
        min(1.0, dcg / idcg) if idcg > 0 else 0.0,  # one chunk may credit several spans
    )


def union(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, disjoint spans covering the same code points (empty spans dropped)."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(s for s in spans if s[0] < s[1]):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _length(spans: list[tuple[int, int]]) -> int:
    return sum(b - a for a, b in spans)


def _overlap(x: list[tuple[int, int]], y: list[tuple[int, int]]) -> int:
    """Code points in both unions (two-pointer walk over sorted disjoint spans)."""
    i = j = total = 0
    while i < len(x) and j < len(y):
        lo, hi = max(x[i][0], y[j][0]), min(x[i][1], y[j][1])
        total += max(0, hi - lo)
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return total


class SpanScores(NamedTuple):
    """Precision, recall and IoU of the retrieved code points against the answers'."""

    precision: float
    recall: float
    iou: float


def span_scores(
    hits: Sequence[Hit], answers: Sequence[Answer], doc_lengths: dict[str, int]
) -> SpanScores:
    """Span measures of one question (``doc_lengths`` sizes whole-document answers)."""
    docs = {h[0] for h in hits} | {a.doc_id for a in answers}
    inter = got = want = 0
    for doc in sorted(docs):
        r = union([(s, e) for d, s, e in hits if d == doc])
        a = union(
            [
                (0, doc_lengths[doc]) if x.start is None or x.end is None else (x.start, x.end)
                for x in answers
                if x.doc_id == doc
            ]
        )
        both = _overlap(r, a)
        inter, got, want = inter + both, got + _length(r), want + _length(a)
    either = got + want - inter
    return SpanScores(
        inter / got if got else 0.0,
        inter / want if want else 0.0,
        inter / either if either else 0.0,
    )
