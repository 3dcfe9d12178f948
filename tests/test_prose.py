# ruff: noqa: RUF001 - CJK punctuation in generated text is the point
"""Cuts inside blocks (rust/markdown/prose.rs, reference/markdown/prose.py) and the fill
across a paragraph seam (rust/markdown/pack.rs): sentence ends first, full pieces, never
over the budget. Expectations are worked out by hand or follow
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


def test_pieces_are_as_full_as_the_size_allows(impl) -> None:
    # Five 6-character sentences, 34 characters, at 28: the first piece takes four (27).
    text = "Aa aa. Bb bb. Cc cc. Dd dd. Ee ee."
    assert texts(impl, text, chunk_size=28, min_size=0) == [
        "Aa aa. Bb bb. Cc cc. Dd dd.",
        "Ee ee.",
    ]


LONG = "Aa aa. Bb bb. Cc cc. Dd dd. Ee ee."  # 34 characters: no chunk of 30 holds it


def test_an_oversize_paragraph_fills_the_chunk_before_it(impl) -> None:
    # "Short one." (10) leaves 20 of 30: "\n\nAa aa. Bb bb." (15) fits beside it, "Cc cc."
    # would make 32; the rest (20) is one piece.
    got = texts(impl, "Short one.\n\n" + LONG, chunk_size=30, min_size=0)
    assert got == ["Short one.\n\nAa aa. Bb bb.", "Cc cc. Dd dd. Ee ee."]


def test_a_paragraph_that_fits_is_never_cut_to_fill(impl) -> None:
    fits = "Aa aa. Bb bb. Cc cc. Dd dd."  # 27 of 30
    got = texts(impl, "Short one.\n\n" + fits, chunk_size=30, min_size=0)
    assert got == ["Short one.", fits]


@pytest.mark.parametrize("before, fills", [(89, True), (90, False)])
def test_a_chunk_nine_tenths_full_is_not_filled(impl, before: int, fills: bool) -> None:
    first = "x" * (before - 1) + "."
    para = " ".join(["Aa aa."] * 20)  # 139 characters
    got = texts(impl, first + "\n\n" + para, chunk_size=100, min_size=0)
    # 89 + 2 + 6 = 97 fits 100; at 90 of 100 the chunk is nine tenths full and closes.
    assert got[0] == (first + "\n\nAa aa." if fills else first)
    assert all(len(c) <= 100 for c in got)


def test_clauses_before_words(impl) -> None:
    # One sentence of 42 characters at 25: clause atoms of 11, 12 and 17; the first piece
    # ends at the second clause end (24 + 17).
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
