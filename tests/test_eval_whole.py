"""Answers whole in one chunk, on hand-made chunkings whose answers are worked out here."""

from __future__ import annotations

from ferrochunk.eval.data import Answer, Question
from ferrochunk.eval.whole import ChunkIndex, answers_whole


def q(*spans: tuple[str, int, int]) -> Question:
    return Question("q", "query", tuple(Answer(d, a, b) for d, a, b in spans))


def test_one_chunk_must_hold_every_span() -> None:
    chunks = {"d": [(0, 10), (10, 20), (20, 30)], "e": [(0, 50)]}
    assert answers_whole([q(("d", 0, 10))], chunks) == 1.0  # exactly a chunk
    assert answers_whole([q(("d", 2, 8))], chunks) == 1.0
    assert answers_whole([q(("d", 9, 11))], chunks) == 0.0  # across the cut at 10
    assert answers_whole([q(("d", 10, 11))], chunks) == 1.0  # starts at the second chunk
    assert answers_whole([q(("d", 1, 10), ("d", 10, 12))], chunks) == 0.0  # two chunks
    assert answers_whole([q(("e", 1, 10), ("e", 30, 49))], chunks) == 1.0  # both in (0, 50)
    assert answers_whole([q(("d", 1, 2), ("e", 1, 2))], chunks) == 0.0  # two documents
    assert answers_whole([q(("x", 0, 1))], chunks) == 0.0  # a document with no chunks
    # four questions, the first and third whole: one half
    four = [q(("d", 0, 5)), q(("d", 5, 15)), q(("e", 0, 50)), q(("e", 0, 51))]
    assert answers_whole(four, chunks) == 0.5


def test_overlapping_and_unsorted_chunks() -> None:
    # (0, 30) starts first and reaches furthest: it holds (25, 30) although (20, 26) is later
    index = ChunkIndex([(20, 26), (0, 30), (5, 12)])
    assert index.holds(25, 30) and index.holds(0, 30) and index.holds(6, 12)
    assert not index.holds(0, 31) and not ChunkIndex([]).holds(0, 1)
    chunks = {"d": [(0, 12), (8, 20)]}
    assert answers_whole([q(("d", 9, 20))], chunks) == 1.0  # in the overlap's second chunk
    assert answers_whole([q(("d", 7, 13))], chunks) == 0.0


def test_not_defined_without_spans() -> None:
    assert answers_whole([Question("q", "x", (Answer("d"),))], {"d": [(0, 9)]}) is None
    assert answers_whole([], {"d": [(0, 9)]}) is None
