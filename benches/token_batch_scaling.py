"""``count_batch`` (all cores) vs ``count`` in a loop (one thread): wall time and CPU time.

CPU time close to twice the wall time means both cores counted at once (no lock, GIL
released); CPU time per pass close to one thread's means no contention overhead.
Run: ``python benches/token_batch_scaling.py [rounds]`` (on the release build).
"""

from __future__ import annotations

import functools
import resource
import statistics
import sys
import time

import ferrochunk
from corpus import NAMES, megabytes, texts


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _measure(f, rounds: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(rounds):
        cpu, start = _cpu(), time.perf_counter()
        f()
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def _looped(count, items: list[str]):
    return lambda: [count(t) for t in items]


def main(rounds: int = 15) -> None:
    enc = ferrochunk.get_encoding("cl100k_base")
    count = functools.partial(enc.count, disallowed_special=())
    for corpus in NAMES:
        items = list(texts(corpus))
        mb = megabytes(tuple(items))
        single = _looped(count, items)
        batch = functools.partial(enc.count_batch, items, disallowed_special=())
        assert single() == batch()
        (ws, cs), (wb, cb) = _measure(single, rounds), _measure(batch, rounds)
        print(
            f"{corpus:12} count {mb / ws:4.0f} MB/s (cpu {cs * 1e3:4.1f} ms) | count_batch "
            f"{mb / wb:4.0f} MB/s (cpu {cb * 1e3:4.1f} ms) | {ws / wb:.2f}x wall, "
            f"cpu/wall {cb / wb:.2f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
