"""Paired counting ratios vs tiktoken, cold and warm, robust to a busy machine.

Each round times tiktoken on fresh copies of the texts, then ferrochunk on fresh copies with
emptied piece caches (cold: the first pass over text just read), then ferrochunk again on the
same copies (warm), back to back, and keeps each round's ratios; the medians over rounds are
printed. Fresh copies (new ``str`` objects made before the clock starts) matter for tiktoken
too: it reads a ``str`` through its UTF-8 form, which CPython builds on first use and keeps
in the object. Counts are checked against tiktoken's first.
Run: ``python benches/token_ratios.py [rounds] [encoding ...]`` (on the release build).
"""

from __future__ import annotations

import functools
import statistics
import sys
import time
from pathlib import Path

import ferrochunk
from ferrochunk import tokens
from ferrochunk.bench import fresh

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
from corpus import NAMES, megabytes, texts


def _seconds(f, items: tuple[str, ...]) -> float:
    start = time.perf_counter()
    for text in items:
        f(text)
    return time.perf_counter() - start


ENCODINGS = ("cl100k_base", "o200k_base", "gpt2")


def main(rounds: int = 9, names: tuple[str, ...] = ENCODINGS) -> None:
    for name in names:
        theirs, ours = ferrochunk.tiktoken_encoding(name), ferrochunk.get_encoding(name)
        for corpus in NAMES:
            items = texts(corpus)
            mb = megabytes(items)
            want = [len(theirs.encode_ordinary(t)) for t in items]
            assert [ours.count(t, disallowed_special=()) for t in items] == want, name
            count = functools.partial(ours.count, disallowed_special=())
            rows = []
            for _ in range(rounds):
                base = _seconds(theirs.encode_ordinary, tuple(fresh(t) for t in items))
                copies = tuple(fresh(t) for t in items)
                tokens.clear_caches()
                cold = _seconds(count, copies)
                warm = _seconds(count, copies)
                rows.append((mb / base, mb / cold, mb / warm, base / cold, base / warm))
            med = [statistics.median(col) for col in zip(*rows)]
            print(
                f"{name:12} {corpus:12} tiktoken {med[0]:5.1f} MB/s | ferrochunk cold "
                f"{med[1]:5.1f} MB/s ({med[3]:4.1f}x) | warm {med[2]:5.1f} MB/s ({med[4]:4.1f}x)"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 9, tuple(sys.argv[2:]) or ENCODINGS)
