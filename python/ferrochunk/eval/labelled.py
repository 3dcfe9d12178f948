"""Span-labelled questions from real documents, with answers found by an independent
parser (:mod:`.parsed`), not by any chunker's rules: each answer is one block (a paragraph,
list item, definition-list item or table row) at its exact offsets, each question the
block's words with a share held out (as the synthetic questions, :func:`.synthetic.make_query`).

Blocks of ``min_words``-``max_words`` words whose text occurs once in the corpus are the
candidates; ``n`` of them are drawn with a seeded ``random.Random``. What the parser saw but
could not map exactly is counted in the notes, by kind. :func:`write_spans` writes a set as
the span JSONL that ``ferrochunk eval --data questions.jsonl --docs docs.jsonl`` reads.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Callable

from .data import Answer, Dataset, Question
from .draw import words
from .parsed import Parsed, markdown_blocks, rst_blocks
from .synthetic import make_query

PARSERS: dict[str, Callable[[str], tuple[list[Parsed], Counter[str]]]] = {
    ".md": markdown_blocks,
    ".markdown": markdown_blocks,
    ".rst": rst_blocks,
}


def parser_for(doc_id: str) -> Callable[[str], tuple[list[Parsed], Counter[str]]]:
    """The parser of a document by its suffix (``ValueError`` for one there is none for)."""
    for suffix, parse in PARSERS.items():
        if doc_id.lower().endswith(suffix):
            return parse
    raise ValueError(f"{doc_id}: no parser for this suffix (have {', '.join(PARSERS)})")


def labelled_questions(
    documents: dict[str, str],
    n: int = 500,
    *,
    seed: int = 0,
    hold_out: float = 0.5,
    min_words: int = 8,
    max_words: int = 120,
    name: str = "labelled",
) -> Dataset:
    """Up to ``n`` questions whose answers are parsed blocks of ``documents`` (see the
    module docstring), in document order."""
    if not documents:
        raise ValueError("the corpus is empty (no documents)")
    corpus = "\x00".join(documents.values())
    found: list[tuple[str, Parsed]] = []
    lost: Counter[str] = Counter()
    repeated = 0
    for doc_id, text in documents.items():
        blocks, missed = parser_for(doc_id)(text)
        lost.update(missed)
        for b in blocks:
            if min_words <= words(text[b.start : b.end]) <= max_words:
                if corpus.count(text[b.start : b.end]) == 1:
                    found.append((doc_id, b))
                else:
                    repeated += 1
    if not found:
        raise ValueError(f"no block of {min_words}-{max_words} words occurs once in the corpus")
    rng = random.Random(seed)
    picked = sorted(rng.sample(range(len(found)), min(n, len(found))))
    questions = []
    for i in picked:
        doc_id, b = found[i]
        query = make_query(documents[doc_id][b.start : b.end], rng, hold_out)
        questions.append(Question(f"lab-{i}", query, (Answer(doc_id, b.start, b.end),)))
    kinds = Counter(found[i][1].kind for i in picked)
    notes = {
        "labelled": f"parsed blocks (markdown-it-py, docutils), {hold_out:.0%} of words held "
        f"out, seed {seed}",
        "segmenter": "markdown-it-py / docutils blocks",
        "answers by kind": dict(sorted(kinds.items())),
        "blocks not mapped exactly (skipped)": dict(sorted(lost.items())),
        "blocks left out (text repeated in the corpus)": repeated,
    }
    return Dataset(name, "spans", dict(documents), questions, notes)


def write_spans(dataset: Dataset, folder: Path) -> tuple[Path, Path]:
    """``questions.jsonl`` and ``docs.jsonl`` of a span set in ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    docs, questions = folder / "docs.jsonl", folder / "questions.jsonl"
    with docs.open("w", encoding="utf-8") as f:
        for doc_id, text in dataset.documents.items():
            f.write(json.dumps({"_id": doc_id, "text": text}, ensure_ascii=False) + "\n")
    with questions.open("w", encoding="utf-8") as f:
        for q in dataset.questions:
            spans = [[a.start, a.end] for a in q.answers]
            row = {"id": q.qid, "query": q.query, "doc_id": q.answers[0].doc_id}
            f.write(json.dumps({**row, "answers": spans}, ensure_ascii=False) + "\n")
    return questions, docs
