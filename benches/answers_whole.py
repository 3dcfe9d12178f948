"""Answers whole in one chunk, per set x chunker x size: the figures for choosing cut rules.

    python benches/answers_whole.py                       # every set, chunker and size
    python benches/answers_whole.py --sets prose-pdf --chunkers markdown --sizes 200
    python benches/answers_whole.py --recall --json       # + strict Recall@5 (BM25); JSON
    python benches/answers_whole.py --recall --dense      # + the offline wordllama model

Sets: the labelled ones of ``benches/labelled_docs.py`` (read from its cache, built there
first when missing; ``--offline`` builds what needs no fetching, in memory) and
``synthetic``: synthetic questions over ``../shared/corpus``, read in place. Each chunker
runs at each size in cl100k tokens, no overlap, over the documents that hold an answer;
a peer that is not installed is skipped with a message. Columns: answers whole %, chunks,
mean cl100k tokens per chunk, whole % of the one-span answers and of those over a seam
(several spans) apart (and, with ``--recall``, strict Recall@5 and the context tokens per
question, BM25 over the same documents; ``--dense`` adds the same with the offline
wordllama model).
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # labelled_docs.py
import labelled_docs
from ferrochunk import get_encoding
from ferrochunk.eval import (
    Config,
    Dataset,
    answered_only,
    answers_whole,
    evaluate,
    load_documents,
    synthetic_questions,
)
from ferrochunk.eval.chunkers import ENCODING, Skip, build
from ferrochunk.eval.dense import wordllama
from ferrochunk.eval.runner import chunk_all

CHUNKERS = (
    "markdown",
    "text",
    "splitter",
    "langchain",
    "chonkie-recursive",
    "semchunk",
    "semantic-text-splitter",
)
SETS = (*labelled_docs.SETS, "synthetic")
ROOT = Path(__file__).resolve().parents[1]


def datasets(names: list[str], args: argparse.Namespace) -> dict[str, Dataset]:
    """The chosen sets, by name."""
    cache = args.cache.expanduser()
    labelled = [n for n in names if n in labelled_docs.SETS]
    found = labelled_docs.load(cache) if labelled and not args.offline else {}
    if any(n not in found for n in labelled):
        print("building the labelled sets (benches/labelled_docs.py) ...", file=sys.stderr)
        built = labelled_docs.build(cache, args.questions, 0, offline=args.offline)
        if not args.offline:
            for name, data in built.items():
                labelled_docs.write_spans(data, cache / "labelled" / name)
        found = built
    out = {n: found[n] for n in labelled if n in found}
    for n in labelled:
        if n not in found:
            print(f"<!-- {n}: not built (--offline has no docs-rst) -->", file=sys.stderr)
    if "synthetic" in names:
        if not labelled_docs.corpus.CORPUS.is_dir():
            sys.exit(f"answers_whole: {labelled_docs.corpus.MISSING}")
        docs, _ = load_documents(labelled_docs.corpus.CORPUS)
        data = synthetic_questions(docs, args.questions, seed=0, name="synthetic")
        out["synthetic"] = answered_only(data)
    return out


def measure(data: Dataset, config: Config, recall: bool, embedder: Any = None) -> dict[str, Any]:
    """Answers whole, chunks and mean tokens of one configuration on one set."""
    t0 = time.perf_counter()
    split = build(config)
    chunks = chunk_all(data, split)
    per_doc = dict(zip(data.documents, chunks.per_doc))
    whole = answers_whole(data.questions, per_doc)
    one = [q for q in data.questions if len(q.answers) == 1]
    several = [q for q in data.questions if len(q.answers) > 1]
    tokens = get_encoding(ENCODING).count_batch(chunks.texts)
    row = {
        "chunker": config.chunker,
        "size": config.size,
        "answers_whole_pct": round(100 * (whole or 0.0), 2),
        "one_span_whole_pct": _pct(answers_whole(one, per_doc)),
        "several_spans_whole_pct": _pct(answers_whole(several, per_doc)),
        "chunks": len(chunks.texts),
        "tokens_per_chunk": round(sum(tokens) / max(len(tokens), 1), 1),
        "seconds": round(time.perf_counter() - t0, 2),
    }
    if recall:
        report = evaluate(data, [config], k=5)["results"][0]
        row["recall_strict_at_5_pct"] = round(100 * report["recall_strict"], 2)
        row["context_tokens"] = round(report["context_tokens"])
    if embedder is not None:
        report = evaluate(data, [config], k=5, retriever="dense", embedder=embedder)["results"][0]
        row["dense_recall_strict_at_5_pct"] = round(100 * report["recall_strict"], 2)
    return row


def _pct(share: float | None) -> float | None:
    return None if share is None else round(100 * share, 2)


def run_info(argv: list[str]) -> dict[str, str]:
    """The exact command, the date and the commit (``+dirty`` with local changes)."""

    def git(*cmd: str) -> str:
        done = subprocess.run(["git", "-C", str(ROOT), *cmd], capture_output=True, text=True)
        return done.stdout.strip()

    dirty = "+dirty" if git("status", "--porcelain", "--untracked-files=no") else ""
    return {
        "command": shlex.join(["python", "benches/answers_whole.py", *argv]),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": git("rev-parse", "--short", "HEAD") + dirty,
    }


def table(name: str, data: Dataset, rows: list[dict[str, Any]], recall: bool) -> str:
    """One set's Markdown table."""
    seams = sum(len({a.start for a in q.answers}) > 1 for q in data.questions)
    dense = any("dense_recall_strict_at_5_pct" in r for r in rows)
    head = ["chunker", "size", "whole %", "1 span %", "seam %", "chunks", "tokens/chunk"]
    head += ["R@5 strict %", "tokens/q"] if recall else []
    head += ["dense R@5 strict %"] if dense else []
    lines = [
        f"### {name}: {len(data.questions)} answers ({seams} of several spans) "
        f"over {len(data.documents)} documents; drawn by {data.notes.get('segmenter', '?')}",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for r in rows:
        cells = [
            r["chunker"],
            f"{r['size']} tok",
            f"{r['answers_whole_pct']:.1f}",
            _cell(r["one_span_whole_pct"]),
            _cell(r["several_spans_whole_pct"]),
            str(r["chunks"]),
            f"{r['tokens_per_chunk']:.0f}",
        ]
        if recall:
            cells += [f"{r['recall_strict_at_5_pct']:.1f}", str(r["context_tokens"])]
        if dense:
            cells.append(f"{r['dense_recall_strict_at_5_pct']:.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def summary(results: dict[str, list[dict[str, Any]]], sizes: list[int]) -> str:
    """Answers whole % of every chunker (rows) on every set and size (columns)."""
    cols = [(s, z) for s in results for z in sizes]
    head = ["chunker"] + [f"{s} {z}" for s, z in cols]
    chunkers = list(dict.fromkeys(r["chunker"] for rows in results.values() for r in rows))
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in chunkers:
        cells = []
        for s, z in cols:
            hit = [r for r in results[s] if r["chunker"] == c and r["size"] == z]
            cells.append(f"{hit[0]['answers_whole_pct']:.1f}" if hit else "-")
        lines.append("| " + " | ".join([c, *cells]) + " |")
    return "\n".join(lines)


def names(value: str, allowed: tuple[str, ...], option: str) -> list[str]:
    out = [v.strip() for v in value.split(",") if v.strip()]
    bad = [v for v in out if v not in allowed]
    if bad or not out:
        sys.exit(f"answers_whole: {option} {value!r}: choose from {', '.join(allowed)}")
    return out


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "--sets", default=",".join(SETS), help="comma-separated, from: " + ", ".join(SETS)
    )
    p.add_argument("--chunkers", default=",".join(CHUNKERS), help="comma-separated chunker names")
    p.add_argument("--sizes", default="200,400", help="comma-separated cl100k token sizes")
    p.add_argument(
        "--questions", type=int, default=1000, help="questions per set when built (cached: as is)"
    )
    p.add_argument("--recall", action="store_true", help="also strict Recall@5 with BM25")
    p.add_argument(
        "--dense", action="store_true", help="also strict Recall@5 with the wordllama model"
    )
    p.add_argument("--json", action="store_true", help="also print the results as JSON")
    p.add_argument("--offline", action="store_true", help="fetch nothing (no docs-rst)")
    p.add_argument("--cache", type=Path, default=labelled_docs.DEFAULT_CACHE)
    args = p.parse_args(argv)
    from ferrochunk.eval import CHUNKERS as KNOWN

    chosen = names(args.chunkers, tuple(KNOWN), "--chunkers")
    try:
        sizes = [int(z) for z in args.sizes.split(",")]
    except ValueError:
        sys.exit(f"answers_whole: --sizes {args.sizes!r}: comma-separated integers")
    sets = datasets(names(args.sets, SETS, "--sets"), args)
    embedder = wordllama() if args.dense else None
    info = run_info(argv)
    print(f"`{info['command']}` — {info['date']}, commit {info['commit']}\n")
    results: dict[str, list[dict[str, Any]]] = {}
    for name, data in sets.items():
        rows = []
        for chunker in chosen:
            for size in sizes:
                try:
                    config = Config(chunker, size, 0, "tokens")
                    rows.append(measure(data, config, args.recall, embedder))
                except Skip as why:
                    print(f"<!-- {name} {chunker}: skipped ({why}) -->", file=sys.stderr)
                    break
        results[name] = rows
        print(table(name, data, rows, args.recall) + "\n", flush=True)
    print("### answers whole % (set and size across)\n")
    print(summary(results, sizes))
    if args.json:
        print(json.dumps({**info, "results": results}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
