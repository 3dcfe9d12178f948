"""One long text counted, encoded and split by ``TokenTextSplitter`` on one thread and on
every thread of the process (docs/benchmarks.md, "One long text on every thread").

A text of a megabyte or more is tokenized across the pool (segments cut where every
pre-tokenizer ends a piece, a piece that long in parts; docs/tokens.md). The text is the
three corpora joined, repeated four times (about 14 MB). Each pass is on a fresh copy with
the piece caches emptied; wall-clock time (CPU time would add up both threads), in blocks
of passes per thread count, three blocks each, alternating; the median pass of all blocks.

    python benches/long_text_threads.py [passes per block]

Run on the release build (``scripts/setup.sh``).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import ferrochunk
from ferrochunk import tokens
from ferrochunk.bench import fresh, num_threads

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
from corpus import NAMES, texts


def main(passes: int = 3) -> None:
    enc = ferrochunk.get_encoding("cl100k_base")
    splitter = ferrochunk.TokenTextSplitter.from_tiktoken_encoder(
        encoding_name="cl100k_base", chunk_size=512, chunk_overlap=50
    )
    text = "\n".join("\n".join(texts(name)) for name in NAMES) * 4
    mb = len(text.encode()) / 1e6
    jobs = {"count": enc.count, "encode": enc.encode, "TokenTextSplitter": splitter.split_text}
    everyone = len(os.sched_getaffinity(0))
    seconds: dict[tuple[str, int], list[float]] = {}
    for _ in range(3):
        for threads in (1, everyone):
            with num_threads(threads):
                for name, job in jobs.items():
                    for _ in range(passes):
                        copy = fresh(text)
                        tokens.clear_caches()
                        start = time.perf_counter()
                        job(copy)
                        seconds.setdefault((name, threads), []).append(time.perf_counter() - start)
    print(f"\n{mb:.1f} MB, cl100k_base, wall clock, median pass\n")
    print(f"| job | 1 thread: MB/s | {everyone} threads: MB/s | speed-up |")
    print("|---|---:|---:|---:|")
    for name in jobs:
        one, all_ = (statistics.median(seconds[name, t]) for t in (1, everyone))
        print(f"| {name} | {mb / one:.0f} | {mb / all_:.0f} | {one / all_:.2f}x |")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
