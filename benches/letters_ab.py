"""Counting cl100k tokens of one run of letters: another build's extension against this one,
in paired rounds inside one process (docs/benchmarks.md, "Counting tokens of one run of
letters").

On a shared machine speed drifts by tens of percent between runs, so comparing two builds in
separate runs says little. Here both extension modules are loaded side by side (the other one
from its ``.so`` file, e.g. main's build copied aside) and each round counts a fresh copy of
the same text with each, caches emptied; a ratio is the median of the rounds' ratios, and
the counts must agree. Both run on one thread (``FERROCHUNK_NUM_THREADS=1``), as CPU time
adds threads up: a text of 1 MB or more would otherwise be tokenized on every core.

    python benches/letters_ab.py OTHER_NATIVE_SO [--rounds N] [--sizes 5 50]
    python benches/letters_ab.py OTHER_NATIVE_SO --corpora   # ordinary text: each corpus
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import random
import re
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

from ferrochunk import _native
from ferrochunk.bench import fresh, num_threads

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
from corpus import NAMES, megabytes, texts


def load_extension(path: str) -> ModuleType:
    """The extension module at ``path``, loaded beside the installed one."""
    loader = importlib.machinery.ExtensionFileLoader("_native", path)
    spec = importlib.util.spec_from_file_location("_native", path, loader=loader)
    if spec is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def sources() -> dict:
    """The three texts of the table, by name: ``make(n)`` gives ``n`` characters."""
    table = bytes.maketrans(bytes(range(256)), bytes(97 + b % 26 for b in range(256)))
    prose = re.sub("[^A-Za-z]", "", "".join(texts("en-prose")))
    return {
        "random letters": lambda n: random.Random(9).randbytes(n).translate(table).decode(),
        "en-prose, letters only": lambda n: (prose * (n // len(prose) + 1))[:n],
        "one letter repeated": lambda n: "a" * n,
    }


def paired(modules: dict, items: list[str], rounds: int, op: str) -> tuple[dict, list[float]]:
    """``({build: median s}, [per-round ratio other / this])`` of ``op`` over fresh copies
    of ``items`` (caches emptied every round); raises if the builds' results differ."""
    encoders = {name: m.Encoder("cl100k_base") for name, m in modules.items()}
    seconds: dict[str, list[float]] = {k: [] for k in encoders}
    results = {}
    for r in range(rounds):
        # Alternating which build goes first: the second of a pair ran a few per cent faster
        # when both were the same build.
        for k in ("other", "this") if r % 2 == 0 else ("this", "other"):
            encoder = encoders[k]
            copies = [fresh(t) for t in items]
            modules[k].clear_token_caches()
            call = getattr(encoder, op)
            start = time.process_time()
            out = [call(c) if op == "encode_ordinary" else call(c, [], []) for c in copies]
            seconds[k].append(time.process_time() - start)
            results[k] = out
    if results["other"] != results["this"]:
        raise SystemExit("the builds' results differ")
    ratios = [a / b for a, b in zip(seconds["other"], seconds["this"])]
    return {k: statistics.median(v) for k, v in seconds.items()}, ratios


def row(cells: list[str], mb: float, median: dict, ratios: list[float]) -> str:
    speed = {k: mb / s for k, s in median.items()}
    return (
        "| "
        + " | ".join(
            [
                *cells,
                f"{speed['other']:.1f}",
                f"{speed['this']:.1f}",
                f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})",
            ]
        )
        + " |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="the other build's _native*.so")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 50], help="MB")
    parser.add_argument(
        "--corpora", action="store_true", help="encode_ordinary of each corpus instead"
    )
    args = parser.parse_args()
    modules = {"other": load_extension(args.other), "this": _native}
    if modules["other"] is _native:
        raise SystemExit("the other build is the installed one")
    print("| text | size | other: MB/s | this: MB/s | this / other (range) |")
    print("|---|---:|---:|---:|---:|")
    if args.corpora:
        for name in NAMES:
            items = list(texts(name))
            median, ratios = paired(modules, items, args.rounds, "encode_ordinary")
            print(row([name, "cold"], megabytes(texts(name)), median, ratios), flush=True)
        return
    for name, make in sources().items():
        for mb in args.sizes:
            median, ratios = paired(modules, [make(mb * 1_000_000)], args.rounds, "count")
            print(row([name, f"{mb} MB"], mb, median, ratios), flush=True)


if __name__ == "__main__":
    with num_threads(1):
        main()
