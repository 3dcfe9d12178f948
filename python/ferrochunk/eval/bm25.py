"""BM25 over chunks, in numpy: an inverted index built with one sort, scored per query by
adding each query term's postings.

Why not a library: ``bm25s`` (the fast, well-kept one) scores the same way (eager sparse
scores) and ranks the same (99.4 % of 1,000 queries in the same order, the rest differ in
ties; ``benches/bm25_choice.py``), but on the same terms it indexed 3.6x and queried 1.7x
slower here, and its own tokenizer keeps words of two or more letters, which leaves CJK text
as whole runs (no match unless the query has the same run). Ours needs nothing but numpy,
breaks ties by chunk order (the same ranking on every machine), and makes each document's
terms once for all configurations (:class:`CorpusTerms`). A Rust index was not needed: with
terms made once, indexing is ~0.1-0.3 s per configuration and 1,000 queries ~0.3 s.

Scoring is Lucene's BM25 (as bm25s's default ``method="lucene"``): the sum over the query's
terms t (a repeated term counts each time) of, for chunk d,
``idf(t) * tf / (tf + k1 * (1 - b + b * |d| / avgdl))`` with
``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))``, k1 = 1.5, b = 0.75. Terms are lowercase
words; CJK text, which has no spaces, gives overlapping character bigrams (a lone character
stands for itself), as Lucene's CJK analyzer does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from .synthetic import CJK

TERM = re.compile(f"[{CJK}]+|[^\\W_{CJK}]+")
CJK_CHAR = re.compile(f"[{CJK}]")


def _expand(match: str) -> list[str]:
    w = match.lower()
    if len(w) > 1 and CJK_CHAR.match(w):
        return [w[i : i + 2] for i in range(len(w) - 1)]
    return [w]


def terms(text: str) -> list[str]:
    """The BM25 terms of ``text``: each word lowercased, each CJK run as its bigrams."""
    return [t for m in TERM.findall(text) for t in _expand(m)]


class DocTerms:
    """The terms of one document and where each word (or CJK run) lies, so the terms of any
    span are a slice; only the words cut by the span's ends are made again. Equal to
    ``terms(text[a:b])`` (tested), at a fraction of the cost when many configurations
    chunk the same documents."""

    def __init__(self, text: str, vocab: dict[str, int]) -> None:
        ids: list[int] = []
        bounds = [0]
        add = vocab.setdefault
        for w in TERM.findall(text):
            if w[0] >= "\u3040" and len(w) > 1 and CJK_CHAR.match(w):
                ids.extend(add(t, len(vocab)) for t in _expand(w))
            else:
                ids.append(add(w.lower(), len(vocab)))
            bounds.append(len(ids))
        spans = np.asarray([m.span() for m in TERM.finditer(text)], dtype=np.int64)
        self.starts = spans[:, 0] if len(spans) else np.zeros(0, dtype=np.int64)
        self.ends = spans[:, 1] if len(spans) else np.zeros(0, dtype=np.int64)
        self.bounds = np.asarray(bounds, dtype=np.int64)
        self.ids = np.asarray(ids, dtype=np.int64)

    def span(self, text: str, a: int, b: int, vocab: dict[str, int]) -> np.ndarray:
        """Term ids of ``text[a:b]``."""
        i = int(np.searchsorted(self.starts, a, "left"))  # first word starting at or after a
        j = int(np.searchsorted(self.ends, b, "right"))  # words [0, j) end at or before b
        parts = []
        if i > 0 and self.ends[i - 1] > a:  # a word cut by the start (or holding the span)
            parts.append(_ids(text[a : min(int(self.ends[i - 1]), b)], vocab))
        if j > i:
            parts.append(self.ids[self.bounds[i] : self.bounds[j]])
        if i <= j < len(self.starts) and self.starts[j] < b:  # a word cut by the end
            parts.append(_ids(text[int(self.starts[j]) : b], vocab))
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _ids(text: str, vocab: dict[str, int]) -> np.ndarray:
    return np.asarray([vocab.setdefault(t, len(vocab)) for t in terms(text)], dtype=np.int64)


class CorpusTerms:
    """Terms of every document of a corpus, made once and shared by all configurations."""

    def __init__(self, documents: dict[str, str]) -> None:
        self.vocab: dict[str, int] = {}
        self.texts = documents
        self.docs = {d: DocTerms(t, self.vocab) for d, t in documents.items()}

    def chunks(self, spans: Sequence[tuple[str, int, int]]) -> list[np.ndarray]:
        """Term ids of each ``(doc_id, start, end)``."""
        return [self.docs[d].span(self.texts[d], a, b, self.vocab) for d, a, b in spans]


class BM25:
    """A BM25 index over ``texts`` (or, with :meth:`from_ids`, over term ids already made);
    :meth:`search` returns ranked indices into them."""

    def __init__(self, texts: Sequence[str], k1: float = 1.5, b: float = 0.75) -> None:
        vocab: dict[str, int] = {}
        self._build([_ids(t, vocab) for t in texts], vocab, k1, b)

    @classmethod
    def from_ids(
        cls, ids: Sequence[np.ndarray], vocab: dict[str, int], k1: float = 1.5, b: float = 0.75
    ) -> BM25:
        """The index of chunks given as term ids of ``vocab`` (see :class:`CorpusTerms`)."""
        self = cls.__new__(cls)
        self._build(ids, vocab, k1, b)
        return self

    def _build(self, ids: Sequence[np.ndarray], vocab: dict[str, int], k1: float, b: float) -> None:
        self.vocab = vocab
        n = max(len(ids), 1)
        lengths = np.asarray([len(x) for x in ids], dtype=np.int64)
        doc = np.repeat(np.arange(len(ids), dtype=np.int64), lengths)
        flat = np.concatenate(list(ids)) if len(ids) else np.zeros(0, dtype=np.int64)
        # One sort groups the tokens by (term, chunk): the postings lists, with their counts.
        keys, tf = np.unique(flat * n + doc, return_counts=True)
        term, self.docs = np.divmod(keys, n)
        nterms = len(vocab)
        df = np.bincount(term, minlength=nterms)
        idf = np.log1p((len(ids) - df + 0.5) / (df + 0.5))
        avgdl = max(float(lengths.mean()) if len(ids) else 0.0, 1e-9)
        norm = k1 * (1 - b + b * lengths / avgdl)
        self.weights = idf[term] * tf / (tf + norm[self.docs])
        self.bounds = np.searchsorted(term, np.arange(nterms + 1))
        self.size = len(ids)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every chunk for ``query``."""
        out = np.zeros(self.size)
        for w, times in sorted(Counter(terms(query)).items()):
            t = self.vocab.get(w)
            if t is not None and t + 1 < len(self.bounds):
                lo, hi = self.bounds[t], self.bounds[t + 1]
                out[self.docs[lo:hi]] += times * self.weights[lo:hi]  # a chunk once per term
        return out

    def search(self, query: str, k: int) -> list[int]:
        """Indices of the top ``k`` chunks with a positive score, best first (ties: lower
        index first)."""
        return top_k(self.scores(query), k)


def top_k(scores: np.ndarray, k: int) -> list[int]:
    """Indices of the ``k`` highest positive scores, best first, ties by index."""
    if scores.size == 0:
        return []
    k = min(k, scores.size)
    part = np.argpartition(-scores, k - 1)[:k] if k < scores.size else np.arange(scores.size)
    # The k-th score may be tied beyond the partition: take every index that reaches it.
    cut = scores[part].min()
    cand = np.flatnonzero(scores >= cut)
    order = cand[np.lexsort((cand, -scores[cand]))][:k]
    return [int(i) for i in order if scores[i] > 0]
