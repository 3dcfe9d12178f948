"""Speed of TextChunker's formats against MarkdownChunker, cold, paired rounds; prints a
Markdown table of MB/s (UTF-8 input per second of process CPU time).

    python benches/structure_speed.py [--rounds 7] [--size 1000]

Cold: every round splits fresh ``str`` objects (copies made outside the timed region), so
a non-ASCII text pays CPython's UTF-8 conversion as a first split does. Each round times
every row once, in turn, so load on the shared machine hits the rows alike; the table shows
the median round and each row's ratio to MarkdownChunker on the same round.

Rows: each format on its own documents (Markdown: ``../shared/corpus`` en-markdown and
zh-markdown; plain: en-prose; RST and AsciiDoc: ``~/.cache/ferrochunk-corpora`` when
``benches/fetch_corpora.py`` has filled it), and every format on the same text (the English
Markdown corpus read as each format), which compares the scanners on equal input.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import ferrochunk

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
import corpus

CACHE = Path.home() / ".cache" / "ferrochunk-corpora"


def texts_of(paths: list[Path]) -> list[str]:
    return [p.read_text("utf-8") for p in paths]


def rows(size: int) -> list[tuple[str, str, list[str], Callable[[str], object]]]:
    """(label, format, documents, split)."""
    md = texts_of(corpus.files("en-markdown", suffixes=(".md",)))
    out = []
    for fmt in ("markdown", "rst", "asciidoc", "plain"):
        chunker = ferrochunk.TextChunker(size, format=fmt)
        out.append((f"en-markdown read as {fmt}", fmt, md, chunker.split))
    zh = texts_of(corpus.files("zh-markdown", suffixes=(".md",)))
    out.append(("zh-markdown", "markdown", zh, ferrochunk.MarkdownChunker(size).split))
    prose = texts_of(corpus.files("en-prose"))
    out.append(("en-prose", "plain", prose, ferrochunk.TextChunker(size, format="plain").split))
    for fmt, suffix in (("rst", ".rst"), ("asciidoc", ".adoc")):
        docs = texts_of(sorted((CACHE / fmt).rglob(f"*{suffix}")))
        if docs:
            chunker = ferrochunk.TextChunker(size, format=fmt)
            out.append((f"{fmt} documentation", fmt, docs, chunker.split))
    return out


def one_round(docs: list[str], split: Callable[[str], object]) -> float:
    fresh = [(t + ".")[:-1] for t in docs]  # new str objects: no cached UTF-8 form
    t0 = time.process_time()
    for text in fresh:
        split(text)
    return time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--size", type=int, default=1000)
    args = parser.parse_args()
    table = rows(args.size)
    times: dict[str, list[float]] = {label: [] for label, *_ in table}
    for _ in range(args.rounds):
        for label, _, docs, split in table:
            times[label].append(one_round(docs, split))
    base = times["en-markdown read as markdown"]
    print(f"chunk_size={args.size} characters, {args.rounds} paired cold rounds, medians\n")
    print("| documents | format | MB | MB/s | vs Markdown on en-markdown (same round) |")
    print("|---|---|---:|---:|---:|")
    for label, fmt, docs, _ in table:
        mb = sum(len(t.encode("utf-8")) for t in docs) / 1e6
        speed = mb / statistics.median(times[label])
        ratios = [b / t for b, t in zip(base, times[label])]  # same-round speed ratio
        mb_base = sum(len(t.encode("utf-8")) for t in table[0][2]) / 1e6
        ratio = statistics.median(ratios) * mb / mb_base
        print(f"| {label} | {fmt} | {mb:.1f} | {speed:.0f} | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
