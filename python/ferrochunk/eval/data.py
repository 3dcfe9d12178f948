"""Evaluation data: documents, questions and what answers them.

Three sources, one shape (:class:`Dataset`):

- a BEIR folder (``corpus.jsonl``, ``queries.jsonl``, ``qrels/<split>.tsv``): relevance is
  per document, an :class:`Answer` without a span;
- a JSON Lines file of questions with answer spans, ``{"query", "doc_id", "answers":
  [[start, end], ...]}`` (code-point offsets), over documents given as a folder or JSONL;
- synthetic questions made from the documents themselves (:mod:`.synthetic`).

Bad data raises ``ValueError`` naming the file, the line and the problem: nothing is dropped
without a word (what is left out on purpose is counted in ``Dataset.notes``).
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

TEXT_SUFFIXES = (".md", ".markdown", ".txt", ".rst", ".adoc")


@dataclass(frozen=True)
class Answer:
    """What answers a question: a span ``[start, end)`` of a document (code points), or the
    whole document (``start is None``: BEIR's document-level relevance, graded by ``grade``)."""

    doc_id: str
    start: Optional[int] = None
    end: Optional[int] = None
    grade: float = 1.0


@dataclass(frozen=True)
class Question:
    """One query and its answers (at least one)."""

    qid: str
    query: str
    answers: tuple[Answer, ...]


@dataclass
class Dataset:
    """Documents (id -> text, in a fixed order) and the questions asked of them."""

    name: str
    kind: str  # "beir", "spans" or "synthetic"
    documents: dict[str, str]
    questions: list[Question]
    notes: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """What the JSON report says about the data."""
        chars = sum(len(t) for t in self.documents.values())
        return {
            "name": self.name,
            "kind": self.kind,
            "documents": len(self.documents),
            "characters": chars,
            "questions": len(self.questions),
            **self.notes,
        }


def _fail(where: str, problem: str) -> ValueError:
    return ValueError(f"{where}: {problem}")


def _jsonl(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(where, object)`` for every non-blank line, ``where`` = ``file:line``."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as err:
        raise _fail(str(path), f"not UTF-8 ({err.reason} at byte {err.start})") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise _fail(where, f"not JSON ({err.msg})") from None
        if not isinstance(obj, dict):
            raise _fail(where, f"expected a JSON object, got {type(obj).__name__}")
        yield where, obj


def _string(obj: dict[str, Any], keys: tuple[str, ...], where: str) -> str:
    for key in keys:
        if key in obj:
            value = obj[key]
            if not isinstance(value, (str, int)) or isinstance(value, bool):
                raise _fail(where, f"{key!r} must be a string, got {type(value).__name__}")
            return str(value)
    raise _fail(where, f"missing {' or '.join(repr(k) for k in keys)}")


def _check_corpus(documents: dict[str, str], source: str) -> dict[str, str]:
    if not documents:
        raise ValueError(f"{source}: the corpus is empty (no documents)")
    if not any(t.strip() for t in documents.values()):
        raise ValueError(f"{source}: every document is empty or whitespace")
    return documents


def load_documents(path: str | os.PathLike[str]) -> tuple[dict[str, str], dict[str, Any]]:
    """Documents from a folder (text files, id = path relative to it) or a JSONL file
    (``_id``/``id``/``doc_id`` and ``text``, optional ``title``); and notes (skipped files)."""
    p = Path(path)
    if p.is_dir():
        return _folder(p)
    if not p.is_file():
        raise ValueError(f"{p}: no such file or folder")
    docs: dict[str, str] = {}
    for where, obj in _jsonl(p):
        doc_id = _string(obj, ("_id", "id", "doc_id"), where)
        text = _string(obj, ("text",), where)
        title = obj.get("title") or ""
        if doc_id in docs:
            raise _fail(where, f"document id {doc_id!r} appears twice")
        docs[doc_id] = f"{title}\n\n{text}" if isinstance(title, str) and title else text
    return _check_corpus(docs, str(p)), {}


def _folder(root: Path) -> tuple[dict[str, str], dict[str, Any]]:
    docs: dict[str, str] = {}
    skipped = 0
    for dirpath, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            file = Path(dirpath) / name
            if not name.lower().endswith(TEXT_SUFFIXES):
                skipped += 1
                continue
            try:
                docs[file.relative_to(root).as_posix()] = file.read_text(encoding="utf-8")
            except UnicodeDecodeError as err:
                raise _fail(str(file), f"not UTF-8 ({err.reason} at byte {err.start})") from None
    notes = {"skipped files (not text)": skipped} if skipped else {}
    return _check_corpus(docs, str(root)), notes


def is_beir(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a BEIR folder (has ``corpus.jsonl``)."""
    return (Path(path) / "corpus.jsonl").is_file()


def load_beir(folder: str | os.PathLike[str], split: Optional[str] = None) -> Dataset:
    """A BEIR dataset: ``split`` names ``qrels/<split>.tsv`` (default: ``test``, or the only
    file there). Rows with score <= 0 are judged not relevant; queries with no relevant
    document in the split are not questions of it (both counted in ``notes``)."""
    root = Path(folder)
    documents, _ = load_documents(root / "corpus.jsonl")
    queries = {}
    for where, obj in _jsonl(_need(root / "queries.jsonl")):
        queries[_string(obj, ("_id", "id"), where)] = _string(obj, ("text",), where)
    qrels = _qrels_file(root, split)
    relevant, zero = _read_qrels(qrels, documents, queries)
    questions = [
        Question(qid, queries[qid], tuple(Answer(d, grade=g) for d, g in docs.items()))
        for qid, docs in relevant.items()
        if docs
    ]
    notes: dict[str, Any] = {"qrels": qrels.name}
    if zero:
        notes["judgements with score <= 0 (not relevant)"] = zero
    unjudged = len(queries) - len(questions)
    if unjudged:
        notes["queries with no relevant document in this split"] = unjudged
    if not questions:
        raise ValueError(f"{qrels}: no query has a relevant document (score > 0)")
    return Dataset(root.name, "beir", documents, questions, notes)


def _need(path: Path) -> Path:
    if not path.is_file():
        raise ValueError(f"{path}: missing (a BEIR folder has corpus.jsonl, queries.jsonl, qrels/)")
    return path


def _qrels_file(root: Path, split: Optional[str]) -> Path:
    folder = root / "qrels"
    files = sorted(folder.glob("*.tsv")) if folder.is_dir() else []
    if split is not None:
        return _need(folder / f"{split}.tsv")
    if (folder / "test.tsv").is_file():
        return folder / "test.tsv"
    if len(files) == 1:
        return files[0]
    names = ", ".join(f.stem for f in files) or "none"
    raise ValueError(f"{folder}: choose a split with --split (qrels files: {names})")


def _read_qrels(
    path: Path, documents: dict[str, str], queries: dict[str, str]
) -> tuple[dict[str, dict[str, float]], int]:
    relevant: dict[str, dict[str, float]] = {}
    unknown: list[str] = []
    zero = 0
    with path.open(encoding="utf-8", newline="") as f:
        for n, row in enumerate(csv.reader(f, delimiter="\t"), 1):
            if not row or (n == 1 and row[0] == "query-id"):
                continue
            where = f"{path}:{n}"
            if len(row) != 3:
                raise _fail(where, f"expected 3 tab-separated columns, got {len(row)}")
            qid, doc, score = row
            try:
                grade = float(score)
            except ValueError:
                raise _fail(where, f"score {score!r} is not a number") from None
            if qid not in queries:
                raise _fail(where, f"query {qid!r} is not in queries.jsonl")
            if doc not in documents:
                unknown.append(f"{doc!r} (line {n})")
            elif grade > 0:
                relevant.setdefault(qid, {})[doc] = grade
            else:
                zero += 1
    if unknown:
        shown = ", ".join(unknown[:5]) + (
            f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        )
        raise ValueError(f"{path}: {len(unknown)} judgements name unknown documents: {shown}")
    return relevant, zero


def load_span_questions(
    questions: str | os.PathLike[str], documents: str | os.PathLike[str]
) -> Dataset:
    """Questions with answer spans (JSONL) over ``documents`` (folder or JSONL)."""
    docs, notes = load_documents(documents)
    out = []
    for n, (where, obj) in enumerate(_jsonl(Path(questions)), 1):
        query = _string(obj, ("query",), where)
        doc_id = _string(obj, ("doc_id",), where)
        if doc_id not in docs:
            raise _fail(where, f"doc_id {doc_id!r} is not among the {len(docs)} documents")
        spans = _spans(obj.get("answers"), len(docs[doc_id]), doc_id, where)
        qid = str(obj.get("id", n))
        out.append(Question(qid, query, tuple(Answer(doc_id, a, b) for a, b in spans)))
    if not out:
        raise ValueError(f"{questions}: no questions")
    return Dataset(Path(questions).stem, "spans", docs, out, notes)


def _spans(value: Any, length: int, doc_id: str, where: str) -> list[tuple[int, int]]:
    if not isinstance(value, list) or not value:
        raise _fail(where, "'answers' must be a non-empty list of [start, end] pairs")
    out = []
    for pair in value:
        ok = isinstance(pair, list) and len(pair) == 2
        ok = ok and all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
        if not ok:
            raise _fail(where, f"answer {pair!r} is not a [start, end] pair of ints")
        a, b = pair
        if not 0 <= a < b <= length:
            raise _fail(
                where,
                f"answer span [{a}, {b}] is outside document {doc_id!r} "
                f"({length} code points) or empty: need 0 <= start < end <= {length}",
            )
        out.append((a, b))
    return out
