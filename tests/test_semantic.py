"""The native ``SemanticSplitter`` and the embedder adapters: exact spans that cover the
text, hard maximum and minimum sizes, one batched de-duplicated embedding call, cuts where
meaning shifts (hand-made cases), any embedder duck-typed, bad embedders as clear errors,
and a real offline model (WordLlama)."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import ferrochunk
from ferrochunk import SemanticSplitter, Splitter, get_encoding
from ferrochunk.semantic import as_embedder, embed
from semantic_support import HashEmbeddings, hash_embedder
from support import texts as generic_texts

WORDS = ["cat", "dog", "stock", "market", "rain", "sun", "漢字", "😀", "é", "the", "a"]
ENDS = [". ", "? ", "! ", ".\n", "。", ".\n\n", " ", "\r\n\r\n", "… "]
sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)
prose = st.lists(st.tuples(sentence, st.sampled_from(ENDS)), max_size=30).map(
    lambda parts: "".join(s + e for s, e in parts)
)
texts = st.one_of(prose, prose, prose, generic_texts)


class Recorder:
    """A callable embedder that records its calls."""

    def __init__(self, fn=hash_embedder) -> None:
        self.fn, self.calls = fn, []

    def __call__(self, batch: list[str]):
        self.calls.append(list(batch))
        return self.fn(batch)


def check_chunks(text: str, chunks, metadata=None) -> None:
    """Exact spans, in order, not overlapping, covering every non-space character."""
    prev_end = 0
    for i, c in enumerate(chunks):
        assert c.index == i
        assert text[c.start : c.end] == c.text and c.text == c.text.strip() and c.text
        assert len(text[: c.start].encode()) == c.byte_start
        assert len(text[: c.end].encode()) == c.byte_end
        assert not text[prev_end : c.start].strip()  # only whitespace between chunks
        prev_end = c.end
        assert dict(c.metadata) == dict(metadata or {})
    assert not text[prev_end:].strip()


def check_sizes(chunks, min_size: int, max_size: int) -> None:
    """At most ``max_size`` code points (one character may exceed it alone); under
    ``min_size`` only when merging with either neighbour would exceed ``max_size``."""
    for i, c in enumerate(chunks):
        assert len(c) <= max_size or len(c.text) == 1
        if len(c) < min_size and len(chunks) > 1:
            for j in (i - 1, i + 1):
                if 0 <= j < len(chunks):
                    a, b = sorted((chunks[i], chunks[j]), key=lambda x: x.start)
                    assert b.end - a.start > max_size


def no_surrogates(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


@given(
    texts,
    st.integers(1, 300),
    st.integers(0, 300),
    st.integers(0, 3),
    st.sampled_from(["percentile", "standard_deviation", "interquartile", "gradient"]),
    st.none() | st.integers(1, 8),
)
def test_chunks_are_exact_cover_the_text_and_respect_sizes(
    text, max_size, min_size, buffer_size, kind, number_of_chunks
) -> None:
    if not no_surrogates(text):
        return
    min_size = min(min_size, max_size)
    embedder = Recorder()
    splitter = SemanticSplitter(
        embedder,
        chunk_size=max_size,
        min_size=min_size,
        buffer_size=buffer_size,
        breakpoint_threshold_type=kind,
        number_of_chunks=number_of_chunks,
    )
    chunks = splitter.split(text, {"doc": 1})
    check_chunks(text, chunks, {"doc": 1})
    check_sizes(chunks, min_size, max_size)
    assert len(embedder.calls) <= 1
    for batch in embedder.calls:
        assert len(batch) == len(set(batch))  # de-duplicated


@given(st.lists(texts, max_size=5))
def test_split_many_makes_one_call_and_equals_split(batch) -> None:
    batch = [t for t in batch if no_surrogates(t)]
    embedder = Recorder()
    splitter = SemanticSplitter(embedder, chunk_size=120, min_size=10)
    together = splitter.split_many(batch)
    assert len(embedder.calls) <= 1
    alone = [splitter.split(t) for t in batch]
    assert [[(c.text, c.start, c.end) for c in doc] for doc in together] == [
        [(c.text, c.start, c.end) for c in doc] for doc in alone
    ]


def test_windows_are_source_spans_embedded_once() -> None:
    embedder = Recorder()
    text = "Cats purr. Cats purr. Dogs bark."
    SemanticSplitter(embedder, buffer_size=1).split(text)
    # Sentences: "Cats purr." x2, "Dogs bark."; windows with one neighbour each side:
    assert embedder.calls == [
        ["Cats purr. Cats purr.", "Cats purr. Cats purr. Dogs bark.", "Cats purr. Dogs bark."]
    ]
    embedder = Recorder()
    SemanticSplitter(embedder, buffer_size=0).split(text)
    assert embedder.calls == [["Cats purr.", "Dogs bark."]]  # the repeat embedded once


def test_no_call_without_two_sentences() -> None:
    embedder = Recorder()
    splitter = SemanticSplitter(embedder)
    assert splitter.split("") == [] and splitter.split(" \n ") == []
    assert [c.text for c in splitter.split("  Just one.  ")] == ["Just one."]
    assert embedder.calls == []


def topic_embedder(batch):
    """Two topics: cats along x, money along y (by hand, so expected cuts are known)."""
    out = []
    for t in batch:
        t = t.lower()
        out.append([t.count("cat") + 0.01, t.count("stock") + t.count("bank"), 0.0])
    return out


TOPICS = "A cat sat. The cat slept. Stocks fell. The bank lent. A stock rose. My cat ate."


def test_cuts_where_the_topic_changes() -> None:
    splitter = SemanticSplitter(
        topic_embedder, buffer_size=0, breakpoint_threshold_amount=50, chunk_size=1000
    )
    # Distances: cat->cat 0, cat->stock ~1, stock->bank 0, bank->stock 0, stock->cat ~1;
    # the median is 0, so both topic changes are cuts.
    assert [c.text for c in splitter.split(TOPICS)] == [
        "A cat sat. The cat slept.",
        "Stocks fell. The bank lent. A stock rose.",
        "My cat ate.",
    ]


def test_oversize_group_is_cut_at_the_most_distant_pair() -> None:
    splitter = SemanticSplitter(topic_embedder, buffer_size=0, number_of_chunks=1, chunk_size=60)
    # number_of_chunks=1: no semantic cut; the 77-character text is over 60, so it is cut at
    # the first of the two largest distances (cat -> stock), and both halves fit.
    assert [c.text for c in splitter.split(TOPICS)] == [
        "A cat sat. The cat slept.",
        "Stocks fell. The bank lent. A stock rose. My cat ate.",
    ]


def test_small_pieces_merge_across_the_smaller_distance() -> None:
    splitter = SemanticSplitter(
        topic_embedder, buffer_size=0, breakpoint_threshold_amount=50, min_size=15
    )
    # "My cat ate." (11) is under 15; its only neighbour is the money group: merged.
    assert [c.text for c in splitter.split(TOPICS)] == [
        "A cat sat. The cat slept.",
        "Stocks fell. The bank lent. A stock rose. My cat ate.",
    ]
    limited = SemanticSplitter(
        topic_embedder, buffer_size=0, breakpoint_threshold_amount=50, min_size=15, chunk_size=45
    )
    # The merge would make 53 > 45 characters: the small piece stays.
    assert [c.text for c in limited.split(TOPICS)][-1] == "My cat ate."


def test_a_sentence_over_the_maximum_is_cut_by_the_recursive_splitter() -> None:
    long = "Word " + "word " * 30 + "end."  # a capital: a new sentence after "one."
    text = f"Short one. {long} Another short."
    chunks = SemanticSplitter(hash_embedder, chunk_size=40, buffer_size=0).split(text)
    check_chunks(text, chunks)
    assert [c.text for c in chunks[1:-1]] == [
        c.text for c in Splitter(40, chunk_overlap=0).split(long)
    ]
    assert (chunks[0].text, chunks[-1].text) == ("Short one.", "Another short.")


def test_sizes_in_tokens() -> None:
    length = get_encoding("cl100k_base").length_function()
    text = " ".join(f"Sentence number {i} talks about {w}." for i, w in enumerate(WORDS * 3))
    chunks = SemanticSplitter(hash_embedder, chunk_size=20, min_size=5, length_function=length)
    out = chunks.split(text)
    check_chunks(text, out)
    assert all(c.token_count == length(c.text) <= 20 for c in out)


@given(
    st.lists(st.sampled_from(["naïve", "😀", "漢字", "e\u0301", "word", "a."]), max_size=40),
    st.integers(1, 12),
)
@example(["naïve", "naïve", "😀", "😀"], 4)
def test_token_maximum_holds_on_text_whose_pieces_lose_a_space(words, max_size) -> None:
    """Sized in cl100k tokens, a sentence cut by the recursive splitter yields pieces
    measured with the space before them and kept without (``" 😀"`` is one token, ``"😀"``
    two): every chunk still fits, unless it is a single character."""
    length = get_encoding("cl100k_base").length_function()
    text = " ".join(words)
    splitter = SemanticSplitter(hash_embedder, chunk_size=max_size, length_function=length)
    out = splitter.split(text)
    check_chunks(text, out)
    assert all(length(c.text) <= max_size or len(c.text) == 1 for c in out)


# -- embedders -------------------------------------------------------------------------------


class LangChainStyle:
    def embed_documents(self, texts):
        return hash_embedder(texts).tolist()


class SentenceTransformersStyle:
    def encode(self, texts):
        return hash_embedder(texts)

    def __call__(self, texts):  # a torch module's forward: must not be used
        raise AssertionError("called instead of encode")


class WordLlamaStyle:
    def embed(self, texts):
        return (row for row in hash_embedder(texts))  # an iterator of rows (fastembed)


@pytest.mark.parametrize(
    "embedder",
    [
        hash_embedder,
        LangChainStyle(),
        SentenceTransformersStyle(),
        WordLlamaStyle(),
        HashEmbeddings(),
    ],
    ids=["callable", "embed_documents", "encode", "embed", "langchain-embeddings"],
)
def test_any_embedder_gives_the_same_chunks(embedder) -> None:
    text = "Cats purr. Dogs bark. Stocks fell. Rain fell. Cats nap. Sun shone."
    expected = [c.text for c in SemanticSplitter(hash_embedder, buffer_size=0).split(text)]
    assert [c.text for c in SemanticSplitter(embedder, buffer_size=0).split(text)] == expected


BAD_EMBEDDERS = {
    "wrong rank": (lambda b: np.ones(len(b)), ValueError, r"shape \(3,\); expected \[n_texts"),
    "3-d": (lambda b: np.ones((len(b), 2, 2)), ValueError, r"shape \(3, 2, 2\)"),
    "too few rows": (lambda b: np.ones((len(b) - 1, 4)), ValueError, "2 rows for 3 texts"),
    "too many rows": (lambda b: np.ones((len(b) + 1, 4)), ValueError, "4 rows for 3 texts"),
    "nan": (
        lambda b: [[1.0, float("nan")]] * len(b),
        ValueError,
        r"NaN or infinite.*rows \[0, 1, 2\]",
    ),
    "inf": (lambda b: [[1.0, 0.0], [float("inf"), 0], [1, 0]], ValueError, r"rows \[1\]"),
    "strings": (lambda b: [["a", "b"]] * len(b), TypeError, "real numbers"),
    "objects": (lambda b: [[object()]] * len(b), TypeError, "real numbers"),
    "complex": (lambda b: np.ones((len(b), 2), dtype=complex), TypeError, "real numbers"),
    "none": (lambda b: None, TypeError, "returned None"),
    "ragged": (lambda b: [[1.0, 2.0], [1.0], [3.0, 4.0]], ValueError, "same length"),
    "zero width": (lambda b: np.ones((len(b), 0)), ValueError, "dimension 0"),
}


@pytest.mark.parametrize("name", sorted(BAD_EMBEDDERS))
def test_bad_embedders_are_clear_errors(name: str) -> None:
    fn, error, message = BAD_EMBEDDERS[name]
    with pytest.raises(error, match=message):
        SemanticSplitter(fn, buffer_size=0).split("One cat. Two dogs. Three birds.")
    with pytest.raises(error, match=message):
        embed(fn, ["a", "b", "c"])


def test_not_an_embedder() -> None:
    with pytest.raises(TypeError, match="embed_documents"):
        SemanticSplitter(42)
    with pytest.raises(TypeError, match="embed_documents"):
        as_embedder("model name")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"chunk_size": 0}, ValueError, "chunk_size must be >= 1"),
        ({"chunk_size": 1.5}, TypeError, "chunk_size must be an int"),
        ({"min_size": -1}, ValueError, "min_size must be >= 0"),
        ({"min_size": 20, "chunk_size": 10}, ValueError, "must not exceed chunk_size"),
        ({"buffer_size": -1}, ValueError, "buffer_size must be >= 0"),
        ({"breakpoint_threshold_type": "median"}, ValueError, "must be one of"),
        ({"breakpoint_threshold_amount": "95"}, TypeError, "finite number"),
        ({"breakpoint_threshold_amount": float("nan")}, TypeError, "finite number"),
        ({"number_of_chunks": 0}, ValueError, "number_of_chunks must be >= 1"),
        ({"breakpoint_threshold_amount": 150}, ValueError, "between 0 and 100"),
        (
            {"breakpoint_threshold_type": "gradient", "breakpoint_threshold_amount": -1},
            ValueError,
            "between 0 and 100",
        ),
        ({"length_function": 3}, TypeError, "length_function must be callable"),
    ],
)
def test_bad_arguments(kwargs, error, message) -> None:
    with pytest.raises(error, match=message):
        SemanticSplitter(hash_embedder, **kwargs)


def test_max_size_is_the_deprecated_name_of_chunk_size() -> None:
    text = "A cat sat. The cat slept. Stocks fell. The stock rose."
    with pytest.warns(
        DeprecationWarning, match=r"max_size=\.\.\.\) is deprecated; pass chunk_size"
    ):
        old = SemanticSplitter(hash_embedder, max_size=30, buffer_size=0)
    new = SemanticSplitter(hash_embedder, 30, buffer_size=0)
    assert old.chunk_size == 30 and repr(old) == repr(new)
    assert [c.text for c in old.split(text)] == [c.text for c in new.split(text)]
    with pytest.warns(DeprecationWarning, match="read chunk_size"):
        assert old.max_size == 30
    with pytest.raises(TypeError, match="not both"), pytest.warns(DeprecationWarning):
        SemanticSplitter(hash_embedder, chunk_size=20, max_size=30)


def test_bad_texts() -> None:
    splitter = SemanticSplitter(hash_embedder)
    with pytest.raises(TypeError, match="text must be str"):
        splitter.split(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="list of str"):
        splitter.split_many("one text")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2 metadatas for 1 texts"):
        splitter.split_many(["a"], [{}, {}])


def test_top_level_exports() -> None:
    assert ferrochunk.SemanticSplitter is SemanticSplitter
    from ferrochunk.semantic import SemanticChunker, late_chunk, pool_chunks

    assert ferrochunk.SemanticChunker is SemanticChunker
    assert (ferrochunk.late_chunk, ferrochunk.pool_chunks) == (late_chunk, pool_chunks)
    with pytest.raises(AttributeError):
        _ = ferrochunk.NoSuchThing  # type: ignore[attr-defined]


# -- a real model, offline -------------------------------------------------------------------


@pytest.fixture(scope="module")
def wordllama():
    wl = pytest.importorskip("wordllama")
    folder = os.path.dirname(wl.__file__)
    return wl.WordLlama.load(cache_dir=folder, disable_download=True)


def test_wordllama_chunks_cover_the_text_and_respect_sizes(wordllama, corpus_dir) -> None:
    text = (corpus_dir / "en-prose" / "tinyshakespeare.txt").read_text("utf-8")[:20000]
    splitter = SemanticSplitter(wordllama, chunk_size=600, min_size=100)
    chunks = splitter.split(text)
    check_chunks(text, chunks)
    assert len(chunks) > 30
    check_sizes(chunks, 100, 600)
