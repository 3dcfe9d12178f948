"""``ferrochunk.split`` (the one-off front door) against ``Splitter.split`` and against a
``Splitter`` built for every call (what the front door did before it kept its splitters),
cold: every round splits fresh ``str`` copies of the en-markdown files, one call a file;
prints MB/s of UTF-8 per second of process CPU time, the median of the rounds.

    python benches/front_door.py [--rounds 21]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import ferrochunk
from ferrochunk.bench import fresh

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
from corpus import texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    docs = texts("en-markdown")
    mb = sum(len(t.encode()) for t in docs) / 1e6
    splitter = ferrochunk.Splitter(1000)
    calls = {
        "`ferrochunk.split(text, 1000)`": lambda t: ferrochunk.split(t, 1000),
        "`Splitter(1000).split(text)` each call": lambda t: ferrochunk.Splitter(1000).split(t),
        "`splitter.split(text)`, one `Splitter`": splitter.split,
    }
    seconds: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(args.rounds):
        for name, call in calls.items():  # every row once a round: load hits them alike
            copies = [fresh(t) for t in docs]
            start = time.process_time()
            kept = [call(t) for t in copies]
            seconds[name].append(time.process_time() - start)
            del kept
    print("| en-markdown, one call a file | MB/s |\n|---|---:|")
    for name, runs in seconds.items():
        print(f"| {name} | {mb / statistics.median(runs):.0f} |")


if __name__ == "__main__":
    main()
