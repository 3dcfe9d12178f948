"""``count_batch`` (all cores) vs ``count`` in a loop (one thread): wall time and CPU time.

Rounds are paired (one thread, then all cores, back to back) and the speed-up is the median
of the per-round ratios, which other work on a shared machine disturbs least. CPU time close
to twice the wall time means both cores counted at once (no lock, GIL released); CPU time
per pass close to one thread's means no contention overhead.
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


def _timed(f) -> tuple[float, float]:
    cpu, start = _cpu(), time.perf_counter()
    f()
    return time.perf_counter() - start, _cpu() - cpu


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
        rounds_ = [(_timed(single), _timed(batch)) for _ in range(rounds)]
        ws, cs = (statistics.median(r[0][i] for r in rounds_) for i in (0, 1))
        wb, cb = (statistics.median(r[1][i] for r in rounds_) for i in (0, 1))
        speedup = statistics.median(s[0] / b[0] for s, b in rounds_)
        print(
            f"{corpus:12} count {mb / ws:4.0f} MB/s (cpu {cs * 1e3:4.1f} ms) | count_batch "
            f"{mb / wb:4.0f} MB/s (cpu {cb * 1e3:4.1f} ms) | {speedup:.2f}x wall (median of "
            f"paired rounds), cpu/wall {cb / wb:.2f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
