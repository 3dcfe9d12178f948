"""Synthetic questions for a corpus that has none (clearly labelled ``kind="synthetic"``).

Each question is one of the corpus's own prose sentences with some of its words held out
(chosen by a seeded ``random.Random``); its answer is that sentence's exact span. Such
questions are easy for a lexical retriever to find, so what they measure is mostly whether a
chunker keeps a sentence whole and how much context it costs to bring it back — exactly the
part of retrieval that chunking controls. They are no substitute for real questions.

Sentences come from prose only (not fenced or indented code, tables, headings or HTML), are
8 to 80 words long (a CJK character counts as a word), and occur once in the corpus: a
sentence repeated elsewhere would have more than one right answer.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Callable, Optional

from .data import Answer, Dataset, Question

Spans = list[tuple[int, int]]

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
WORD = re.compile(f"[{CJK}]|[^\\W_{CJK}]+(?:['\u2019][^\\W_{CJK}]+)*")
# A sentence ends at . ! ? (then closing quotes/brackets, then a space or the end) or at a
# CJK full stop, exclamation or question mark (no space needed).
END = re.compile(
    "[.!?]+[\"'\u201d\u2019)\\]]*(?=\\s|$)|[\u3002\uff01\uff1f]+[\u201d\u2019\u300d\u300f\uff09]*"
)
FENCE = re.compile(r"[ ]{0,3}(```|~~~)")
NOT_PROSE = re.compile(r"[ ]{0,3}(#|\||<|[-=*_]{3,}\s*$)|    |\t")


def paragraphs(text: str) -> Iterator[tuple[int, int]]:
    """Spans of prose paragraphs: runs of non-blank lines outside code fences, without
    headings, tables, HTML, rules or indented code."""
    pos = 0
    fenced = False
    start: Optional[int] = None
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if FENCE.match(body):
            fenced = not fenced
        prose = not fenced and body.strip() and not FENCE.match(body)
        prose = prose and not NOT_PROSE.match(body)
        if prose and start is None:
            start = pos
        elif not prose and start is not None:
            yield start, pos
            start = None
        pos += len(line)
    if start is not None:
        yield start, pos


def sentence_spans(text: str) -> Spans:
    """Sentence spans of the prose in ``text`` (stripped of surrounding whitespace)."""
    out = []
    for a, b in paragraphs(text):
        at = a
        for m in END.finditer(text, a, b):
            out.append(_strip(text, at, m.end()))
            at = m.end()
        if text[at:b].strip():
            out.append(_strip(text, at, b))
    return out


def _strip(text: str, a: int, b: int) -> tuple[int, int]:
    piece = text[a:b]
    lead = len(piece) - len(piece.lstrip())
    return a + lead, a + len(piece.rstrip())


def make_query(sentence: str, rng: random.Random, hold_out: float) -> str:
    """The sentence's words with ``hold_out`` of them (at least one) left out, in order;
    CJK characters that were adjacent stay joined, every gap becomes a space."""
    words = list(WORD.finditer(sentence))
    held = set(rng.sample(range(len(words)), max(1, round(hold_out * len(words)))))
    out: list[str] = []
    prev: Optional[re.Match[str]] = None
    for i, w in enumerate(words):
        if i in held:
            prev = None
            continue
        joined = prev is not None and prev.end() == w.start() and _cjk(prev[0]) and _cjk(w[0])
        out.append(w[0] if joined or not out else " " + w[0])
        prev = w
    return "".join(out)


def _cjk(word: str) -> bool:
    return len(word) == 1 and bool(re.match(f"[{CJK}]", word))


def synthetic_questions(
    documents: dict[str, str],
    n: int = 200,
    *,
    seed: int = 0,
    hold_out: float = 0.5,
    min_words: int = 8,
    max_words: int = 80,
    sentences: Callable[[str], Spans] = sentence_spans,
    name: str = "synthetic",
) -> Dataset:
    """A :class:`Dataset` of up to ``n`` synthetic questions over ``documents`` (all the
    candidate sentences when there are fewer; the count is in ``notes``). ``sentences`` may
    be any ``text -> [(start, end)]`` sentence splitter."""
    if not documents:
        raise ValueError("the corpus is empty (no documents)")
    if n <= 0 or not 0 < hold_out < 1:
        raise ValueError(f"need n > 0 and 0 < hold_out < 1, got n={n}, hold_out={hold_out}")
    found = []
    for doc_id, text in documents.items():
        for a, b in sentences(text):
            words = len(WORD.findall(text, a, b))
            if min_words <= words <= max_words:
                found.append((doc_id, a, b, " ".join(text[a:b].split())))
    seen = Counter(s for *_, s in found)
    unique = [f for f in found if seen[f[3]] == 1]
    if not unique:
        raise ValueError(
            f"no prose sentence of {min_words}-{max_words} words occurs once in the corpus; "
            "synthetic questions need prose (give questions with --data instead)"
        )
    rng = random.Random(seed)
    picked = sorted(rng.sample(range(len(unique)), min(n, len(unique))))
    questions = []
    for i, k in enumerate(picked):
        doc_id, a, b, _ = unique[k]
        query = make_query(documents[doc_id][a:b], rng, hold_out)
        questions.append(Question(f"syn-{i}", query, (Answer(doc_id, a, b),)))
    notes = {
        "synthetic": f"own sentences as answers, {hold_out:.0%} of words held out, seed {seed}",
        "candidate sentences": len(unique),
        "repeated sentences left out": len(found) - len(unique),
    }
    return Dataset(name, "synthetic", dict(documents), questions, notes)
