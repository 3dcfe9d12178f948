"""``ferrochunk chunk -o FILE`` replaces FILE whole or not at all (``ferrochunk/_atomic.py``),
tried for real on the command in a subprocess: SIGKILLs at random points of runs, a full disk
(a 64 KB tmpfs), a second run on the same output while one is writing it, and SIGINT, SIGTERM
and SIGHUP. Each time the previous output is byte-identical or the new one complete, and no
temporary or lock file is left (a SIGKILL's is removed by the next run)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

COMMAND = [sys.executable, "-m", "ferrochunk", "chunk"]
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()
# Token sizes on one thread: a run long enough (about 0.2-0.5 s) to be killed at many points.
SLOW = ["--encoding", "cl100k_base", "--threads", "1", "-q"]


def write_corpus(folder: Path, files: int) -> Path:
    """``files`` Markdown files of about 14 KB of words, the same on every call."""
    rng = random.Random(33)
    folder.mkdir()
    for k in range(files):
        paragraphs = [" ".join(rng.choices(WORDS, k=60)) + "." for _ in range(40)]
        (folder / f"{k:04d}.md").write_text(f"# Doc {k}\n\n" + "\n\n".join(paragraphs), "utf-8")
    return folder


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("atomic") / "corpus", 1200)


@pytest.fixture
def small(tmp_path: Path) -> Path:
    """One short file: an output of a few hundred bytes (the "old" one)."""
    path = tmp_path / "small.md"
    path.write_text("An old, short document.", encoding="utf-8")
    return path


def run(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], capture_output=True, timeout=120, **kwargs)


def leftovers(folder: Path, keep: str) -> list[str]:
    """Files in ``folder`` other than ``keep`` (temporary and lock files)."""
    return sorted(p.name for p in folder.iterdir() if p.name != keep)


def wait_for_temp(folder: Path, timeout: float = 20.0) -> bool:
    """Whether a run's temporary file appeared in ``folder`` (it then holds the lock)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if any(".ferrochunk-tmp-" in p.name for p in folder.iterdir()):
            return True
        time.sleep(0.01)
    return False


def test_sigkill_at_random_points_leaves_the_old_output_or_the_new_one(
    corpus: Path, tmp_path: Path
) -> None:
    """50 runs killed at random points between start and half again a full run's time:
    the output is each time the previous one byte for byte or the new one complete."""
    old = tmp_path / "old.jsonl"
    assert run(str(corpus), "-o", str(old), "--chunk-size", "128", *SLOW).returncode == 0
    fresh = tmp_path / "fresh.jsonl"
    start = time.monotonic()
    assert run(str(corpus), "-o", str(fresh), *SLOW).returncode == 0
    took = time.monotonic() - start
    old_bytes, new_bytes = old.read_bytes(), fresh.read_bytes()
    assert old_bytes != new_bytes and new_bytes.count(b"\n") > 1000
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "chunks.jsonl"
    rng = random.Random(33)
    seen = {"old": 0, "new": 0, "partial": 0, "temp left": 0}
    for _ in range(50):
        target.write_bytes(old_bytes)
        process = subprocess.Popen([*COMMAND, str(corpus), "-o", str(target), *SLOW])
        time.sleep(rng.uniform(0, 1.5 * took))
        process.kill()
        process.wait(timeout=60)
        got = target.read_bytes()
        seen["old" if got == old_bytes else "new" if got == new_bytes else "partial"] += 1
        seen["temp left"] += any(".ferrochunk-tmp-" in n for n in leftovers(folder, target.name))
    assert seen["partial"] == 0, seen
    assert seen["old"] and seen["temp left"], seen  # kills did land while it wrote
    print(f"\n{took:.2f} s a run; 50 SIGKILLs: {seen}")
    # The next run removes what killed runs left, and leaves nothing of its own.
    assert run(str(corpus), "-o", str(target), *SLOW).returncode == 0
    assert target.read_bytes() == new_bytes
    assert leftovers(folder, target.name) == []


def mount_tmpfs(folder: Path, size: str) -> None:
    """A tmpfs of ``size`` at ``folder``, or skip (not root, or mounting not allowed)."""
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a full disk needs a tmpfs mount, which needs root")
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
            capture_output=True,
            timeout=30,
        )
    except FileNotFoundError:
        pytest.skip("no mount command")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")


@pytest.mark.parametrize("suffix", ["jsonl", "parquet"])
def test_a_full_disk_leaves_the_old_output(
    corpus: Path, small: Path, tmp_path: Path, suffix: str
) -> None:
    disk = tmp_path / "disk"
    mount_tmpfs(disk, "64k")
    try:
        target = disk / f"chunks.{suffix}"
        assert run(str(small), "-o", str(target), "-q").returncode == 0
        old = target.read_bytes()
        result = run(str(corpus), "-o", str(target), "-q")
        err = result.stderr.decode()
        assert result.returncode == 2 and "No space left on device" in err, err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert target.read_bytes() == old
        assert leftovers(disk, target.name) == []
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True, timeout=30)


def test_a_second_run_on_the_same_output_is_refused(small: Path, tmp_path: Path) -> None:
    """The first run reads standard input, so it holds the output as long as the test keeps
    its pipe open; a run writing another file of the same folder goes ahead."""
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "chunks.jsonl"
    first = subprocess.Popen(
        [*COMMAND, "-", "-o", str(target), "-q"], stdin=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        wait_for_temp(folder)
        second = run(str(small), "-o", str(target))
        err = second.stderr.decode()
        assert second.returncode == 2 and err.count("\n") == 1, err
        assert f"is being written by another ferrochunk run (process {first.pid})" in err, err
        other = folder / "other.jsonl"
        assert run(str(small), "-o", str(other), "-q").returncode == 0
        assert other.stat().st_size > 0
    finally:
        _, first_err = first.communicate(b"The first run's text.", timeout=60)
    assert first.returncode == 0, first_err
    rows = [json.loads(line) for line in target.read_bytes().splitlines()]
    assert [r["text"] for r in rows] == ["The first run's text."]
    assert leftovers(folder, target.name) == ["other.jsonl"]


@pytest.mark.parametrize(
    ("sig", "code", "said"),
    [
        (signal.SIGINT, 130, "interrupted"),
        (signal.SIGTERM, 143, "terminated"),
        (signal.SIGHUP, 129, "terminated"),
    ],
)
def test_a_signal_leaves_the_old_output_and_no_temporary_file(
    small: Path, tmp_path: Path, sig: int, code: int, said: str
) -> None:
    """The signal comes while the run waits on standard input, with its temporary file
    open; the run stops when the input ends, as a clean-up after an exception."""
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "chunks.jsonl"
    assert run(str(small), "-o", str(target), "-q").returncode == 0
    old = target.read_bytes()
    process = subprocess.Popen(
        [*COMMAND, "-", "-o", str(target), "-q"], stdin=subprocess.PIPE, stderr=subprocess.PIPE
    )
    wait_for_temp(folder)
    process.send_signal(sig)
    _, err = process.communicate(b"Text that must not reach the output.", timeout=60)
    assert process.returncode == code, err
    assert err.decode() == f"ferrochunk chunk: {said}\n"
    assert target.read_bytes() == old
    assert leftovers(folder, target.name) == []


def test_a_python_exception_leaves_the_old_output(
    corpus: Path, small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception in the middle of the run (here from the loop that takes the job's
    outputs) propagates, and the output is the old one, with nothing beside it."""
    from ferrochunk.cli import chunk, main

    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "chunks.jsonl"
    assert main(["chunk", str(small), "-o", str(target), "-q"]) == 0
    old = target.read_bytes()
    opened = chunk.open_writer

    def failing(*args, **kwargs):
        writer = opened(*args, **kwargs)
        seen = []

        def write(payload: bytes) -> None:
            seen.append(payload)
            if len(seen) == 3:
                raise RuntimeError("a bug in the middle of the run")

        writer.write = write
        return writer

    monkeypatch.setattr(chunk, "open_writer", failing)
    with pytest.raises(RuntimeError, match="a bug"):
        main(["chunk", str(corpus), "-o", str(target), "-q", "--threads", "1"])
    assert target.read_bytes() == old
    assert leftovers(folder, target.name) == []


def test_eval_files_are_replaced_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ferrochunk eval``'s chart: a failure half-way through writing it leaves the old one."""
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from ferrochunk.eval.report import write_chart, write_json

    report = {
        "results": [],
        "k": 5,
        "dataset": {"name": "sample", "questions": 3, "kind": "span"},
        "retriever": "bm25",
    }
    chart, data = tmp_path / "eval.png", tmp_path / "eval.json"
    write_chart(report, chart)
    write_json(report, data)
    old = chart.read_bytes()
    assert old.startswith(b"\x89PNG") and json.loads(data.read_text("utf-8")) == report

    def half_written(self, where, **kwargs) -> None:
        Path(where).write_bytes(b"\x89PNG half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", half_written)
    with pytest.raises(OSError):
        write_chart(report, chart)
    assert chart.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["eval.json", "eval.png"]


def test_a_symlinked_output_stays_a_symlink_and_keeps_its_mode(small: Path, tmp_path: Path) -> None:
    """The rename replaces the file a symlink points to, not the symlink, and the new file
    has the old one's permission bits (what writing in place gave; a bare rename would not)."""
    from ferrochunk.cli import main

    real = tmp_path / "real.jsonl"
    real.write_bytes(b"old\n")
    real.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    assert main(["chunk", str(small), "-o", str(link), "-q"]) == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_bytes())["text"] == "An old, short document."
    assert real.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "real.jsonl", "small.md"]
