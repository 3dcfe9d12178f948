"""Regression gate: the share of answers MarkdownChunker keeps whole in one chunk, on
labelled sets built from the shared corpus (no network; skips without the corpus).

The sets, from every third file of ``en-markdown``: answers markdown-it-py finds
(paragraphs, list items, table rows; a third two adjacent blocks), and the prose variants of
its paragraphs (plain, WikiText-tokenised, one-line JSON chat, hard-wrapped PDF-like;
answers 1-3 pysbd sentences, a third across a paragraph seam); 200 questions each, seed 0.
MarkdownChunker at 200 and 400 cl100k tokens, no overlap; the gated figure is the share of
all their answers pooled.
"""

from __future__ import annotations

import functools

import pytest

import corpus
from ferrochunk import MarkdownChunker, get_encoding
from ferrochunk.eval import (
    Dataset,
    answered_only,
    answers_whole,
    labelled_questions,
    paragraphs_of,
    prose_variants,
)

# Measured 2026-12-04 (this test, -s prints it) with the sentence layer that reads tokenised
# text, JSON escapes and list items, full pieces, and oversize paragraphs filling the chunk
# before them: pooled 89.90 % over the 5 sets x 2 sizes (docs-md 89.4 / 96.0, prose-plain
# 84.9 / 91.5, prose-wikitext 84.9 / 89.9, prose-chat 88.4 / 96.0, prose-pdf 84.9 / 93.0 at
# 200 / 400 tokens; main at 1ac549f read 89.35 %); the floor is that less one point. A
# change of the cut rules moves it: run this file with -s and set FLOOR to the new pooled
# share less one point.
FLOOR = 0.8890
SIZES = (200, 400)
QUESTIONS = 200
EVERY = 3  # every third file of en-markdown (in path order): 38 files, ~0.4 MB, a few seconds


@functools.cache
def sets() -> tuple[Dataset, ...]:
    files = [p for p in corpus.paths("en-markdown") if p.suffix == ".md"][::EVERY]
    docs = {p.name: p.read_text(encoding="utf-8") for p in files}
    labelled = labelled_questions(docs, QUESTIONS, seed=0, name="docs-md")
    variants = prose_variants(paragraphs_of(docs), QUESTIONS, seed=0)
    return tuple(answered_only(d) for d in (labelled, *variants.values()))


def whole(data: Dataset, chunks: dict[str, list[tuple[int, int]]]) -> int:
    """Answers held by one chunk, counted plainly (every chunk tried)."""
    held = 0
    for q in data.questions:
        lo = min(a.start for a in q.answers)  # type: ignore[type-var]
        hi = max(a.end for a in q.answers)  # type: ignore[type-var]
        doc = q.answers[0].doc_id
        held += any(a <= lo and hi <= b for a, b in chunks[doc])
    return held


def test_markdown_chunker_keeps_answers_whole() -> None:
    corpus.require()
    length = get_encoding("cl100k_base").length_function()
    held = total = 0
    shares = []
    for size in SIZES:
        chunker = MarkdownChunker(size, chunk_overlap=0, length_function=length)
        for data in sets():
            chunks = {
                d: [(c.start, c.end) for c in chunker.split(t)] for d, t in data.documents.items()
            }
            n = whole(data, chunks)
            assert answers_whole(data.questions, chunks) == pytest.approx(n / len(data.questions))
            held, total = held + n, total + len(data.questions)
            shares.append(f"{data.name} {size}: {100 * n / len(data.questions):.1f} %")
    pooled = held / total
    print(f"\nanswers whole, MarkdownChunker: {'; '.join(shares)}; pooled {100 * pooled:.2f} %")
    assert pooled >= FLOOR, f"pooled {pooled:.4f} < floor {FLOOR}: {'; '.join(shares)}"


def test_the_gate_sets_cross_seams() -> None:
    corpus.require()
    for data in sets():
        several = sum(len(q.answers) > 1 for q in data.questions)
        assert len(data.questions) >= 150 and several >= len(data.questions) // 4, data.name
