"""Why ferrochunk.eval has its own BM25: times it against bm25s on the same terms, checks
that both rank the same, and times bm25s's own tokenizer for reference.

    python benches/bm25_choice.py [--size 200] [--questions 1000]

The chunks are MarkdownChunker chunks (``--size`` cl100k tokens) of ../shared/corpus; the
queries are synthetic questions (ferrochunk.eval.synthetic). Times are wall-clock medians
of ``--rounds`` runs, each on fresh objects; both indexes get the same pre-made term lists
(our tokenizer's time is reported apart, it is the same for both).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
import corpus


def timed(fn: Callable[[], Any], rounds: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(rounds):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main() -> None:
    import bm25s
    import numpy as np

    from ferrochunk.eval import Config, build, load_documents, synthetic_questions
    from ferrochunk.eval.bm25 import BM25, terms

    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()
    docs, _ = load_documents(corpus.CORPUS)
    split = build(Config("markdown", args.size, 0, "tokens"))
    chunks = [text[a:b] for text in docs.values() for a, b in split(text)]
    queries = [q.query for q in synthetic_questions(docs, args.questions, seed=0).questions]
    t_terms, corpus_terms = timed(lambda: [terms(c) for c in chunks], args.rounds)
    query_terms = [terms(q) for q in queries]
    t_ours, ours = timed(lambda: BM25(chunks), args.rounds)
    t_ours_q, ranked = timed(lambda: [ours.search(q, args.k) for q in queries], args.rounds)

    def bm25s_index() -> Any:
        r = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
        r.index(corpus_terms, show_progress=False)
        return r

    t_theirs, theirs = timed(bm25s_index, args.rounds)
    known = [[t for t in q if t in theirs.vocab_dict] or ["the"] for q in query_terms]
    t_theirs_q, (res, _scores) = timed(
        lambda: theirs.retrieve(known, k=args.k, show_progress=False, n_threads=1), args.rounds
    )
    t_tok, _ = timed(lambda: bm25s.tokenize(chunks, stopwords=None, show_progress=False), 1)
    same = np.mean([r == list(x[: len(r)]) for r, x in zip(ranked, res)])
    print(f"{len(chunks)} chunks ({args.size} tokens), {len(queries)} queries, k = {args.k}\n")
    print("| step | ferrochunk.eval.bm25 | bm25s |")
    print("|---|---|---|")
    print(f"| terms of the chunks (same) | {t_terms:.2f} s | (bm25s.tokenize: {t_tok:.2f} s) |")
    index = t_ours - t_terms
    print(f"| index from the terms | {index:.2f} s (of {t_ours:.2f} s) | {t_theirs:.2f} s |")
    print(f"| {len(queries)} queries | {t_ours_q:.2f} s | {t_theirs_q:.2f} s |")
    print(f"\nsame top-{args.k} ranking: {100 * same:.1f} % of queries")


if __name__ == "__main__":
    main()
