"""Retrieval benchmark suite: which chunker, size and overlap find the answers, and at what
cost in context. ``ferrochunk eval`` runs it from the command line (:mod:`.cli`).

>>> from ferrochunk.eval import Answer, Config, Dataset, Question, evaluate
>>> text = ("The lighthouse keeper lit the lamp at dusk every single day. "
...         "Ships passed the rocky point safely through the long winter nights.")
>>> questions = [Question("q1", "keeper lamp dusk", (Answer("a.md", 0, 60),)),
...              Question("q2", "ships rocky point", (Answer("a.md", 61, len(text)),))]
>>> data = Dataset("tiny", "spans", {"a.md": text}, questions)
>>> report = evaluate(data, [Config("splitter", 80, 0)], k=1)  # 80 code points: cuts the 2nd
>>> r = report["results"][0]
>>> r["boundaries"]["chunks"], r["answers_whole"], r["recall_strict"], r["recall_lenient"]
(2, 0.5, 0.5, 1.0)

Questions come from a span JSONL file (:func:`load_span_questions`), a BEIR folder
(:func:`load_beir`), parsed blocks of real documents (:func:`labelled_questions`), prose
rewritten into the forms real corpora have (:func:`prose_variants`), or the documents
themselves (:func:`synthetic_questions`, answers drawn by pysbd).

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
    ".labelled": ("answered_only", "labelled_questions", "paragraphs_of", "write_spans"),
    ".measures": ("covers", "rank_scores", "span_scores"),
    ".runner": ("evaluate",),
    ".synthetic": ("sentence_spans", "synthetic_questions"),
    ".variants": ("prose_variants",),
    ".whole": ("answers_whole",),
}
__getattr__, __dir__ = exports(__name__, {n: m for m, names in _MODULES.items() for n in names})

if TYPE_CHECKING:
    from .chunkers import CHUNKERS, PEERS, Config, Skip, build, locate, register, to_spans
    from .data import Answer, Dataset, Question, load_beir, load_documents, load_span_questions
    from .grid import expand, load_grid
    from .labelled import answered_only, labelled_questions, paragraphs_of, write_spans
    from .measures import covers, rank_scores, span_scores
    from .runner import evaluate
    from .synthetic import sentence_spans, synthetic_questions
    from .variants import prose_variants
    from .whole import answers_whole

__all__ = [
    "CHUNKERS",
    "PEERS",
    "Answer",
    "Config",
    "Dataset",
    "Question",
    "Skip",
    "answered_only",
    "answers_whole",
    "build",
    "covers",
    "evaluate",
    "expand",
    "labelled_questions",
    "load_beir",
    "load_documents",
    "load_grid",
    "load_span_questions",
    "locate",
    "paragraphs_of",
    "prose_variants",
    "rank_scores",
    "register",
    "sentence_spans",
    "span_scores",
    "synthetic_questions",
    "to_spans",
    "write_spans",
]
