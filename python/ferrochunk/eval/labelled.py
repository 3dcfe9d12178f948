"""Span-labelled questions from real documents, with answers found by an independent
parser (:mod:`.parsed`), not by any chunker's rules: each answer is one block (a paragraph,
list item, definition-list item or table row) at its exact offsets, or, for a third of
them, two adjacent blocks (only blank lines or a list marker between: one span each, as an
answer running over a paragraph seam); each question is the answer's words with a share
held out (as the synthetic questions, :func:`.synthetic.make_query`).

Answers of ``min_words``-``max_words`` words whose blocks' texts occur once in the corpus are
the candidates; ``n`` of them are drawn with a seeded ``random.Random``. What the parser saw but
could not map exactly is counted in the notes, by kind. :func:`write_spans` writes a set as
the span JSONL that ``ferrochunk eval --data questions.jsonl --docs docs.jsonl`` reads.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Callable

from .._atomic import replaced
from .data import Answer, Dataset, Question
from .draw import blocks_of, words
from .parsed import Parsed, markdown_blocks, rst_blocks
from .synthetic import make_query

PARSERS: dict[str, Callable[[str], tuple[list[Parsed], Counter[str]]]] = {
    ".md": markdown_blocks,
    ".markdown": markdown_blocks,
    ".rst": rst_blocks,
}


Candidate = tuple[str, tuple[Parsed, ...]]  # (document id, its blocks: one, or two adjacent)


def _pick(candidates: list[Candidate], k: int, rng: random.Random) -> list[Candidate]:
    return [
        candidates[i] for i in sorted(rng.sample(range(len(candidates)), min(k, len(candidates))))
    ]


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
    max_words: int = 150,
    seam_share: float = 1 / 3,
    name: str = "labelled",
) -> Dataset:
    """Up to ``n`` questions whose answers are parsed blocks of ``documents`` (see the
    module docstring), in document order."""
    if not documents:
        raise ValueError("the corpus is empty (no documents)")
    corpus = "\x00".join(documents.values())
    singles: list[Candidate] = []
    pairs: list[Candidate] = []
    lost: Counter[str] = Counter()
    repeated = 0
    for doc_id, text in documents.items():
        blocks, missed = parser_for(doc_id)(text)
        lost.update(missed)
        ok = [corpus.count(text[b.start : b.end]) == 1 for b in blocks]
        repeated += ok.count(False)
        seams = blocks_of(doc_id, text, [(b.start, b.end) for b in blocks])
        for i, b in enumerate(blocks):
            size = words(text[b.start : b.end])
            if ok[i] and min_words <= size <= max_words:
                singles.append((doc_id, (b,)))
            if ok[i] and seams[i].joins_next and ok[i + 1]:
                pair = size + words(text[blocks[i + 1].start : blocks[i + 1].end])
                if min_words <= pair <= max_words:
                    pairs.append((doc_id, (b, blocks[i + 1])))
    if not singles:
        raise ValueError(f"no block of {min_words}-{max_words} words occurs once in the corpus")
    rng = random.Random(seed)
    picked = _pick(singles, n - round(n * seam_share), rng)
    picked += _pick(
        pairs, min(round(n * seam_share), round(len(picked) * seam_share / (1 - seam_share))), rng
    )
    picked.sort(key=lambda c: (list(documents).index(c[0]), c[1][0].start))
    questions = []
    for i, (doc_id, parts) in enumerate(picked):
        text = " ".join(documents[doc_id][b.start : b.end] for b in parts)
        answers = tuple(Answer(doc_id, b.start, b.end) for b in parts)
        questions.append(Question(f"lab-{i}", make_query(text, rng, hold_out), answers))
    kinds = Counter(" + ".join(b.kind for b in parts) for _, parts in picked)
    notes = {
        "labelled": f"parsed blocks (markdown-it-py, docutils), {seam_share:.0%} two adjacent "
        f"blocks, {hold_out:.0%} of words held out, seed {seed}",
        "segmenter": "markdown-it-py / docutils blocks",
        "answers by kind": dict(sorted(kinds.items())),
        "blocks not mapped exactly (skipped)": dict(sorted(lost.items())),
        "blocks left out (text repeated in the corpus)": repeated,
    }
    return Dataset(name, "spans", dict(documents), questions, notes)


def paragraphs_of(documents: dict[str, str], min_words: int = 8) -> dict[str, list[str]]:
    """The prose paragraphs of each document as its parser sees them (kind ``paragraph``,
    at least ``min_words`` words): the source of :func:`.variants.prose_variants`."""
    out = {}
    for doc_id, text in documents.items():
        blocks, _ = parser_for(doc_id)(text)
        paras = [text[b.start : b.end] for b in blocks if b.kind == "paragraph"]
        out[doc_id] = [p for p in paras if words(p) >= min_words]
    return out


def answered_only(dataset: Dataset) -> Dataset:
    """The same questions over only the documents that hold an answer (chunking the rest
    changes no answers-whole figure, only the time it takes)."""
    held = {a.doc_id for q in dataset.questions for a in q.answers}
    docs = {d: t for d, t in dataset.documents.items() if d in held}
    notes = {
        **dataset.notes,
        "documents without an answer left out": len(dataset.documents) - len(docs),
    }
    return Dataset(dataset.name, dataset.kind, docs, dataset.questions, notes)


def write_spans(dataset: Dataset, folder: Path) -> tuple[Path, Path]:
    """``questions.jsonl`` and ``docs.jsonl`` of a span set in ``folder`` (and its notes in
    ``notes.json``); their paths. Each file is replaced whole (a temporary file renamed
    over it) and ``questions.jsonl``, which says a set is there, comes last: an interrupted
    run never leaves a cut set that a later run would read as complete."""
    folder.mkdir(parents=True, exist_ok=True)
    notes = json.dumps(dataset.notes, indent=1, ensure_ascii=False) + "\n"
    docs, questions = folder / "docs.jsonl", folder / "questions.jsonl"
    doc_rows = ({"_id": d, "text": t} for d, t in dataset.documents.items())
    question_rows = (
        {
            "id": q.qid,
            "query": q.query,
            "doc_id": q.answers[0].doc_id,
            "answers": [[a.start, a.end] for a in q.answers],
        }
        for q in dataset.questions
    )
    _write_whole(folder / "notes.json", [notes])
    _write_whole(docs, (json.dumps(r, ensure_ascii=False) + "\n" for r in doc_rows))
    _write_whole(questions, (json.dumps(r, ensure_ascii=False) + "\n" for r in question_rows))
    return questions, docs


def _write_whole(path: Path, lines: Iterable[str]) -> None:
    with replaced(str(path)) as temp, open(temp, "w", encoding="utf-8") as f:
        f.writelines(lines)
