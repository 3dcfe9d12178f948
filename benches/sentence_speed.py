"""MB/s of ``ferrochunk.sentence_ends`` per corpus, cold (fresh strings each round) and warm,
in paired rounds: median and best round (on a shared machine preempted rounds are several
times slower, so the best round is the engine's speed); the UTF-8 encode of the same fresh
strings for scale.

    .venv/bin/python benches/sentence_speed.py [rounds]
"""

from __future__ import annotations

import statistics
import sys
import time

from corpus import NAMES, megabytes, texts
from ferrochunk import sentence_ends


def timed(fn, items) -> float:
    start = time.perf_counter()
    for t in items:
        fn(t)
    return time.perf_counter() - start


def main(rounds: int) -> None:
    print("MB/s as median / best round")
    print(f"{'corpus':<12} {'MB':>5} {'cold':>11} {'warm':>11} {'str.encode':>11}")
    for name in NAMES:
        items, mb = texts(name), megabytes(texts(name))
        cold, warm, encode = [], [], []
        for _ in range(rounds):
            fresh = [(t + " ")[:-1] for t in items]
            cold.append(timed(sentence_ends, fresh))
            warm.append(timed(sentence_ends, fresh))
            fresh = [(t + " ")[:-1] for t in items]
            encode.append(timed(str.encode, fresh))
        row = [f"{mb / statistics.median(x):.0f} / {mb / min(x):.0f}" for x in (cold, warm, encode)]
        print(f"{name:<12} {mb:5.2f} {row[0]:>11} {row[1]:>11} {row[2]:>11}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 21)
