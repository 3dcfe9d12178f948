# ruff: noqa: RUF001 - CJK punctuation in generated text is the point
"""Cuts inside blocks (rust/markdown/prose.rs, reference/markdown/prose.py): sentence ends
first, even pieces, never over the budget. Expectations are worked out by hand or follow
from how the input was built (sentences we joined ourselves), not from the chunker."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ferrochunk
from ferrochunk import reference as ref

IMPLS = {"native": ferrochunk, "reference": ref}


@pytest.fixture(params=sorted(IMPLS))
def impl(request: pytest.FixtureRequest):
    return IMPLS[request.param]


def texts(impl, text: str, **options) -> list[str]:
    return [c.text for c in impl.MarkdownChunker(**options).split(text)]


def test_heading_budget_applies_to_the_first_piece_only(impl) -> None:
    # "# T\n\none." is 9 characters; "two. three." (11) does not fit 10: one sentence each.
    got = texts(impl, "# T\n\none. two. three.", chunk_size=10, min_size=0)
    assert got == ["# T\n\none.", "two.", "three."]


def test_even_pieces_instead_of_a_tiny_tail(impl) -> None:
    # Five 6-character sentences, 34 characters: greedy packing at 28 gives 27 + 6; two
    # pieces are needed, and the most even split is 20 + 13.
    text = "Aa aa. Bb bb. Cc cc. Dd dd. Ee ee."
    assert texts(impl, text, chunk_size=28, min_size=0) == [
        "Aa aa. Bb bb. Cc cc.",
        "Dd dd. Ee ee.",
    ]


def test_clauses_before_words(impl) -> None:
    # One sentence of 42 characters at 25: clause atoms of 11, 12 and 17; the even split
    # ends the first piece at the second clause end (24 + 17).
    text = "First part, with commas, and then the rest"
    got = texts(impl, text, chunk_size=25, min_size=0)
    assert got == ["First part, with commas,", "and then the rest"]


WORDS = st.sampled_from("alpha beta gamma delta epsilon zeta eta theta iota kappa".split())
SENTENCE = st.lists(WORDS, min_size=1, max_size=8).map(lambda w: " ".join(w).capitalize() + ".")


@given(sentences=st.lists(SENTENCE, min_size=1, max_size=30), size=st.integers(60, 300))
def test_chunks_end_at_sentence_ends_when_sentences_fit(sentences, size) -> None:
    text = " ".join(sentences)  # every sentence is shorter than 60 characters
    for impl in IMPLS.values():
        for chunk in texts(impl, text, chunk_size=size, min_size=0):
            assert chunk.endswith("."), chunk
            assert len(chunk) <= size


TEXT = st.text(alphabet=st.sampled_from(list("ab .,;\n。，好😀é")), max_size=400)


@given(text=TEXT, size=st.integers(1, 40))
def test_token_budget_is_never_exceeded(text, size) -> None:
    tokens = ferrochunk.get_encoding("cl100k_base").length_function()
    for fmt in ("markdown", "plain"):
        chunker = ferrochunk.TextChunker(
            chunk_size=size, min_size=0, format=fmt, length_function=tokens
        )
        native = chunker.split(text)
        reference = ref.TextChunker(
            chunk_size=size, min_size=0, format=fmt, length_function=tokens
        ).split(text)
        assert [(c.start, c.end) for c in native] == [(c.start, c.end) for c in reference]
        for c in native:
            # A single character may count more than the budget (an emoji is 3 tokens).
            assert tokens(c.text) <= size or len(c.text) == 1, (c.text, size)
