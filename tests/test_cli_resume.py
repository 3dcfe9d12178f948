"""A killed ``ferrochunk chunk --incremental`` run is resumed by the next one with the same
arguments (``cli/incremental.py``), tried for real: 50 runs SIGKILLed at random points (some
twice in a row), each then run again to the end. Every time the output between the two is the
previous one byte for byte or the new one complete, the final output is a fresh full run's,
the delta is exactly the change since the last completed run (not since the killed one), and
the rerun redid only what the state had not recorded as finished."""

from __future__ import annotations

import json
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from test_cli_atomic import write_corpus
from test_cli_incremental import delta, expected

COMMAND = [sys.executable, "-m", "ferrochunk", "chunk"]
# Token sizes on one thread: a run long enough to be killed at many points.
SLOW = ["--encoding", "cl100k_base", "--threads", "1"]
KILLS = 50
SUMMARY = re.compile(r"(\d+) unchanged, (\d+) chunked \((\d+) new\)(?:, (\d+) resumed)?")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], capture_output=True, timeout=120, check=False)


def change(corpus: Path) -> None:
    """Every other file rewritten, one removed, some added."""
    files = sorted(corpus.iterdir())
    for k, path in enumerate(files):
        if k % 2:
            path.write_text(path.read_text("utf-8").replace("alpha", "omega"), "utf-8")
    files[0].unlink()
    for k in range(20):
        (corpus / f"new{k:02d}.md").write_text(f"# New {k}\n\nSome new text {k}.", "utf-8")


def finished(state: Path) -> tuple[int, bool]:
    """Sources the killed run recorded as finished (its ``run`` generation), and whether it
    completed (killed after its last commit, or not killed at all): its delta was written,
    and the next run's lists the changes since."""
    db = sqlite3.connect(state)
    try:
        done = db.execute("SELECT count(*) FROM run").fetchone()[0]
        base = db.execute("SELECT value FROM meta WHERE key = 'base_is_out'").fetchone()[0]
        runs = db.execute("SELECT value FROM meta WHERE key = 'runs'").fetchone()[0]
        return int(done), base == "1" and int(runs) >= 2
    finally:
        db.close()


def test_sigkilled_runs_resume_to_a_full_runs_output(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", 500)
    work, saved = tmp_path / "work", tmp_path / "saved"
    work.mkdir()
    out, state = work / "out.jsonl", work / ".out.jsonl.ferrochunk-state"
    args = [str(corpus), "-o", str(out), "--incremental", *SLOW]
    assert run(*args, "-q").returncode == 0
    old = out.read_bytes()
    shutil.copytree(work, saved)  # the completed run: output, delta, state
    change(corpus)
    ref = tmp_path / "ref.jsonl"
    assert run(str(corpus), "-o", str(ref), *SLOW, "-q").returncode == 0
    new = ref.read_bytes()
    want = expected(old, new)

    def restore() -> None:
        shutil.rmtree(work)
        shutil.copytree(saved, work)

    restore()
    start = time.monotonic()
    assert run(*args, "-q").returncode == 0
    took = time.monotonic() - start
    assert out.read_bytes() == new

    rng = random.Random(33)
    resumed_some = 0
    for _ in range(KILLS):
        restore()
        for _ in range(1 if rng.random() < 0.7 else 2):
            proc = subprocess.Popen([*COMMAND, *args, "-q"], stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.05, 1.2) * took)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            assert out.read_bytes() in (old, new)  # never partial
        done, completed = finished(state)
        again = run(*args)
        assert again.returncode == 0, again.stderr.decode()
        assert out.read_bytes() == new
        _, adds, removes, gone = delta(work / "out.delta.jsonl")
        assert (adds, removes, gone) == ((set(), set(), set()) if completed else want)
        counts = SUMMARY.search(again.stderr.decode())
        assert counts, again.stderr.decode()
        resumed = int(counts[4] or 0)
        assert resumed == done  # every source recorded finished, and no other, was kept
        resumed_some += resumed > 0
        assert not any(".ferrochunk-run" in p.name or "-tmp-" in p.name for p in work.iterdir())
    assert resumed_some >= 5  # some kills did land mid-run, after some sources


def test_a_completed_run_is_not_resumed_twice(tmp_path: Path) -> None:
    """After a clean end the state holds no run: the next run reuses the output instead."""
    corpus = write_corpus(tmp_path / "corpus", 20)
    out = tmp_path / "out.jsonl"
    assert run(str(corpus), "-o", str(out), "--incremental", "-q").returncode == 0
    again = run(str(corpus), "-o", str(out), "--incremental")
    counts = SUMMARY.search(again.stderr.decode())
    assert counts and counts[1] == "20" and counts[4] is None
    head = json.loads((tmp_path / "out.delta.jsonl").read_text("utf-8").splitlines()[0])
    assert head["added"] == head["removed"] == 0
