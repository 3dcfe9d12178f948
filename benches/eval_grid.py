"""Time of a 12-configuration retrieval grid on ../shared/corpus, and its results.

    python benches/eval_grid.py [--questions 1000] [--rounds 3] [--out eval-corpus]

The grid: ferrochunk's MarkdownChunker, Splitter and token windows x 200 / 400 cl100k tokens
x overlap 0 / 50, over synthetic questions (seed 0) and BM25, k = 5 — the same run as

    ferrochunk eval --data ../shared/corpus --questions 1000 \\
        --chunkers markdown,splitter,tokens --sizes 200,400 --overlaps 0,50

Prints the wall time of each round (median last) split into: reading the corpus, making the
questions, the documents' BM25 terms (once, shared by all configurations), then summed over
the configurations chunking, indexing, querying, and measuring (the rank and span measures,
cl100k counts, the boundary measures; the first configuration also parses every document
with markdown-it-py, cached for the rest); then the tables of the last round. Rounds are
independent (fresh objects; the cache of the Markdown parse is emptied between rounds), so
the median is a cold figure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from ferrochunk.eval import expand, load_documents, synthetic_questions
from ferrochunk.eval.boundaries import blocks
from ferrochunk.eval.report import tables, write_chart, write_json
from ferrochunk.eval.runner import evaluate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
import corpus


def one_round(questions: int) -> tuple[dict[str, float], dict]:
    blocks.cache_clear()
    t0 = time.perf_counter()
    docs, _ = load_documents(corpus.CORPUS)
    t1 = time.perf_counter()
    data = synthetic_questions(docs, questions, seed=0, name="shared corpus")
    t2 = time.perf_counter()
    configs, _ = expand(["markdown", "splitter", "tokens"], [200, 400], [0, 50], "tokens")
    report = evaluate(data, configs, k=5)
    t3 = time.perf_counter()
    runs = [r["timing"] for r in report["results"]]
    parts = {key: sum(t[key] for t in runs) for key in ("chunk_s", "index_s", "query_s")}
    terms = report["timing"]["document_terms_s"]
    times = {
        "read": t1 - t0,
        "questions": t2 - t1,
        "document terms": terms,
        **parts,
        "measures": (t3 - t2) - sum(parts.values()) - terms,
        "total": t3 - t0,
    }
    return times, report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default="eval-corpus")
    args = parser.parse_args()
    rounds = []
    report: dict = {}
    for _ in range(args.rounds):
        times, report = one_round(args.questions)
        rounds.append(times)
        print(" ".join(f"{k} {v:.2f} s" for k, v in times.items()), flush=True)
    keys = list(rounds[0])
    print("\n| step | " + " | ".join(keys) + " |")
    print("|---|" + "---|" * len(keys))
    median = {k: statistics.median(r[k] for r in rounds) for k in keys}
    print(f"| median of {args.rounds} (s) | " + " | ".join(f"{median[k]:.2f}" for k in keys) + " |")
    data = report["dataset"]
    print(
        f"\n{len(report['results'])} configurations, {data['questions']} questions, "
        f"{data['documents']} documents, {data['characters'] / 1e6:.2f} M code points\n"
    )
    print(tables(report))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_json(report, out / "eval.json")
    write_chart(report, out / "eval.png")


if __name__ == "__main__":
    main()
