"""Paired cold ratios of ``ferrochunk.langchain``'s drop-ins against LangChain's classes.

Each round makes fresh ``str`` objects (outside the timed region) for each side, then times
LangChain and ferrochunk back to back on them; the medians over rounds are printed as a
Markdown table. Outputs are checked identical first (except ``MarkdownChunker``, timed
against LangChain's header-then-recursive recipe, a different output).
Run: ``python benches/dropin_ratios.py [rounds] [case substring ...]`` (release build).
"""

from __future__ import annotations

import statistics
import sys
import time

from dropin_cases import CASES, COMPARED, fl, fresh, lc


def _seconds(split, items: list[str]) -> float:
    start = time.perf_counter()
    for text in items:
        split(text)
    return time.perf_counter() - start


def main(rounds: int = 7, only: tuple[str, ...] = ()) -> None:
    print("| class / input | MB | LangChain MB/s | ferrochunk MB/s | ratio |")
    print("|---|---|---|---|---|")
    for name, case in CASES.items():
        if only and not any(o in name for o in only):
            continue
        items = case.inputs()
        mb = sum(len(t.encode("utf-8")) for t in items) / 1e6
        theirs, ours = case.make(lc), case.make(fl)
        if name in COMPARED:
            assert [ours(t) for t in items] == [theirs(t) for t in items], name
        rows = []
        for _ in range(rounds):
            a, b = fresh(items), fresh(items)
            base, mine = _seconds(theirs, a), _seconds(ours, b)
            rows.append((mb / base, mb / mine, base / mine))
        med = [statistics.median(col) for col in zip(*rows)]
        print(f"| {name} | {mb:.1f} | {med[0]:.1f} | {med[1]:.1f} | {med[2]:.1f}x |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7, tuple(sys.argv[2:]))
