"""Runs a grid of chunker configurations over one dataset and measures each.

For every configuration: chunk every document, count the answers that lie whole in one
chunk (:mod:`.whole`, no retriever), put all the chunks in one index (BM25, or dense
vectors), ask every question, and score the top ``k`` chunks (:mod:`.measures`); then the
model-free boundary measures of the same chunks (:mod:`.boundaries`). Timings are kept
apart (``timing``) from the measures, which are the same on every run with the same inputs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from ..frontend.structure import format_for_path
from .bm25 import BM25, CorpusTerms
from .boundaries import boundary_measures
from .chunkers import ENCODING, Config, Skip, Spans, build
from .data import Dataset
from .dense import Dense, as_embedder, normalise
from .measures import Hit, rank_scores, span_scores
from .whole import DEFINED, UNDEFINED, answers_whole

Log = Callable[[str], None]


@dataclass
class Result:
    """Measures of one configuration (``skipped`` says why there are none)."""

    config: Config
    measures: dict[str, Any] = field(default_factory=dict)
    boundaries: dict[str, Any] = field(default_factory=dict)
    timing: dict[str, float] = field(default_factory=dict)
    skipped: Optional[str] = None
    # Questions whose answer no top-k chunk holds whole, with the chunk boundaries inside
    # the answer (for ``eval --html``; not part of the JSON form).
    missed: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form."""
        c = self.config
        head = {"chunker": c.chunker, "size": c.size, "overlap": c.overlap, "unit": c.unit}
        if self.skipped:
            return {**head, "skipped": self.skipped}
        return {**head, **self.measures, "boundaries": self.boundaries, "timing": self.timing}


@dataclass
class Chunks:
    """The chunks of every document under one configuration, flattened."""

    docs: list[str]
    starts: list[int]
    ends: list[int]
    texts: list[str]
    per_doc: list[Spans]


def chunk_all(dataset: Dataset, split: Callable[[str], Spans]) -> Chunks:
    """Chunks of every document, in document order."""
    out = Chunks([], [], [], [], [])
    by_path = getattr(split, "by_path", False)  # a chunker that reads the file suffix
    for doc_id, text in dataset.documents.items():
        spans = split(text, doc_id) if by_path else split(text)  # type: ignore[call-arg]
        out.per_doc.append(spans)
        for a, b in spans:
            out.docs.append(doc_id)
            out.starts.append(a)
            out.ends.append(b)
            out.texts.append(text[a:b])
    return out


def evaluate(
    dataset: Dataset,
    configs: Sequence[Config],
    *,
    k: int = 5,
    retriever: str = "bm25",
    embedder: Optional[Any] = None,
    log: Optional[Log] = None,
    missed: bool = False,
) -> dict[str, Any]:
    """Measure every configuration; the report as a JSON-ready dict (see :mod:`.report`).
    ``embedder`` (for ``retriever="dense"``) is anything :func:`.dense.as_embedder` takes.
    ``missed``: the report's ``missed`` has, per configuration label, the first questions
    missed and the chunk boundaries inside their answers (``eval --html``)."""
    if k <= 0:
        raise ValueError(f"k must be > 0, got {k}")
    if retriever not in ("bm25", "dense"):
        raise ValueError(f"retriever must be 'bm25' or 'dense', got {retriever!r}")
    if retriever == "dense" and embedder is None:
        raise ValueError("retriever 'dense' needs an embedder")
    say = log or (lambda _: None)
    queries = [q.query for q in dataset.questions]
    run_timing: dict[str, float] = {}
    t0 = time.perf_counter()
    qvecs = embed = None
    if retriever == "dense" and embedder is not None:
        embed = as_embedder(embedder)
        qvecs = normalise(embed(queries))
        run_timing["query_embedding_s"] = time.perf_counter() - t0
    terms = None
    if retriever == "bm25":  # the documents' terms, shared by every configuration
        terms = CorpusTerms(dataset.documents)
        run_timing["document_terms_s"] = time.perf_counter() - t0
    results = []
    for n, config in enumerate(configs, 1):
        try:
            retrieve = terms if terms is not None else (embed, qvecs)
            result = _one(dataset, config, k, retrieve)
        except Skip as why:
            result = Result(config, skipped=str(why))
        results.append(result)
        say(f"[{n}/{len(configs)}] {config.label}: {_brief(result, k)}")
    shown = {"missed": {r.config.label: r.missed for r in results}} if missed else {}
    return {
        **shown,
        "dataset": dataset.summary(),
        "k": k,
        "retriever": retriever,
        "size_units": {"chars": "code points", "tokens": ENCODING},
        "answers_whole": DEFINED if dataset.kind != "beir" else UNDEFINED,
        "results": [r.as_dict() for r in results],
        "timing": run_timing,
    }


def _brief(result: Result, k: int) -> str:
    if result.skipped:
        return f"skipped ({result.skipped})"
    m, t = result.measures, result.timing
    whole = "n/a" if m["answers_whole"] is None else f"{100 * m['answers_whole']:.1f} %"
    return (
        f"{result.boundaries['chunks']} chunks, answers whole {whole}, "
        f"strict R@{k} {m['recall_strict']:.3f}, "
        f"{m['context_tokens']:.0f} tokens/query, "
        f"{t['chunk_s'] + t['index_s'] + t['query_s']:.2f} s"
    )


def _one(dataset: Dataset, config: Config, k: int, retriever: Any) -> Result:
    """One configuration; ``retriever`` is the corpus's terms (BM25) or (embedder, query
    vectors)."""
    from .. import get_encoding

    split = build(config)
    t0 = time.perf_counter()
    chunks = chunk_all(dataset, split)
    t1 = time.perf_counter()
    if isinstance(retriever, CorpusTerms):
        spans = list(zip(chunks.docs, chunks.starts, chunks.ends))
        bm25 = BM25.from_ids(retriever.chunks(spans), retriever.vocab)
        t2 = time.perf_counter()
        ranked = [bm25.search(q.query, k) for q in dataset.questions]
    else:
        embedder, qvecs = retriever
        dense = Dense(chunks.texts, embedder)
        t2 = time.perf_counter()
        ranked = dense.search_vectors(qvecs, k)
    t3 = time.perf_counter()
    tokens = get_encoding(ENCODING).count_batch(chunks.texts)
    measures: dict[str, Any] = _measures(dataset, chunks, ranked, tokens, k)
    whole = answers_whole(dataset.questions, dict(zip(dataset.documents, chunks.per_doc)))
    measures["answers_whole"] = None if whole is None else round(whole, 6)
    missed = _missed(dataset, chunks, ranked, k)
    texts = list(dataset.documents.values())
    length = get_encoding(ENCODING).length_function() if config.unit == "tokens" else len
    formats = [format_for_path(d, "markdown") or "markdown" for d in dataset.documents]
    bounds = boundary_measures(texts, chunks.per_doc, config.size, length, formats)
    timing = {
        "chunk_s": t1 - t0,
        "index_s": t2 - t1,
        "query_s": t3 - t2,
        "ms_per_query": 1000 * (t3 - t2) / max(len(dataset.questions), 1),
    }
    return Result(config, measures, bounds, timing, missed=missed)


MISSED_SHOWN = 25  # per configuration, in question order


def _missed(
    dataset: Dataset, chunks: Chunks, ranked: list[list[int]], k: int
) -> list[dict[str, Any]]:
    """The first questions (of those with span answers) whose answer no top-``k`` chunk
    holds whole, each with the chunk boundaries that fall inside its answer."""
    per_doc = dict(zip(dataset.documents, chunks.per_doc))
    out: list[dict[str, Any]] = []
    for q, idx in zip(dataset.questions, ranked):
        if len(out) >= MISSED_SHOWN:
            break
        spans = [a for a in q.answers if a.start is not None and a.end is not None]
        if not spans:
            continue
        hits: list[Hit] = [(chunks.docs[i], chunks.starts[i], chunks.ends[i]) for i in idx]
        if rank_scores(hits, q.answers, k, strict=True)[0] >= 1.0:
            continue
        a = spans[0]
        lo, hi = a.start or 0, a.end or 0  # spans: both set
        inside = sorted({p for s, e in per_doc.get(a.doc_id, []) for p in (s, e) if lo < p < hi})
        out.append(
            {
                "qid": q.qid,
                "query": q.query,
                "doc": a.doc_id,
                "start": a.start,
                "end": a.end,
                "cuts": inside,
            }
        )
    return out


def _measures(
    dataset: Dataset, chunks: Chunks, ranked: list[list[int]], tokens: list[int], k: int
) -> dict[str, float]:
    lengths = {d: len(t) for d, t in dataset.documents.items()}
    rows = []
    for q, idx in zip(dataset.questions, ranked):
        hits: list[Hit] = [(chunks.docs[i], chunks.starts[i], chunks.ends[i]) for i in idx]
        strict = rank_scores(hits, q.answers, k, strict=True)
        lenient = rank_scores(hits, q.answers, k, strict=False)
        spans = span_scores(hits, q.answers, lengths)
        rows.append([*strict, *lenient, *spans, sum(tokens[i] for i in idx), len(idx)])
    mean = np.mean(np.asarray(rows, dtype=np.float64), axis=0) if rows else np.zeros(11)
    names = (
        "recall_strict mrr_strict ndcg_strict recall_lenient mrr_lenient ndcg_lenient "
        "span_precision span_recall span_iou context_tokens retrieved"
    ).split()
    out = {name: round(float(v), 6) for name, v in zip(names, mean)}
    out["chunk_tokens_mean"] = round(float(np.mean(tokens)) if tokens else 0.0, 3)
    return out
