"""ferrochunk eval: score chunker configurations by retrieval on a question set.

With no arguments it runs on the sample bundled in the package, with synthetic questions.
Bad options print one line and exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn, Optional

from .chunkers import CHUNKERS

DEFAULT_CHUNKERS = "markdown,splitter,recursive,tokens"
DEFAULT_SIZES = "32,64,128"  # small: each sample document needs several chunks
DEFAULT_OVERLAPS = "0"
# The `eval` extra: module -> the package that installs it.
EXTRA = {"numpy": "numpy", "markdown_it": "markdown-it-py", "matplotlib": "matplotlib"}
HELP = "score chunkers by retrieval (Recall/MRR/nDCG@K) on questions (default: bundled sample)"


class _Defaults(argparse.HelpFormatter):
    """Shows ``(default: ...)`` where there is a default worth showing."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        shown = action.default is not None and action.default is not False
        if shown and action.default != argparse.SUPPRESS and "default" not in text:
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"ferrochunk eval: {message} (see ferrochunk eval --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The options of ``ferrochunk eval`` (``--help`` shows their defaults)."""
    p = _Parser(
        prog="ferrochunk eval",
        description=__doc__.splitlines()[0],
        formatter_class=_Defaults,
    )
    data = p.add_argument_group("data (default: the bundled sample, synthetic questions)")
    data.add_argument(
        "--data",
        help="a BEIR folder (corpus.jsonl, queries.jsonl, qrels/); a JSONL of questions with "
        "answer spans (with --docs); or documents (folder or JSONL) for synthetic questions",
    )
    data.add_argument("--docs", help="documents (folder or JSONL) of a question file")
    data.add_argument("--split", help="BEIR qrels split (default: test, or the only one)")
    data.add_argument("--questions", type=int, default=200, help="synthetic questions to make")
    data.add_argument("--seed", type=int, default=0, help="seed of the synthetic questions")
    data.add_argument("--hold-out", type=float, default=0.5, help="share of words held out")
    grid = p.add_argument_group("grid (chunkers x sizes x overlaps)")
    grid.add_argument("--grid", help="a .toml or .json grid file (instead of the options below)")
    grid.add_argument(
        "--chunkers",
        default=DEFAULT_CHUNKERS,
        help="comma-separated names, from: " + ", ".join(CHUNKERS),
    )
    grid.add_argument("--sizes", default=DEFAULT_SIZES, help="comma-separated chunk sizes")
    grid.add_argument("--overlaps", default=DEFAULT_OVERLAPS, help="comma-separated overlaps")
    grid.add_argument(
        "--unit",
        choices=("chars", "tokens"),
        default="tokens",
        help="unit of sizes and overlaps (tokens: cl100k_base)",
    )
    run = p.add_argument_group("retrieval and output")
    run.add_argument("--k", type=int, default=5, help="chunks retrieved per question")
    run.add_argument(
        "--retriever",
        choices=("bm25", "dense"),
        default="bm25",
        help="bm25 (lexical) or dense (cosine of embeddings)",
    )
    run.add_argument(
        "--embedder",
        default="wordllama",
        help="for dense: 'wordllama' (offline) or module:attr of an embedder",
    )
    run.add_argument("--out", default="ferrochunk-eval", help="folder for eval.json and eval.png")
    run.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    run.add_argument(
        "--html",
        action="store_true",
        help="also eval.html: the tables, the chart, and per configuration the questions "
        "missed with the chunk boundaries that cut their answers",
    )
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``ferrochunk eval`` with ``argv`` (the arguments after ``eval``)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as done:  # --help (0) or a bad option (2, one line already printed)
        return int(done.code or 0)
    missing = [package for module, package in EXTRA.items() if not _importable(module)]
    if missing:  # checked first: a run without them ended in a traceback after scoring
        return _error(f'needs {", ".join(missing)}: pip install "ferrochunk[eval]"')
    from .grid import expand, load_grid

    try:
        if args.grid:
            configs, left_out = load_grid(args.grid)
        else:
            configs, left_out = expand(
                _names(args.chunkers),
                _ints(args.sizes, "--sizes"),
                _ints(args.overlaps, "--overlaps"),
                args.unit,
            )
        if not configs:
            left = "; ".join(left_out)
            raise ValueError(f"no configuration to evaluate (left out: {left})")
        if args.k <= 0:
            raise ValueError(f"--k must be > 0, got {args.k}")
        if Path(args.out).exists() and not Path(args.out).is_dir():
            raise ValueError(f"--out {args.out}: exists and is not a folder")
        embedder = _embedder(args.embedder) if args.retriever == "dense" else None
        with ExitStack() as stack:
            dataset = _dataset(args, stack)
    except (ValueError, TypeError, ImportError) as err:
        return _error(str(err))
    for line in left_out:
        print(f"ferrochunk eval: left out {line}", file=sys.stderr)
    return _run(args, dataset, configs, embedder)


def _run(args: argparse.Namespace, dataset: Any, configs: Any, embedder: Any) -> int:
    from .report import tables, write_chart, write_json
    from .runner import evaluate

    log = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    try:
        report = evaluate(
            dataset,
            configs,
            k=args.k,
            retriever=args.retriever,
            embedder=embedder,
            log=log,
            missed=args.html,
        )
    except ValueError as err:
        return _error(str(err))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    missed = report.pop("missed", {})
    text = tables(report)
    print(text)
    write_json(report, out / "eval.json")
    write_chart(report, out / "eval.png")
    if args.html:
        from .html import write_html

        page = out / "eval.html"
        write_html({**report, "missed": missed}, text, out / "eval.png", dataset.documents, page)
        print(f"\nwrote {out / 'eval.json'}, {out / 'eval.png'} and {page}")
        return 0
    print(f"\nwrote {out / 'eval.json'} and {out / 'eval.png'}")
    return 0


def _importable(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def _error(message: str) -> int:
    print(f"ferrochunk eval: {message}", file=sys.stderr)
    return 2


def _names(value: str) -> list[str]:
    names = [v.strip() for v in value.split(",") if v.strip()]
    if not names:
        raise ValueError("--chunkers is empty")
    return names


def _ints(value: str, option: str) -> list[int]:
    try:
        out = [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"{option} must be comma-separated integers, got {value!r}") from None
    if not out or min(out) < 0:
        raise ValueError(f"{option} must be comma-separated integers >= 0, got {value!r}")
    return out


def _embedder(spec: str) -> Any:
    from .dense import as_embedder, wordllama

    if spec == "wordllama":
        return wordllama()
    module, _, attr = spec.partition(":")
    if not attr:
        raise ValueError(f"--embedder must be 'wordllama' or module:attr, got {spec!r}")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as err:
        raise ValueError(f"--embedder {spec!r}: {err}") from None
    return as_embedder(obj() if isinstance(obj, type) else obj)


def _dataset(args: argparse.Namespace, stack: ExitStack) -> Any:
    from . import data

    if args.data is None and args.docs is not None:
        raise ValueError("--docs goes with --data QUESTIONS.jsonl (the questions about them)")
    if args.data is None:
        sample = resources.files("ferrochunk") / "sample"
        path = stack.enter_context(resources.as_file(sample))
        docs, notes = data.load_documents(path)
        return _synthetic(args, docs, notes, "bundled sample")
    if args.docs is not None:
        return data.load_span_questions(args.data, args.docs)
    if data.is_beir(args.data):
        return data.load_beir(args.data, args.split)
    if _is_question_file(Path(args.data)):
        raise ValueError(f"{args.data} holds questions: give their documents with --docs")
    docs, notes = data.load_documents(args.data)
    return _synthetic(args, docs, notes, Path(args.data).name)


def _synthetic(args: argparse.Namespace, docs: Any, notes: Any, name: str) -> Any:
    from .synthetic import synthetic_questions

    if args.questions <= 0 or not 0 < args.hold_out < 1:
        raise ValueError("need --questions > 0 and 0 < --hold-out < 1")
    ds = synthetic_questions(
        docs, args.questions, seed=args.seed, hold_out=args.hold_out, name=name
    )
    ds.notes.update(notes)
    return ds


def _is_question_file(path: Path) -> bool:
    if not path.is_file():
        return False
    with path.open(encoding="utf-8", errors="replace") as f:
        first = f.readline()
    return '"query"' in first
