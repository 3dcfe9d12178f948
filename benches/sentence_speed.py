"""MB/s of ``ferrochunk.sentence_ends`` per corpus, cold (fresh strings each round) and warm,
in paired rounds; ``str.encode`` of the same fresh strings for scale.

Two figures per cell: the median round, and the sum over files of each file's best round.
On a shared machine a round is often preempted (several times slower); the per-file best is
the engine's own speed.

    .venv/bin/python benches/sentence_speed.py [rounds]
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Callable

from corpus import NAMES, megabytes, texts
from ferrochunk import sentence_ends


def timed(fn: Callable[[str], object], items: list[str]) -> list[float]:
    out = []
    for t in items:
        start = time.perf_counter()
        fn(t)
        out.append(time.perf_counter() - start)
    return out


def fresh(items: tuple[str, ...]) -> list[str]:
    return [(t + " ")[:-1] for t in items]


def main(rounds: int) -> None:
    print("MB/s: median round / per-file best")
    print(f"{'corpus':<12} {'MB':>5} {'cold':>11} {'warm':>11} {'str.encode':>11}")
    for name in NAMES:
        items, mb = texts(name), megabytes(texts(name))
        runs: dict[str, list[list[float]]] = {"cold": [], "warm": [], "encode": []}
        for _ in range(rounds):
            strings = fresh(items)
            runs["cold"].append(timed(sentence_ends, strings))
            runs["warm"].append(timed(sentence_ends, strings))
            runs["encode"].append(timed(str.encode, fresh(items)))
        cells = []
        for per_round in runs.values():
            median = statistics.median(sum(r) for r in per_round)
            best = sum(min(files) for files in zip(*per_round))
            cells.append(f"{mb / median:.0f} / {mb / best:.0f}")
        print(f"{name:<12} {mb:5.2f} {cells[0]:>11} {cells[1]:>11} {cells[2]:>11}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 21)
