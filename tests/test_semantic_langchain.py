"""The drop-in ``SemanticChunker`` against langchain-experimental's, on generated texts and
every threshold type, ``number_of_chunks``, ``min_chunk_size``, ``add_start_index``, odd
embedders and bad arguments: same chunks, same documents, same exceptions."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.documents import Document

with warnings.catch_warnings():  # langchain-experimental announces its sunset on import
    warnings.simplefilter("ignore", DeprecationWarning)
    from langchain_experimental.text_splitter import SemanticChunker as LangChainChunker
from ferrochunk.semantic import SemanticChunker
from semantic_support import HashEmbeddings

TYPES = ["percentile", "standard_deviation", "interquartile", "gradient"]
WORDS = ["cat", "dog", "stock", "market", "rain", "sun", "code", "rust", "the", "a", "is"]
ENDS = [". ", "? ", "! ", ".\n", ".  ", ".", " ", "\n\n", "... "]

sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join)
texts = st.one_of(
    st.just(""),
    st.just("One sentence only"),
    st.lists(st.tuples(sentence, st.sampled_from(ENDS)), max_size=25).map(
        lambda parts: "".join(s + e for s, e in parts)
    ),
    st.text(max_size=200),
)
options = st.fixed_dictionaries(
    {
        "buffer_size": st.integers(0, 3),
        "add_start_index": st.booleans(),
        "breakpoint_threshold_type": st.sampled_from(TYPES),
        "breakpoint_threshold_amount": st.none() | st.floats(-5, 120, allow_nan=False),
        "number_of_chunks": st.none() | st.integers(-2, 12),
        "min_chunk_size": st.none() | st.integers(0, 120),
    }
)


def outcome(fn, *args):
    """The value, or the type and message of the exception."""
    try:
        return ("ok", fn(*args))
    except Exception as err:  # compared, not swallowed
        return ("error", type(err), str(err))


def both(**kwargs):
    ours, theirs = HashEmbeddings(), HashEmbeddings()
    return SemanticChunker(ours, **kwargs), LangChainChunker(theirs, **kwargs), ours, theirs


@given(texts, options)
def test_split_text_matches_langchain(text: str, kwargs: dict) -> None:
    ours, theirs, ours_emb, theirs_emb = both(**kwargs)
    assert outcome(ours.split_text, text) == outcome(theirs.split_text, text)
    assert ours_emb.calls == theirs_emb.calls  # the same single embed_documents call


@given(st.lists(texts, max_size=4), options, st.booleans())
def test_documents_match_langchain(batch: list[str], kwargs: dict, with_meta: bool) -> None:
    ours, theirs, _, _ = both(**kwargs)
    metas = [{"source": i, "tags": ["x"]} for i in range(len(batch))] if with_meta else None
    assert outcome(ours.create_documents, batch, metas) == outcome(
        theirs.create_documents, batch, metas
    )
    docs = [Document(page_content=t, metadata={"n": i}) for i, t in enumerate(batch)]
    assert outcome(ours.split_documents, docs) == outcome(theirs.split_documents, docs)
    assert outcome(ours.transform_documents, docs) == outcome(theirs.transform_documents, docs)


@pytest.mark.parametrize("kind", TYPES)
@pytest.mark.parametrize("number_of_chunks", [None, 1, 2, 5, 100])
def test_every_threshold_type_on_a_long_text(kind: str, number_of_chunks) -> None:
    text = " ".join(f"The {w} and the {v} {i}." for i, (w, v) in enumerate(zip(WORDS, WORDS[3:])))
    ours, theirs, _, _ = both(breakpoint_threshold_type=kind, number_of_chunks=number_of_chunks)
    got = ours.split_text(text)
    assert got == theirs.split_text(text)
    if kind == "percentile" and number_of_chunks != 1:
        assert len(got) > 1  # the case does cut


@pytest.mark.parametrize("text", ["", "one", "One sentence.", "Two. Sentences."])
@pytest.mark.parametrize("kind", TYPES)
def test_empty_one_and_two_sentences(text: str, kind: str) -> None:
    ours, theirs, ours_emb, theirs_emb = both(breakpoint_threshold_type=kind)
    assert ours.split_text(text) == theirs.split_text(text)
    assert ours_emb.calls == theirs_emb.calls


def test_start_index_is_langchains_running_sum() -> None:
    ours, theirs, _, _ = both(add_start_index=True, breakpoint_threshold_amount=10)
    text = "Cats purr.  Dogs bark. Stocks fell. Markets rose."
    got = ours.create_documents([text])
    assert got == theirs.create_documents([text])
    assert [d.metadata["start_index"] for d in got][:2] == [0, len(got[0].page_content)]


class Vectors:
    """Embeddings that return fixed vectors, for odd shapes and values."""

    def __init__(self, rows) -> None:
        self.rows = rows

    def embed_documents(self, texts):
        return self.rows(len(texts))


ODD_EMBEDDERS = {
    "zero vectors": lambda n: [[0.0, 0.0]] * n,
    "numpy float32": lambda n: __import__("numpy").ones((n, 3), dtype="float32"),
    "too few rows": lambda n: [[1.0, 0.0]] * (n - 1),
    "ragged rows": lambda n: [[1.0, 0.0], [1.0]] + [[1.0, 0.0]] * (n - 2),
    "scalars": lambda n: [1.0] * n,
    "empty vectors": lambda n: [[]] * n,
    "nan": lambda n: [[float("nan"), 1.0]] * n,
}


@pytest.mark.parametrize("name", sorted(ODD_EMBEDDERS))
def test_odd_embedders_behave_like_langchain(name: str) -> None:
    rows = ODD_EMBEDDERS[name]
    text = "A b. C d. E f. G h."
    ours = SemanticChunker(Vectors(rows))
    theirs = LangChainChunker(Vectors(rows))
    assert outcome(ours.split_text, text) == outcome(theirs.split_text, text)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"breakpoint_threshold_type": "nope"},
        {"breakpoint_threshold_type": "nope", "breakpoint_threshold_amount": 3},
        {"buffer_size": 1.5},
        {"sentence_split_regex": "("},
        {"sentence_split_regex": r"\s*"},
        {"number_of_chunks": 0},
    ],
)
def test_bad_arguments_fail_alike(kwargs: dict) -> None:
    text = "A b. C d. E f."
    ours = outcome(lambda: SemanticChunker(HashEmbeddings(), **kwargs).split_text(text))
    theirs = outcome(lambda: LangChainChunker(HashEmbeddings(), **kwargs).split_text(text))
    assert ours == theirs


def test_attributes_and_subclass_hooks_match() -> None:
    embeddings = HashEmbeddings()
    ours = SemanticChunker(embeddings, buffer_size=2, min_chunk_size=5)
    theirs = LangChainChunker(embeddings, buffer_size=2, min_chunk_size=5)
    assert vars(ours).keys() >= vars(theirs).keys()
    for name in vars(theirs):
        assert getattr(ours, name) == getattr(theirs, name), name

    class Lines(SemanticChunker):
        def _get_single_sentences_list(self, text: str) -> list[str]:
            return text.split("\n")

    class LangChainLines(LangChainChunker):
        def _get_single_sentences_list(self, text: str) -> list[str]:
            return text.split("\n")

    text = "cat cat\ncat\ndog\nstock market\nstock\nrain sun\nsun"
    got = Lines(HashEmbeddings(), buffer_size=0, breakpoint_threshold_amount=50).split_text(text)
    assert got == LangChainLines(HashEmbeddings(), 0, breakpoint_threshold_amount=50).split_text(
        text
    )
    assert len(got) > 1


def test_simsimd_path_matches_langchain(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``simsimd`` importable, LangChain computes similarities in float32 through it;
    so does the drop-in. A stand-in module (numpy, float32) exercises both paths."""
    import sys
    import types

    import numpy as np

    def cdist(x, y, metric):
        assert metric == "cosine" and x.dtype == np.float32
        norms = np.linalg.norm(x, axis=1)[:, None] * np.linalg.norm(y, axis=1)[None, :]
        return (1 - (x @ y.T) / norms).astype(np.float32)

    monkeypatch.setitem(sys.modules, "simsimd", types.SimpleNamespace(cdist=cdist))
    text = "Cats purr. Cats nap. Stocks fell. Markets rose. Rain fell. Sun shone."
    for kind in TYPES:
        ours, theirs, _, _ = both(breakpoint_threshold_type=kind, breakpoint_threshold_amount=40)
        got = ours.split_text(text)
        assert got == theirs.split_text(text)
    assert len(got) > 1
