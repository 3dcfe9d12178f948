"""Incremental reruns at corpus scale: ``ferrochunk chunk --incremental`` after changing 1 %
of the files of a ~200 MB corpus, against a fresh full run of the changed corpus.

    .venv/bin/python benches/incremental.py --megabytes 200 --rounds 3

The corpus is the shared corpus copied into ``~/.cache/ferrochunk-corpora/incremental-MB``
(each copy's files start with a line naming the copy, so no two files are equal; made once,
never committed). Each round: a full run (no ``--incremental``) of the corpus as it is, then
1 % of the files edited (a sentence appended), then the timed pair: the incremental rerun and
a fresh full run of the edited corpus, each in its own process; the two outputs compared byte
for byte and the delta against the chunk ids that differ between the two full outputs
(parsed here). Medians of wall time; the ratio is incremental / full.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from ferrochunk.bench import host_line, load_average

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import corpus  # noqa: E402

CHUNK = [sys.executable, "-m", "ferrochunk", "chunk"]


def make_corpus(folder: Path, megabytes: int) -> list[Path]:
    if not (folder / ".done").exists():
        shutil.rmtree(folder, ignore_errors=True)
        files = [p for p in sorted(corpus.CORPUS.rglob("*")) if p.suffix in (".md", ".txt")]
        size = sum(p.stat().st_size for p in files)
        for copy in range(max(1, -(-megabytes * 1_000_000 // size))):
            for path in files:
                target = folder / f"copy{copy:04d}" / path.relative_to(corpus.CORPUS)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(f"copy {copy}\n\n" + path.read_text("utf-8"), "utf-8")
        (folder / ".done").touch()
    return sorted(p for p in folder.rglob("*") if p.suffix in (".md", ".txt"))


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, check=False)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{cmd} failed: {done.stderr.decode()[-2000:]}")
    return took


def ids(path: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    with path.open("rb") as file:
        for line in file:
            row = json.loads(line)
            found[row["source"]].add(row["chunk_id"])
    return found


def check_delta(delta: Path, before: Path, after: Path) -> int:
    a, b = ids(before), ids(after)
    want_add = {(s, i) for s in b for i in b[s] - a.get(s, set())}
    want_remove = {(s, i) for s in a for i in a[s] - b.get(s, set())}
    lines = [json.loads(x) for x in delta.read_text("utf-8").splitlines()[1:]]
    adds = {(d["source"], d["chunk_id"]) for d in lines if d["op"] == "add"}
    removes = {(d["source"], d["chunk_id"]) for d in lines if d["op"] == "remove"}
    if (adds, removes) != (want_add, want_remove):
        raise SystemExit("the delta is not the chunk ids that changed")
    return len(adds) + len(removes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", default="2")
    opts = parser.parse_args()
    cache = Path.home() / ".cache" / "ferrochunk-corpora" / f"incremental-{opts.megabytes}"
    files = make_corpus(cache / "corpus", opts.megabytes)
    work = cache / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    src, out, full = str(cache / "corpus"), work / "out.jsonl", work / "full.jsonl"
    threads = ["--threads", opts.threads, "-q"]
    print(host_line())
    print(f"before: {load_average()}; {len(files)} files, {opts.megabytes} MB")
    timed([*CHUNK, src, "-o", str(out), "--incremental", *threads])  # the first run
    rng = random.Random(33)
    rows = []
    for k in range(opts.rounds):
        timed([*CHUNK, src, "-o", str(full), *threads])  # the corpus before the edit
        shutil.copy(full, work / "before.jsonl")
        for path in rng.sample(files, max(1, len(files) // 100)):
            with path.open("a", encoding="utf-8") as file:
                file.write(f"\n\nAn edit of round {k}.\n")
        incremental = timed([*CHUNK, src, "-o", str(out), "--incremental", *threads])
        fresh = timed([*CHUNK, src, "-o", str(full), *threads])
        if out.read_bytes() != full.read_bytes():
            raise SystemExit("the incremental output differs from a full run's")
        changed = check_delta(work / "out.delta.jsonl", work / "before.jsonl", full)
        rows.append((incremental, fresh, changed))
        print(f"round {k}: incremental {incremental:.3f} s, full {fresh:.3f} s, delta {changed}")
    inc, fresh = statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows)
    print(f"median: incremental {inc:.3f} s, full {fresh:.3f} s, ratio {inc / fresh:.1%}")
    print(f"after: {load_average()}")


if __name__ == "__main__":
    main()
