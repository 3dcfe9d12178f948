"""BM25 over chunks, in numpy: an inverted index built with one sort, scored per query by
adding each query term's postings.

Why not a library: ``bm25s`` (the fast, well-kept one) scores the same way (eager sparse
scores) and ranks the same (``benches/bm25_choice.py`` checks and times both) but its own
tokenizer keeps only words of two or more letters, which leaves CJK text as whole runs;
with our tokenizer it is no faster on this workload, and ours needs nothing but numpy and
breaks ties by chunk order, so the ranking is the same on every machine.

Scoring is Lucene's BM25 (as bm25s's default ``method="lucene"``): the sum over the query's
terms (a repeated term counts each time) of, for chunk d, ``idf(t) * tf / (tf + k1 * (1 - b + b * |d| / avgdl))`` with
``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))``. Terms are lowercase words; CJK text, which
has no spaces, gives overlapping character bigrams (a lone character stands for itself), as
Lucene's CJK analyzer does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from .synthetic import CJK

TERM = re.compile(f"[{CJK}]+|[^\\W_{CJK}]+")
CJK_CHAR = re.compile(f"[{CJK}]")


def terms(text: str) -> list[str]:
    """The BM25 terms of ``text``."""
    out: list[str] = []
    for w in TERM.findall(text.lower()):
        if len(w) > 1 and CJK_CHAR.match(w):
            out.extend(w[i : i + 2] for i in range(len(w) - 1))
        else:
            out.append(w)
    return out


class BM25:
    """A BM25 index over ``texts``; :meth:`search` returns ranked indices into them."""

    def __init__(self, texts: Sequence[str], k1: float = 1.5, b: float = 0.75) -> None:
        self.vocab: dict[str, int] = {}
        ids: list[int] = []
        lengths = np.zeros(len(texts), dtype=np.int64)
        for d, text in enumerate(texts):
            t = terms(text)
            lengths[d] = len(t)
            ids.extend(self.vocab.setdefault(w, len(self.vocab)) for w in t)
        n = max(len(texts), 1)
        doc = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
        # One sort groups the tokens by (term, chunk): the postings lists, with their counts.
        keys, tf = np.unique(np.asarray(ids, dtype=np.int64) * n + doc, return_counts=True)
        term, self.docs = np.divmod(keys, n)
        df = np.bincount(term, minlength=len(self.vocab))
        idf = np.log1p((len(texts) - df + 0.5) / (df + 0.5))
        norm = k1 * (1 - b + b * lengths / max(lengths.mean() if len(texts) else 0.0, 1e-9))
        self.weights = idf[term] * tf / (tf + norm[self.docs])
        self.bounds = np.searchsorted(term, np.arange(len(self.vocab) + 1))
        self.size = len(texts)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every chunk for ``query``."""
        out = np.zeros(self.size)
        for w, times in sorted(Counter(terms(query)).items()):
            t = self.vocab.get(w)
            if t is not None:
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
