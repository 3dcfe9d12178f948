"""Answers whole in one chunk: a measure that needs no retriever.

An answer is a question's list of spans; it is **whole** under a chunking when one chunk
``[start, end)`` contains every span of it (``start <= min(span starts)`` and
``max(span ends) <= end``, all in the chunk's document). The share of answers kept whole is
what chunking alone decides: a retriever can only bring back what a chunk holds. It is not
defined for document-level relevance (BEIR: no spans), where :func:`answers_whole` returns
``None``.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from typing import Optional

from .data import Question

Spans = list[tuple[int, int]]
DEFINED = "share of answers (all spans of one question) inside a single chunk"
UNDEFINED = "n/a: relevance is per document (no answer spans)"


class ChunkIndex:
    """The chunks of one document sorted by start, with the running maximum of their ends:
    the chunk reaching furthest among those starting at or before a point, in O(log n)."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [a for a, _ in ordered]
        self.reach: list[int] = []
        for _, b in ordered:
            self.reach.append(max(b, self.reach[-1]) if self.reach else b)

    def holds(self, lo: int, hi: int) -> bool:
        """Whether one chunk contains ``[lo, hi)``."""
        i = bisect.bisect_right(self.starts, lo) - 1
        return i >= 0 and self.reach[i] >= hi


def is_whole(question: Question, index: dict[str, ChunkIndex]) -> Optional[bool]:
    """Whether one chunk holds every span of the question's answer (``None``: no spans)."""
    answers = question.answers
    spans = [(a.start, a.end) for a in answers if a.start is not None and a.end is not None]
    if len(spans) < len(answers):
        return None
    docs = {a.doc_id for a in answers}
    if len(docs) != 1:
        return False  # spans in two documents are never in one chunk
    chunks = index.get(docs.pop())
    lo = min(a for a, _ in spans)
    hi = max(b for _, b in spans)
    return chunks is not None and chunks.holds(lo, hi)


def answers_whole(questions: Sequence[Question], chunks: dict[str, Spans]) -> Optional[float]:
    """The share of questions whose answer lies whole in one chunk (``chunks``: document id
    -> its chunk spans); ``None`` when the answers are whole documents (not defined)."""
    index = {doc: ChunkIndex(spans) for doc, spans in chunks.items()}
    marks = [is_whole(q, index) for q in questions]
    if not marks or any(m is None for m in marks):
        return None
    return sum(bool(m) for m in marks) / len(marks)
