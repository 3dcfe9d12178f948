"""ferrochunk.eval retrieval: BM25 against a literal transcription of the formula, dense
search with a toy embedder, and whole runs on a hand-made dataset."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ferrochunk
from ferrochunk.eval import Answer, Config, Dataset, Question, evaluate, synthetic_questions
from ferrochunk.eval.bm25 import BM25, CorpusTerms, DocTerms, terms, top_k
from ferrochunk.eval.dense import Dense, as_embedder

SAMPLE = Path(ferrochunk.__file__).parent / "sample"
CHUNKS = [
    "The keeper lit the lamp at dusk.",
    "Fog rolled over the rocks; the keeper rang the bell, the bell, the bell.",
    "灯塔看守人点亮了灯。",
    "",
    "Ships passed the rocky point. THE END",
]


def test_terms() -> None:
    assert terms("Hello, World_x 世界和平 a 灯") == [
        "hello",
        "world",
        "x",
        "世界",
        "界和",
        "和平",
        "a",
        "灯",
    ]


def literal_bm25(chunks: list[str], query: str, k1: float = 1.5, b: float = 0.75) -> list[float]:
    docs = [terms(c) for c in chunks]
    avgdl = sum(map(len, docs)) / len(docs)
    n = len(docs)
    scores = []
    for d in docs:
        tf = Counter(d)
        s = 0.0
        for t in terms(query):
            df = sum(1 for x in docs if t in x)
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            s += idf * tf[t] / (tf[t] + k1 * (1 - b + b * len(d) / avgdl)) if tf[t] else 0.0
        scores.append(s)
    return scores


@pytest.mark.parametrize(
    "query", ["the keeper bell bell", "灯塔 灯", "rocky rocks", "absent words", ""]
)
def test_bm25_scores_are_the_formula(query: str) -> None:
    index = BM25(CHUNKS)
    assert index.scores(query) == pytest.approx(literal_bm25(CHUNKS, query))


def test_bm25_matches_bm25s_when_installed() -> None:
    bm25s = pytest.importorskip("bm25s")
    r = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    r.index([terms(c) or ["-"] for c in CHUNKS[:3]], show_progress=False)
    ours = BM25(CHUNKS[:3])
    for query in ["the keeper bell", "灯塔 lamp"]:
        ids, _ = r.retrieve(
            [[t for t in terms(query) if t in r.vocab_dict]], k=3, show_progress=False
        )
        assert ours.search(query, 3) == list(ids[0][: len(ours.search(query, 3))])


def test_top_k_ties_and_zeros() -> None:
    scores = np.array([0.0, 2.0, 1.0, 2.0, 1.0, 0.0])
    assert top_k(scores, 2) == [1, 3]  # tie: lower index first
    assert top_k(scores, 3) == [1, 3, 2]
    assert top_k(scores, 10) == [1, 3, 2, 4]  # zero scores are not retrieved
    assert top_k(np.zeros(0), 3) == []


def letters(texts: list[str]) -> np.ndarray:
    """A toy embedder: letter counts (a-z)."""
    return np.array([[t.lower().count(chr(97 + i)) for i in range(26)] for t in texts], float)


def test_dense_search_and_embedder_checks() -> None:
    index = Dense(["aaa", "bbb", "aab"], as_embedder(letters))
    q = np.array([[1.0] + [0.0] * 25])
    assert index.search_vectors(q, 2) == [[0, 2]]

    class LangChainLike:
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return letters(texts).tolist()

    assert as_embedder(LangChainLike())(["ab"]).shape == (1, 26)
    with pytest.raises(ValueError, match=r"returned shape \(1, 26\) for 2 texts"):
        as_embedder(lambda texts: letters(texts[:1]))(["a", "b"])
    with pytest.raises(ValueError, match="NaN"):
        as_embedder(lambda texts: np.full((len(texts), 3), np.nan))(["a"])
    with pytest.raises(TypeError, match="embedder must be"):
        as_embedder(42)


DOCS = {"a": "alpha beta gamma.\n\ndelta epsilon zeta.", "b": "eta theta iota."}


def test_a_run_on_a_hand_made_dataset() -> None:
    a = DOCS["a"]
    questions = [
        # inside the second chunk of a: found first by strict and lenient
        Question("1", "epsilon", (Answer("a", a.index("delta"), len(a)),)),
        # straddles chunks 1 and 2: no single chunk holds it (strict 0), both overlap it
        Question("2", "alpha delta", (Answer("a", a.index("gamma"), a.index(" epsilon")),)),
    ]
    data = Dataset("hand", "spans", DOCS, questions)
    report = evaluate(data, [Config("splitter", 20, 0, "chars")], k=2)
    (r,) = report["results"]
    assert r["boundaries"]["chunks"] == 3
    assert r["recall_strict"] == 0.5 and r["recall_lenient"] == 1.0
    assert r["mrr_strict"] == 0.5 and r["mrr_lenient"] == 1.0
    # q1 retrieves only chunk 2 (19 code points, all answer): P 1, R 1, IoU 1.
    # q2 retrieves chunks 1 and 2 ([0, 17) and [19, 38): 36 code points); the answer
    # "gamma.\n\ndelta" = [11, 24) is 13 code points, all retrieved but the blank line
    # [17, 19) between the chunks: 11 in common, union 36 + 13 - 11 = 38.
    assert r["span_precision"] == pytest.approx((1 + 11 / 36) / 2, abs=1e-6)
    assert r["span_recall"] == pytest.approx((1 + 11 / 13) / 2, abs=1e-6)
    assert r["span_iou"] == pytest.approx((1 + 11 / 38) / 2, abs=1e-6)
    assert r["retrieved"] == 1.5
    assert r["boundaries"]["coverage_pct"] == 100.0
    assert set(r["timing"]) == {"chunk_s", "index_s", "query_s", "ms_per_query"}


def test_same_inputs_same_numbers() -> None:
    docs = {
        "x.md": "\n\n".join(
            f"Sentence number {w} talks about the {w} lighthouse keeper today."
            for w in "one two three four five six seven eight nine ten".split()
        )
    }
    configs = [Config("markdown", 40, 0, "tokens"), Config("tokens", 30, 10, "tokens")]

    def run(seed: int) -> list[dict]:
        report = evaluate(synthetic_questions(docs, 8, seed=seed), configs, k=3)
        return [{k: v for k, v in r.items() if k != "timing"} for r in report["results"]]

    first = run(0)
    assert first == run(0)
    assert first != run(1)


def test_dense_run() -> None:
    text = (
        "The keeper lit the lamp at dusk every evening of the year.\n\n"
        "Ships passed the rocky point safely through the long winter nights."
    )
    data = synthetic_questions(
        {"d": text},
        5,
    )
    report = evaluate(
        data, [Config("splitter", 70, 0)], k=1, retriever="dense", embedder=as_embedder(letters)
    )
    assert report["retriever"] == "dense" and "query_embedding_s" in report["timing"]
    assert 0.0 <= report["results"][0]["recall_strict"] <= 1.0
    raw = evaluate(data, [Config("splitter", 70, 0)], k=1, retriever="dense", embedder=letters)
    assert raw["results"][0]["recall_strict"] == report["results"][0]["recall_strict"]
    with pytest.raises(ValueError, match="NaN"):
        evaluate(
            data,
            [Config("splitter", 70, 0)],
            retriever="dense",
            embedder=lambda t: letters(t) * np.nan,
        )
    with pytest.raises(ValueError, match="needs an embedder"):
        evaluate(data, [], retriever="dense")


TEXT_ALPHABET = st.sampled_from([*"ab Z_-.\n\t世界和平灯塔İßé́0", "ǅ", "\u00a0"])


@given(st.text(TEXT_ALPHABET, max_size=60), st.data())
def test_span_terms_equal_the_terms_of_the_span(text: str, data: st.DataObject) -> None:
    vocab: dict[str, int] = {}
    doc = DocTerms(text, vocab)
    for _ in range(5):
        a = data.draw(st.integers(0, len(text)))
        b = data.draw(st.integers(a, len(text)))
        ids = doc.span(text, a, b, vocab)
        inverse = {i: t for t, i in vocab.items()}
        assert [inverse[int(i)] for i in ids] == terms(text[a:b])


def test_span_terms_on_the_sample() -> None:
    docs = {p.name: p.read_text(encoding="utf-8") for p in sorted(SAMPLE.iterdir())}
    corpus = CorpusTerms(docs)
    spans = [
        (d, a, min(a + w, len(t)))
        for d, t in docs.items()
        for w in (7, 50, 333)
        for a in range(0, len(t), 97)
    ]
    got = corpus.chunks(spans)
    inverse = {i: t for t, i in corpus.vocab.items()}
    for (d, a, b), ids in zip(spans, got):
        assert [inverse[int(i)] for i in ids] == terms(docs[d][a:b])
