"""Synthetic questions for a corpus that has none (clearly labelled ``kind="synthetic"``).

Each answer is a run of 1 to 3 consecutive sentences of the corpus's prose paragraphs, as
pysbd finds them (a segmenter independent of ferrochunk's, :mod:`.segmenter`), a third of
them crossing a paragraph seam (:mod:`.draw`); its question is the answer's words with some
held out (a seeded ``random.Random``). Such questions are easy for a lexical retriever, so
what they measure is mostly whether a chunker keeps the answer whole and how much context it
costs to bring back — the part of retrieval that chunking controls. They are no substitute
for real questions.

Paragraphs are prose only (not fenced or indented code, tables, headings or HTML); answers
are 8 to 150 words long (a CJK character counts as a word), and the text of each span occurs
once in the corpus: a repeated one would have more than one right answer.
:func:`sentence_spans` is a small regex sentence finder kept for the benchmarks that ask for
it (``sentences=``).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any, Callable, Optional

from .data import Answer, Dataset, Question
from .draw import Drawn, blocks_of, draw

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
    max_words: int = 150,
    seam_share: float = 1 / 3,
    sentences: Optional[Callable[[str], Spans]] = None,
    name: str = "synthetic",
) -> Dataset:
    """A :class:`Dataset` of up to ``n`` synthetic questions over ``documents`` (fewer when
    the corpus has fewer candidates; the counts are in ``notes``). Answers are runs of 1-3
    pysbd sentences of the prose paragraphs, ``seam_share`` of them across a paragraph seam
    (:mod:`.draw`); ``sentences``, any ``text -> [(start, end)]`` splitter, replaces that:
    each of its spans is then a candidate answer."""
    if not documents:
        raise ValueError("the corpus is empty (no documents)")
    if n <= 0 or not 0 < hold_out < 1 or not 0 <= seam_share < 1:
        raise ValueError(
            f"need n > 0, 0 < hold_out < 1 and 0 <= seam_share < 1, got n={n}, "
            f"hold_out={hold_out}, seam_share={seam_share}"
        )
    rng = random.Random(seed)
    if sentences is None:
        blocks = [b for d, t in documents.items() for b in blocks_of(d, t, list(paragraphs(t)))]
        drawn, notes = draw(
            documents,
            blocks,
            n,
            rng,
            seam_share=seam_share,
            min_words=min_words,
            max_words=max_words,
        )
        how = f"runs of 1-3 sentences ({notes['segmenter']}), {seam_share:.0%} across a seam"
    else:
        drawn, notes = _given(documents, sentences, n, rng, min_words, max_words)
        how = "the given splitter's spans"
    if not drawn:
        raise ValueError(
            f"no prose sentence of {min_words}-{max_words} words occurs once in the corpus; "
            "synthetic questions need prose (give questions with --data instead)"
        )
    questions = []
    for i, (doc_id, spans) in enumerate(drawn):
        text = " ".join(documents[doc_id][a:b] for a, b in spans)
        answers = tuple(Answer(doc_id, a, b) for a, b in spans)
        questions.append(Question(f"syn-{i}", make_query(text, rng, hold_out), answers))
    notes = {"synthetic": f"{how}, {hold_out:.0%} of words held out, seed {seed}", **notes}
    return Dataset(name, "synthetic", dict(documents), questions, notes)


def _given(
    documents: dict[str, str],
    sentences: Callable[[str], Spans],
    n: int,
    rng: random.Random,
    min_words: int,
    max_words: int,
) -> tuple[list[Drawn], dict[str, Any]]:
    """Candidates from a given splitter: its spans of ``min_words``-``max_words`` words that
    occur once in the corpus, ``n`` of them sampled."""
    found = []
    for doc_id, text in documents.items():
        for a, b in sentences(text):
            if min_words <= len(WORD.findall(text, a, b)) <= max_words:
                found.append((doc_id, a, b, " ".join(text[a:b].split())))
    seen = Counter(s for *_, s in found)
    unique = [f for f in found if seen[f[3]] == 1]
    picked = sorted(rng.sample(range(len(unique)), min(n, len(unique))))
    drawn: list[Drawn] = [(unique[k][0], ((unique[k][1], unique[k][2]),)) for k in picked]
    notes: dict[str, Any] = {
        "segmenter": getattr(sentences, "__qualname__", "a given splitter"),
        "candidate sentences": len(unique),
        "repeated sentences left out": len(found) - len(unique),
    }
    return drawn, notes
