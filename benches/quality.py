"""Chunk quality of every ferrochunk chunker and the peers; prints Markdown tables.

    python benches/quality.py [--questions 500] [--sizes 200,400,800] [--skip-dense]

1. **Boundaries** (model-free, ``ferrochunk.eval.boundaries``) at 1000 characters, no
   overlap, on the shared corpus (English and Chinese Markdown, English prose) and, when
   ``benches/fetch_corpora.py`` has filled ``~/.cache/ferrochunk-corpora``, on real
   reStructuredText (Sphinx, docutils, SQLAlchemy docs) and AsciiDoc (Git's docs). Each
   document is judged in its own markup (``formats=``).
2. **Retrieval** on the shared corpus at equal budgets in cl100k tokens, BM25 and the
   offline wordllama model, Recall@5 strict, on a harder labelled set than the suite's
   synthetic mode: every answer is a run of two or three consecutive sentences of one
   paragraph, asked with 60 % of its words held out (seeded, reproducible). A chunker
   scores only when the whole run is inside one retrieved chunk, so cutting between the
   sentences of an answer costs it; ``tokens/q`` is the context it sent.

Chunkers: ferrochunk ``text`` (``TextChunker``/``MarkdownChunker``, format by file
suffix), ``splitter`` (``Splitter``, LangChain's algorithm with offsets); LangChain's
``RecursiveCharacterTextSplitter``, semantic-text-splitter, chonkie ``RecursiveChunker``,
semchunk (the ``bench`` extra; a missing one is skipped).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ferrochunk.eval import Config, evaluate
from ferrochunk.eval.boundaries import boundary_measures
from ferrochunk.eval.chunkers import Skip, build
from ferrochunk.eval.dense import wordllama
from ferrochunk.eval.synthetic import paragraphs, sentence_spans, synthetic_questions
from ferrochunk.frontend.structure import format_for_path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
import corpus

CACHE = Path.home() / ".cache" / "ferrochunk-corpora"
CHUNKERS = (
    "text",
    "splitter",
    "langchain",
    "semantic-text-splitter",
    "chonkie-recursive",
    "semchunk",
)
Spans = list[tuple[int, int]]


def corpora() -> dict[str, dict[str, str]]:
    """Name -> {document id (path with its suffix): text}."""
    out = {}
    for name in corpus.NAMES:
        out[name] = {
            str(p.relative_to(corpus.CORPUS)): p.read_text("utf-8") for p in corpus.files(name)
        }
    for fmt, suffix in (("rst", ".rst"), ("asciidoc", ".adoc")):
        paths = sorted((CACHE / fmt).rglob(f"*{suffix}"))
        if paths:
            out[fmt] = {str(p.relative_to(CACHE)): p.read_text("utf-8") for p in paths}
    return out


def boundaries(docs: dict[str, str], chunker: str, size: int) -> dict[str, float]:
    split = build(Config(chunker, size, 0, "chars"))
    by_path = getattr(split, "by_path", False)
    ids, texts = list(docs), list(docs.values())
    spans = [split(t, d) if by_path else split(t) for d, t in zip(ids, texts)]
    formats = [format_for_path(d, "markdown") or "markdown" for d in ids]
    return boundary_measures(texts, spans, size, formats=formats)


def runs(text: str) -> Spans:
    """Answers: consecutive sentences of one paragraph, three at a time (two at the end)."""
    sentences = sentence_spans(text)
    out, k = [], 0
    for a, b in paragraphs(text):
        group = []
        while k < len(sentences) and sentences[k][0] < b:
            if sentences[k][0] >= a:
                group.append(sentences[k])
            k += 1
        for i in range(0, len(group) - 1, 3):
            run = group[i : i + 3]
            out.append((run[0][0], run[-1][1]))
    return out


def boundary_table(size: int) -> None:
    print(f"### Boundaries at {size} characters, no overlap\n")
    head = "| corpus | chunker | chunks | mid-sentence % | code/tables cut % | tiny % |"
    print(head + " dangling headings % | coverage % |")
    print("|---|---|---|---|---|---|---|---|")
    for name, docs in corpora().items():
        for chunker in CHUNKERS:
            try:
                m = boundaries(docs, chunker, size)
            except Skip as why:
                print(f"<!-- {chunker}: {why} -->", file=sys.stderr)
                continue
            print(
                f"| {name} | {chunker} | {m['chunks']} | {m['mid_sentence_pct']:.2f} | "
                f"{m['cut_blocks_pct']:.2f} | {m['tiny_pct']:.2f} | "
                f"{m['dangling_headings_pct']:.2f} | {m['coverage_pct']:.1f} |"
            )
    print()


def retrieval_table(n: int, sizes: list[int], retrievers: list[str]) -> None:
    docs: dict[str, str] = {}
    for name in corpus.NAMES:
        docs.update(corpora()[name])
    data = synthetic_questions(
        docs, n, seed=0, hold_out=0.6, min_words=16, max_words=150, sentences=runs, name="runs"
    )
    print(f"### Retrieval: {len(data.questions)} multi-sentence questions, top 5\n")
    print("| retriever | chunker | " + " | ".join(f"{s} tok R@5 / tokens/q" for s in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    for retriever in retrievers:
        configs = [Config(c, s, 0, "tokens") for c in CHUNKERS for s in sizes]
        embedder = wordllama() if retriever == "dense" else None
        report = evaluate(data, configs, k=5, retriever=retriever, embedder=embedder)
        cells: dict[str, dict[int, str]] = {}
        for row in report["results"]:  # flat rows: configuration and measures side by side
            if "skipped" in row:
                print(f"<!-- {row['chunker']}: {row['skipped']} -->", file=sys.stderr)
                continue
            cells.setdefault(row["chunker"], {})[row["size"]] = (
                f"{100 * row['recall_strict']:.1f} % / {row['context_tokens']:.0f}"
            )
        for chunker in CHUNKERS:
            if chunker in cells:
                row = " | ".join(cells[chunker].get(s, "-") for s in sizes)
                print(f"| {retriever} | {chunker} | {row} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--sizes", default="200,400,800")
    parser.add_argument("--boundary-size", type=int, default=1000)
    parser.add_argument("--skip-dense", action="store_true")
    parser.add_argument("--skip-boundaries", action="store_true")
    args = parser.parse_args()
    t0 = time.perf_counter()
    if not args.skip_boundaries:
        boundary_table(args.boundary_size)
    retrievers = ["bm25"] if args.skip_dense else ["bm25", "dense"]
    retrieval_table(args.questions, [int(s) for s in args.sizes.split(",")], retrievers)
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
