"""Speed comparison of ferrochunk, its pure-Python reference and the peers (``ferrochunk bench``).

Every implementation chunks each corpus with the same settings; LangChain-compatible ones are
checked for identical output. Figures are medians over rounds; ratios are against LangChain.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Callable, Optional

SplitFn = Callable[[str], list[str]]


@dataclass
class Result:
    """One implementation on one corpus."""

    corpus: str
    name: str
    mb_per_s: float
    identical: Optional[bool]  # None: a different algorithm, not comparable


def load_corpora(folder: Optional[str]) -> dict[str, list[str]]:
    """``{name: texts}``: each sub-folder of ``folder`` is a corpus; default ../shared/corpus,
    else the sample bundled with the package."""
    root = Path(folder) if folder else Path("..", "shared", "corpus")
    if not root.is_dir():
        sample = resources.files(__package__) / "sample"
        return {
            "sample": [
                f.read_text(encoding="utf-8")
                for f in sorted(sample.iterdir(), key=str)
                if f.name.endswith((".md", ".txt"))
            ]
        }
    corpora = {}
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        files = sorted(f for f in sub.rglob("*") if f.suffix in (".md", ".txt"))
        corpora[sub.name] = [f.read_text(encoding="utf-8") for f in files]
    return corpora


def implementations(chunk_size: int, chunk_overlap: int) -> dict[str, SplitFn]:
    """Name -> split function, for every implementation importable here."""
    import ferrochunk
    from ferrochunk import reference

    impls: dict[str, SplitFn] = {
        "ferrochunk": ferrochunk.RecursiveCharacterTextSplitter(
            chunk_size=chunk_size, chunk_overlap=chunk_overlap
        ).split_text,
        "ferrochunk native": _native_texts(ferrochunk.Splitter(chunk_size, chunk_overlap)),
        "reference": reference.RecursiveCharacterTextSplitter(
            chunk_size=chunk_size, chunk_overlap=chunk_overlap
        ).split_text,
    }
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        impls["langchain"] = RecursiveCharacterTextSplitter(
            chunk_size=chunk_size, chunk_overlap=chunk_overlap
        ).split_text
    except ImportError:
        pass
    try:
        from semantic_text_splitter import TextSplitter

        impls["semantic-text-splitter"] = TextSplitter(
            (chunk_size - chunk_overlap, chunk_size), overlap=chunk_overlap
        ).chunks
    except ImportError:
        pass
    return impls


def _native_texts(splitter: object) -> SplitFn:
    def run(text: str) -> list[str]:
        return [c.text for c in splitter.split(text)]  # type: ignore[attr-defined]

    return run


COMPATIBLE = {"ferrochunk", "ferrochunk native", "reference", "langchain"}


def measure(texts: Sequence[str], fn: SplitFn, rounds: int) -> tuple[float, list[list[str]]]:
    """Median MB/s over ``rounds`` passes over ``texts``, and the output of the last pass."""
    mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    times, out = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        out = [fn(t) for t in texts]
        times.append(time.perf_counter() - start)
    return mb / statistics.median(times), out


def compare(corpora: dict[str, list[str]], impls: dict[str, SplitFn], rounds: int) -> list[Result]:
    """Every implementation on every corpus, checked against LangChain (or the reference)."""
    results = []
    for corpus, texts in corpora.items():
        baseline = "langchain" if "langchain" in impls else "reference"
        expected = [impls[baseline](t) for t in texts]
        for name, fn in impls.items():
            speed, out = measure(
                texts, fn, 1 if name in ("langchain", "reference") and rounds > 3 else rounds
            )
            identical = out == expected if name in COMPATIBLE else None
            results.append(Result(corpus, name, speed, identical))
    return results


def table(results: list[Result]) -> str:
    """A Markdown table: MB/s, ratio to LangChain (or to the reference), identical output."""
    lines = [
        "| corpus | implementation | MB/s | vs LangChain | identical output |",
        "|---|---|---:|---:|---|",
    ]
    for r in results:
        base = next((b for b in results if b.corpus == r.corpus and b.name == "langchain"), None)
        base = base or next(b for b in results if b.corpus == r.corpus and b.name == "reference")
        same = {True: "yes", False: "**NO**", None: "n/a (other algorithm)"}[r.identical]
        lines.append(
            f"| {r.corpus} | {r.name} | {r.mb_per_s:.1f} | "
            f"{r.mb_per_s / base.mb_per_s:.1f}x | {same} |"
        )
    return "\n".join(lines)


def run_cli(args: argparse.Namespace) -> int:
    """``ferrochunk bench``: print the comparison table; exit 1 if any output differs."""
    corpora = load_corpora(args.corpus)
    impls = implementations(args.chunk_size, args.chunk_overlap)
    results = compare(corpora, impls, max(args.rounds, 1))
    print(
        f"chunk_size={args.chunk_size} chunk_overlap={args.chunk_overlap}, median of "
        f"{args.rounds} rounds (LangChain and the reference: 1 round when rounds > 3)\n"
    )
    print(table(results))
    return 1 if any(r.identical is False for r in results) else 0
