"""Retrieval helpers (``ferrochunk.retrieval``) on hand-made chunks whose answers can be
checked by hand, plus properties on generated hits: budget respected, nothing taken
twice, document order, and no skipped hit that would still fit."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ferrochunk
from ferrochunk import retrieval
from ferrochunk.retrieval import assemble_context, expand_neighbours, expand_parents


def make(doc: str, texts: list[str], parent_of=None, prefix: str = "") -> list:
    """Chunks of ``"".join(texts)`` with ids ``{prefix}{doc}{i}``."""
    out, pos = [], 0
    for i, t in enumerate(texts):
        meta = {"document_id": doc, "chunk_id": f"{prefix}{doc}{i}"}
        if parent_of is not None:
            meta["parent_id"] = parent_of[i]
        out.append(ferrochunk.Chunk(t, pos, pos + len(t), pos, pos + len(t), i, meta))
        pos += len(t)
    return out


A = make("a", ["a0 ", "a1 ", "a2 ", "a3 ", "a4 ", "a5 "])
B = make("b", ["b0 ", "b1 ", "b2 "])


def ids(chunks) -> list[str]:
    return [c.metadata["chunk_id"] for c in chunks]


def test_doc_examples() -> None:
    assert doctest.testmod(retrieval).failed == 0


def test_neighbours_by_hand() -> None:
    chunks = [*B, *A]
    assert ids(expand_neighbours(chunks, ["a3", "a2"], window=1)) == ["a1", "a2", "a3", "a4"]
    assert ids(expand_neighbours(chunks, ["a5", "a5"], window=0)) == ["a5"]
    assert ids(expand_neighbours(chunks, ["a0", "b2"], window=2)) == [
        "b0", "b1", "b2", "a0", "a1", "a2",
    ]  # fmt: skip
    assert ids(expand_neighbours(chunks, [], window=3)) == []
    with pytest.raises(ValueError, match="unknown chunk id"):
        expand_neighbours(chunks, ["zz"])
    with pytest.raises(ValueError, match="window"):
        expand_neighbours(chunks, ["a1"], window=-1)


def test_parents_by_hand() -> None:
    parents = make("a", ["a0 a1 a2 ", "a3 a4 a5 "], prefix="P")
    kids = make("a", ["a0 ", "a1 ", "a2 ", "a3 ", "a4 ", "a5 "], ["Pa0"] * 3 + ["Pa1"] * 3)
    assert ids(expand_parents(kids, parents, ["a4", "a0", "a1"])) == ["Pa0", "Pa1"]
    assert ids(expand_parents(kids, parents, ["a5"])) == ["Pa1"]
    assert ids(expand_parents(A, [], ["a5", "a1"])) == ["a1", "a5"]  # no parent: itself


def test_context_by_hand() -> None:
    chunks = make("d", ["x" * 10, "y" * 30, "z" * 5, "w" * 8])
    hits = [("d1", 0.9), ("d3", 0.8), ("d0", 0.7), ("d2", 0.1)]
    # d1 (30) does not fit 25; d3 (8) and d0 (10) do; d2 (5) still fits the 7 left
    got = assemble_context(chunks, hits, budget=25)
    assert ids(got) == ["d0", "d2", "d3"]  # document order, not score order
    assert [(c.start, c.end) for c in got] == [(0, 10), (40, 45), (45, 53)]
    assert ids(assemble_context(chunks, hits, budget=0)) == []
    assert ids(assemble_context(chunks, hits, budget=10, length=lambda s: 1)) == [
        "d0", "d1", "d2", "d3",
    ]  # fmt: skip


def test_context_dedups_by_parent() -> None:
    parents = make("a", ["a0 a1 a2 ", "a3 a4 a5 "], prefix="P")
    kids = make("a", ["a0 ", "a1 ", "a2 ", "a3 ", "a4 ", "a5 "], ["Pa0"] * 3 + ["Pa1"] * 3)
    hits = [("a1", 0.9), ("a2", 0.8), ("a4", 0.5)]
    assert ids(assemble_context(kids, hits, budget=100, parents=parents)) == ["Pa0", "Pa1"]
    assert ids(assemble_context(kids, hits, budget=9, parents=parents)) == ["Pa0"]
    # without the parents' text: one child per parent, the best-scored
    assert ids(assemble_context(kids, hits, budget=100)) == ["a1", "a4"]


@given(
    st.lists(st.integers(1, 40), min_size=1, max_size=30),
    st.data(),
    st.integers(0, 200),
)
def test_context_properties(sizes, data, budget) -> None:
    chunks = make("d", ["t" * n for n in sizes])
    picks = data.draw(st.lists(st.integers(0, len(sizes) - 1), max_size=40))
    scores = data.draw(st.lists(st.floats(0, 1), min_size=len(picks), max_size=len(picks)))
    hits = [(f"d{i}", s) for i, s in zip(picks, scores)]
    got = assemble_context(chunks, hits, budget)
    used = sum(len(c.text) for c in got)
    assert used <= budget
    assert len(set(ids(got))) == len(got)
    assert [c.start for c in got] == sorted(c.start for c in got)
    assert set(ids(got)) <= {h[0] for h in hits}
    for hit, _ in hits:  # anything left out no longer fits
        if hit not in ids(got):
            assert sizes[int(hit[1:])] > budget - used
    around = expand_neighbours(chunks, [h[0] for h in hits], window=2)
    wanted = {j for i in picks for j in range(i - 2, i + 3) if 0 <= j < len(sizes)}
    assert ids(around) == [f"d{j}" for j in sorted(wanted)]
