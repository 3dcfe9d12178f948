"""ferrochunk.eval measures on hand-made cases whose answers are worked out in the comments."""

from __future__ import annotations

import math

import pytest

from ferrochunk.eval.data import Answer
from ferrochunk.eval.measures import covers, rank_scores, span_scores, union

L2, L3, L4 = math.log2(2), math.log2(3), math.log2(4)


def test_strict_and_lenient_cover() -> None:
    a = Answer("d", 10, 20)
    assert covers(("d", 10, 20), a, strict=True)  # exactly the span
    assert covers(("d", 0, 30), a, strict=True)
    assert not covers(("d", 11, 30), a, strict=True)  # misses the first code point
    assert covers(("d", 11, 30), a, strict=False)
    assert covers(("d", 19, 30), a, strict=False)
    assert not covers(("d", 20, 30), a, strict=False)  # touches, shares nothing
    assert not covers(("d", 0, 10), a, strict=False)
    assert not covers(("e", 0, 30), a, strict=False)  # another document
    whole = Answer("d")
    assert covers(("d", 5, 6), whole, strict=True) and not covers(("e", 0, 9), whole, True)


def test_one_answer_found_second_strict_first_lenient() -> None:
    answers = [Answer("d", 10, 20)]
    hits = [("d", 0, 12), ("d", 8, 25), ("d", 30, 40)]
    # strict: rank 2 holds the whole span -> R 1, MRR 1/2, nDCG (1/log2 3) / (1/log2 2)
    strict = rank_scores(hits, answers, 3, strict=True)
    assert strict.recall == 1 and strict.mrr == 0.5
    assert strict.ndcg == pytest.approx((1 / L3) / (1 / L2))
    # lenient: rank 1 overlaps -> everything 1
    assert rank_scores(hits, answers, 3, strict=False) == (1.0, 1.0, 1.0)
    # k = 1: strict finds nothing in the first chunk
    assert rank_scores(hits, answers, 1, strict=True) == (0.0, 0.0, 0.0)


def test_two_answers_and_cutoff() -> None:
    answers = [Answer("d", 0, 10), Answer("e", 0, 10)]
    hits = [("e", 0, 10), ("x", 0, 99), ("d", 0, 50)]
    # k = 3: both found (ranks 1 and 3): DCG 1 + 1/log2 4, ideal 1 + 1/log2 3
    s = rank_scores(hits, answers, 3, strict=True)
    assert s.recall == 1 and s.mrr == 1
    assert s.ndcg == pytest.approx((1 + 1 / L4) / (1 + 1 / L3))
    # k = 2: only e: recall 1/2, DCG 1, ideal still two units
    s = rank_scores(hits, answers, 2, strict=True)
    assert s.recall == 0.5 and s.ndcg == pytest.approx(1 / (1 + 1 / L3))


def test_a_unit_is_credited_once() -> None:
    answers = [Answer("d", 10, 15)]
    hits = [("x", 0, 5), ("d", 0, 20), ("d", 5, 20), ("d", 10, 15)]
    # the duplicates at ranks 3 and 4 gain nothing: DCG 1/log2 3, ideal 1
    s = rank_scores(hits, answers, 4, strict=True)
    assert s == pytest.approx((1.0, 0.5, 1 / L3))


def test_graded_documents() -> None:
    answers = [Answer("d", grade=2), Answer("e", grade=1)]
    hits = [("e", 0, 5), ("d", 0, 5)]
    # DCG 1/log2 2 + 2/log2 3; ideal 2/log2 2 + 1/log2 3
    s = rank_scores(hits, answers, 2, strict=True)
    assert s.recall == 1 and s.mrr == 1
    assert s.ndcg == pytest.approx((1 + 2 / L3) / (2 + 1 / L3))


def test_nothing_retrieved() -> None:
    answers = [Answer("d", 0, 5)]
    assert rank_scores([], answers, 5, strict=True) == (0.0, 0.0, 0.0)
    assert span_scores([], answers, {"d": 10}) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="at least one answer"):
        rank_scores([], [], 5, strict=True)


def test_span_precision_recall_iou() -> None:
    answers = [Answer("d", 10, 20)]
    # retrieved d[0:15] (union of 0-10 and 5-15): 15 code points, 5 of them in the answer
    hits = [("d", 0, 10), ("d", 5, 15)]
    assert span_scores(hits, answers, {"d": 100}) == pytest.approx((5 / 15, 5 / 10, 5 / 20))
    # plus 5 code points of another document: precision 5/20, IoU 5/25
    hits.append(("e", 0, 5))
    lengths = {"d": 100, "e": 50}
    assert span_scores(hits, answers, lengths) == pytest.approx((5 / 20, 5 / 10, 5 / 25))
    # a whole-document answer counts the document's length: 30 of 100
    assert span_scores([("d", 0, 30)], [Answer("d")], {"d": 100}) == pytest.approx((1, 0.3, 0.3))


def test_union() -> None:
    assert union([(5, 9), (0, 3), (2, 4), (9, 9), (9, 12)]) == [(0, 4), (5, 12)]
