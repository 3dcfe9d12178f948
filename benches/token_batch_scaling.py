"""``count_batch`` (all cores) vs ``count`` in a loop (one thread): wall time and CPU time,
cold (every pass on fresh copies of the texts, piece caches emptied).

Rounds come in blocks (a block of passes on one thread, then a block on all cores, three
times over) and the speed-up is the median of the per-block ratios of median times, which
other work on a shared machine disturbs least. Blocks, not alternate passes: the one-thread
loop runs on the calling thread and the batch on the pool's, each with its own piece cache,
and alternating every pass made them evict each other from the CPU's shared cache. CPU time close
to twice the wall time means both cores counted at once (no lock, GIL released); CPU time
per pass close to one thread's means no contention overhead. Each corpus is measured as it
is (a pass of 2-4 ms, where waking the pool's threads and their idling at the end weigh)
and repeated four times in one batch (the corpus README's way to a larger input).
Run: ``python benches/token_batch_scaling.py [rounds per block]`` (on the release build).
"""

from __future__ import annotations

import functools
import resource
import statistics
import sys
import time
from pathlib import Path

import ferrochunk

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
from corpus import NAMES, megabytes, texts
from ferrochunk import tokens
from ferrochunk.bench import fresh


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _timed(f, items: list[str]) -> tuple[float, float]:
    """Wall and CPU time of ``f`` on fresh copies of ``items`` with emptied piece caches."""
    copies = [fresh(t) for t in items]
    tokens.clear_caches()
    cpu, start = _cpu(), time.perf_counter()
    f(copies)
    return time.perf_counter() - start, _cpu() - cpu


def _looped(count):
    return lambda items: [count(t) for t in items]


def main(rounds: int = 15) -> None:
    enc = ferrochunk.get_encoding("cl100k_base")
    count = functools.partial(enc.count, disallowed_special=())
    for corpus, repeat in [(name, n) for n in (1, 4) for name in NAMES]:
        items = list(texts(corpus)) * repeat
        mb = megabytes(tuple(items))
        single = _looped(count)
        batch = functools.partial(enc.count_batch, disallowed_special=())
        assert single(items) == batch(items)
        blocks = [
            (
                [_timed(single, items) for _ in range(rounds)],
                [_timed(batch, items) for _ in range(rounds)],
            )
            for _ in range(3)
        ]
        singles = [t for block in blocks for t in block[0]]
        batches = [t for block in blocks for t in block[1]]
        ws, cs = (statistics.median(t[i] for t in singles) for i in (0, 1))
        wb, cb = (statistics.median(t[i] for t in batches) for i in (0, 1))
        speedup = statistics.median(
            statistics.median(t[0] for t in one) / statistics.median(t[0] for t in many)
            for one, many in blocks
        )
        print(
            f"{corpus:12} x{repeat} count {mb / ws:4.0f} MB/s (cpu {cs * 1e3:4.1f} ms) | "
            f"count_batch {mb / wb:4.0f} MB/s (cpu {cb * 1e3:4.1f} ms) | {speedup:.2f}x wall, "
            f"cpu/wall {cb / wb:.2f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
