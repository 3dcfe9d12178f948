"""Retrieval benchmark suite: which chunker, size and overlap find the answers, and at what
cost in context. ``ferrochunk eval`` runs it from the command line (:mod:`.cli`).

>>> from ferrochunk.eval import Config, evaluate, synthetic_questions
>>> docs = {"a.md": "The lighthouse keeper lit the lamp at dusk every single day. "
...         "Ships passed the rocky point safely through the long winter nights."}
>>> data = synthetic_questions(docs, n=2, seed=1)
>>> report = evaluate(data, [Config("splitter", 80, 0)], k=1)  # 80 code points: cuts the 2nd
>>> r = report["results"][0]
>>> r["boundaries"]["chunks"], r["recall_strict"], r["recall_lenient"]
(2, 0.5, 1.0)

Any chunker plugs in with :func:`register` (a factory ``Config -> (text -> chunks)``, the
chunks as ``(start, end)`` pairs or objects with ``.start``/``.end``).
"""

from typing import TYPE_CHECKING

from .._lazy import exports

# Names load on first use (ferrochunk/_lazy.py): ``ferrochunk eval --help`` and the missing
# extra's one-line message need no numpy (imported by the runner, BM25 and dense retrieval).
_MODULES = {
    ".chunkers": ("CHUNKERS", "PEERS", "Config", "Skip", "build", "locate", "register", "to_spans"),
    ".data": (
        "Answer",
        "Dataset",
        "Question",
        "load_beir",
        "load_documents",
        "load_span_questions",
    ),
    ".grid": ("expand", "load_grid"),
    ".measures": ("covers", "rank_scores", "span_scores"),
    ".runner": ("evaluate",),
    ".synthetic": ("sentence_spans", "synthetic_questions"),
}
__getattr__, __dir__ = exports(__name__, {n: m for m, names in _MODULES.items() for n in names})

if TYPE_CHECKING:
    from .chunkers import CHUNKERS, PEERS, Config, Skip, build, locate, register, to_spans
    from .data import Answer, Dataset, Question, load_beir, load_documents, load_span_questions
    from .grid import expand, load_grid
    from .measures import covers, rank_scores, span_scores
    from .runner import evaluate
    from .synthetic import sentence_spans, synthetic_questions

__all__ = [
    "CHUNKERS",
    "PEERS",
    "Answer",
    "Config",
    "Dataset",
    "Question",
    "Skip",
    "build",
    "covers",
    "evaluate",
    "expand",
    "load_beir",
    "load_documents",
    "load_grid",
    "load_span_questions",
    "locate",
    "rank_scores",
    "register",
    "sentence_spans",
    "span_scores",
    "synthetic_questions",
    "to_spans",
]
