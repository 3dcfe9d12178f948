"""``ferrochunk.tiktoken`` against tiktoken: ``encode`` per file and ``encode_batch`` of
every paragraph, cold, paired rounds, medians.

Each round times both libraries on fresh copies of the texts (new ``str`` objects made
before the clock starts: both read a ``str`` through a UTF-8 form CPython would otherwise
keep in the object), ferrochunk with its piece caches emptied first, in alternating order;
the medians of each round's MB/s and of its ratio are printed, with the ratio's range.
Outputs are checked equal first. tiktoken's ``encode_batch`` runs its default 8 threads
(a thread pool holding the GIL to build each list), ferrochunk's as many as the machine has
(Rust, the GIL released). Run: ``python benches/tiktoken_dropin.py [--rounds N] [ENCODING ...]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import ferrochunk.tiktoken as fc
from ferrochunk import tokens
from ferrochunk.bench import fresh

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
from corpus import NAMES, megabytes, texts

ENCODINGS = ("cl100k_base", "o200k_base")


def _per_text(enc: Any) -> Callable[[tuple[str, ...]], object]:
    return lambda items: [enc.encode(t) for t in items]


def _batch(enc: Any) -> Callable[[tuple[str, ...]], object]:
    return lambda items: enc.encode_batch(list(items))


def _time(run: Callable[[tuple[str, ...]], object], items: tuple[str, ...], ours: bool) -> float:
    copies = tuple(fresh(t) for t in items)
    if ours:
        tokens.clear_caches()
    start = time.perf_counter()
    run(copies)
    return time.perf_counter() - start


def paired(
    make: Callable[[Any], Callable[[tuple[str, ...]], object]],
    name: str,
    items: tuple[str, ...],
    rounds: int,
) -> tuple[float, float, float, float, float]:
    """Median MB/s of tiktoken and ferrochunk, and the median, lowest and highest ratio."""
    theirs, ours = tokens.tiktoken_encoding(name), fc.get_encoding(name)
    assert make(ours)(items) == make(theirs)(items), name
    mb, rows = megabytes(items), []
    for i in range(rounds):
        order = [(make(theirs), False), (make(ours), True)]
        times = dict(
            (is_ours, _time(run, items, is_ours)) for run, is_ours in order[:: 1 - 2 * (i % 2)]
        )
        rows.append((mb / times[False], mb / times[True], times[False] / times[True]))
    ratios = [r[2] for r in rows]
    return (
        statistics.median(r[0] for r in rows),
        statistics.median(r[1] for r in rows),
        statistics.median(ratios),
        min(ratios),
        max(ratios),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("encodings", nargs="*", default=list(ENCODINGS))
    args = parser.parse_args(argv)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"--rounds {args.rounds}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, ")
    print(f"{os.cpu_count()} CPUs, load average {load}\n")
    print("| encoding | corpus | call | tiktoken MB/s | ferrochunk MB/s | ratio | range |")
    print("|---|---|---|---:|---:|---:|---|")
    for name in args.encodings:
        for corpus_name in NAMES:
            cases = [("encode per file", _per_text, texts(corpus_name))]
            cases.append(
                ("encode_batch of paragraphs", _batch, paragraphs_of(corpus_name)),
            )
            for call, make, items in cases:
                base, ours, ratio, low, high = paired(make, name, items, args.rounds)
                print(
                    f"| {name} | {corpus_name} | {call} | {base:.1f} | {ours:.1f} | "
                    f"{ratio:.1f}x | {low:.1f}-{high:.1f}x |"
                )


def paragraphs_of(corpus_name: str) -> tuple[str, ...]:
    """The paragraphs of one corpus (many short documents)."""
    return tuple(p for t in texts(corpus_name) for p in t.split("\n\n") if p.strip())


if __name__ == "__main__":
    main()
