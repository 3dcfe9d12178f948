"""Spans without strings: ``Splitter.spans`` against ``Splitter.split`` and chonkie-core's
``chunk_offsets`` on each shared corpus (one call a file, one thread); ``spans_batch`` and
``split_batch(output="arrow")`` (and the ``Chunk`` batch) at 2 threads against 1; and
``ferrochunk.split`` against ``Splitter.split`` per call.

Cold: every timed call gets fresh ``str`` copies (nothing cached in them). Paired rounds:
each round times every row once, in turn, so load on the shared host hits them alike; the
table gives the median over rounds of MB/s (UTF-8 bytes per wall-clock second) and of each
round's ratio. Outputs are checked equal to ``split``'s chunks before timing.

    python benches/spans_speed.py [--rounds 11] [--batch-copies 8]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import ferrochunk
from ferrochunk.bench import fresh, host_line, load_average

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
import corpus

SIZE, OVERLAP = 1000, 200
TIMES = "\u00d7"  # the multiplication sign of the ratios


def chonkie_offsets() -> Callable[[str], Any] | None:
    """chonkie-core's ``chunk_offsets`` on a text (encoded first: it takes bytes), or None."""
    try:
        from chonkie_core import chunk_offsets
    except ImportError:
        return None
    return lambda text: chunk_offsets(text.encode(), size=SIZE)


def timed(call: Callable[[list[str]], Any], docs: list[str]) -> float:
    """Wall seconds of ``call`` on fresh copies of ``docs`` (the copies made untimed)."""
    copies = [fresh(t) for t in docs]
    start = time.perf_counter()
    kept = call(copies)
    seconds = time.perf_counter() - start
    del kept
    return seconds


def check(splitter: ferrochunk.Splitter, docs: list[str]) -> None:
    """spans, spans_batch and the Arrow batch equal ``split``'s chunks."""
    want = [[(c.start, c.end) for c in splitter.split(t)] for t in docs]
    assert [splitter.spans(t).tolist() for t in docs] == [[list(p) for p in w] for w in want]
    flat, offsets = splitter.spans_batch(docs, threads=2)
    assert flat.tolist() == [list(p) for w in want for p in w]
    assert np.diff(offsets).tolist() == [len(w) for w in want]
    table = splitter.split_batch(docs, threads=2, output="arrow")
    pairs = zip(table.column("start").to_pylist(), table.column("end").to_pylist())
    assert list(pairs) == [p for w in want for p in w]


def rows(splitter: ferrochunk.Splitter, offsets: Callable[[str], Any] | None) -> dict:
    """One-thread calls, one a file: name -> call on a list of texts."""
    out: dict[str, Callable[[list[str]], Any]] = {
        "split": lambda ts: [splitter.split(t) for t in ts],
        "spans": lambda ts: [splitter.spans(t) for t in ts],
    }
    if offsets is not None:
        out["chonkie-core chunk_offsets"] = lambda ts: [offsets(t) for t in ts]
    return out


def batch_rows(splitter: ferrochunk.Splitter) -> dict:
    """Batches of the corpus repeated, at 1 and 2 threads."""
    out: dict[str, Callable[[list[str]], Any]] = {}
    for threads in (1, 2):
        out[f"spans_batch/{threads}"] = lambda ts, n=threads: splitter.spans_batch(ts, threads=n)
        out[f"arrow/{threads}"] = lambda ts, n=threads: splitter.split_batch(
            ts, threads=n, output="arrow"
        )
        out[f"chunks/{threads}"] = lambda ts, n=threads: splitter.split_batch(ts, threads=n)
    return out


def measure(table: dict, docs: list[str], rounds: int) -> dict[str, list[float]]:
    """Seconds of every row, ``rounds`` paired rounds after one untimed (pools started,
    code paged in, the front door's splitter built)."""
    for call in table.values():
        timed(call, docs)
    seconds: dict[str, list[float]] = {name: [] for name in table}
    for _ in range(rounds):
        for name, call in table.items():
            seconds[name].append(timed(call, docs))
    return seconds


def median_ratio(a: list[float], b: list[float]) -> float:
    """Median over rounds of ``b / a`` (seconds): how many times faster ``a`` is."""
    return statistics.median(y / x for x, y in zip(a, b))


def front_door(rounds: int) -> tuple[float, float, float, float]:
    """``ferrochunk.split`` and ``Splitter.split`` per call on en-markdown files (MB/s) and
    on its paragraphs (microseconds a call)."""
    splitter = ferrochunk.Splitter(SIZE, chunk_overlap=OVERLAP)
    calls = {
        "split()": lambda ts: [ferrochunk.split(t, SIZE, chunk_overlap=OVERLAP) for t in ts],
        "Splitter.split": lambda ts: [splitter.split(t) for t in ts],
    }
    files = list(corpus.texts("en-markdown"))
    paragraphs = [p for p in corpus.paragraphs() if p.isascii()][:20000]
    mb = sum(len(t.encode()) for t in files) / 1e6
    on_files = measure(calls, files, rounds)
    on_paragraphs = measure(calls, paragraphs, rounds)
    us = {k: statistics.median(v) / len(paragraphs) * 1e6 for k, v in on_paragraphs.items()}
    return (
        mb / statistics.median(on_files["split()"]),
        mb / statistics.median(on_files["Splitter.split"]),
        us["split()"],
        us["Splitter.split"],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--batch-copies", type=int, default=8)
    args = parser.parse_args()
    splitter = ferrochunk.Splitter(SIZE, chunk_overlap=OVERLAP)
    offsets = chonkie_offsets()
    print(f"--rounds {args.rounds}: {host_line()}, commit {commit()}\n")
    print(f"| `Splitter({SIZE}, chunk_overlap={OVERLAP})`, MB/s | " + " | ".join(corpus.NAMES))
    print("|---|" + "---:|" * len(corpus.NAMES))
    cells: dict[str, list[str]] = {}
    for name in corpus.NAMES:
        docs = list(corpus.texts(name))
        check(splitter, docs)
        mb = sum(len(t.encode()) for t in docs) / 1e6
        one = measure(rows(splitter, offsets), docs, args.rounds)
        many = docs * args.batch_copies
        batch = measure(batch_rows(splitter), many, args.rounds)
        split = one["split"]
        for row, runs in one.items():
            speed = f"{mb / statistics.median(runs):.0f}"
            if row != "split":
                speed += f" ({median_ratio(runs, split):.1f}{TIMES} split)"
            cells.setdefault(row, []).append(speed)
        for kind in ("spans_batch", "arrow", "chunks"):
            ratio = median_ratio(batch[f"{kind}/2"], batch[f"{kind}/1"])
            cells.setdefault(f"{kind} 2 threads ÷ 1", []).append(f"{ratio:.2f}{TIMES}")
    labels = {
        "split": "`split(text)` (`Chunk`s)",
        "spans": "`spans(text)` (numpy array)",
        "chonkie-core chunk_offsets": "chonkie-core `chunk_offsets` (its chunks, not ours)",
        "spans_batch 2 threads ÷ 1": "`spans_batch`, 2 threads ÷ 1",
        "arrow 2 threads ÷ 1": "`split_batch(output='arrow')`, 2 threads ÷ 1",
        "chunks 2 threads ÷ 1": "`split_batch` (`Chunk`s), 2 threads ÷ 1",
    }
    for row, values in cells.items():
        print(f"| {labels[row]} | " + " | ".join(values) + " |")
    fd = front_door(args.rounds)
    print(
        f"\nen-markdown, one call a file: `ferrochunk.split` {fd[0]:.0f} MB/s, "
        f"`Splitter.split` {fd[1]:.0f} MB/s ({fd[0] / fd[1]:.2f}); per call on its "
        f"paragraphs: {fd[2]:.2f} µs against {fd[3]:.2f} µs"
    )
    print(f"At the end: {load_average()}")


def commit() -> str:
    """The checkout's commit, or ``unknown``."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True
        )
    except OSError:
        return "unknown"
    return head.stdout.decode().strip() or "unknown"


if __name__ == "__main__":
    main()
