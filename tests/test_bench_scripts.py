"""The benchmark scripts the docs quote still run, on a round or two (their figures are not
checked: speed is measured, not asserted). Each runs in a child process, as documented."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import ferrochunk._native
from corpus import ROOT, require


def _run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_cold_speed_header_table() -> None:
    require()
    out = _run("benches/cold_speed.py", "--rounds", "1", "header")
    rows = [line for line in out.splitlines() if line.startswith("| en-markdown")]
    assert len(rows) == 8  # four settings, LangChain and ferrochunk each
    # When, on what, under what load and at which commit (ratios move with the host's load).
    first, last = out.splitlines()[0], out.splitlines()[-1]
    assert first.startswith("--rounds 1 header: ") and " UTC, ferrochunk " in first, first
    assert "load average" in first and ", commit " in first, first
    assert last.startswith("At the end: load average"), last


def test_cold_speed_across_processes() -> None:
    require()
    out = _run("benches/cold_speed.py", "--processes", "2", "--rounds", "1", "split")
    rows = [line.split("|") for line in out.splitlines() if line.startswith("| zh-markdown")]
    # Recursive, native and Character with LangChain's two, and each group's own floor.
    assert [row[2].strip().split()[0] for row in rows] == [
        *("langchain", "ferrochunk", "ferrochunk.split", "floor:"),
        *("langchain", "ferrochunk", "floor:"),
    ]
    for row in rows:
        low, high = row[5].strip().removesuffix("x").split("-")
        assert float(low) <= float(row[4].strip().removesuffix("x")) <= float(high)
    assert "(2 processes)" in out


def test_create_documents_bench_runs() -> None:
    require()
    out = _run("benches/create_documents.py", "--paragraphs", "--start-index", "--rounds", "1")
    assert out.startswith("create_documents, add_start_index=True, paragraphs: median ratio")


def test_split_ab_compares_two_copies_of_one_build(tmp_path: Path) -> None:
    require()
    # A copy at another path loads as a second module (the same file would not).
    other = tmp_path / Path(ferrochunk._native.__file__).name
    shutil.copy(ferrochunk._native.__file__, other)
    out = _run("benches/split_ab.py", str(other), "--rounds", "3", "--corpora", "en-prose")
    rows = [line.split("|") for line in out.splitlines() if line.startswith("| en-prose")]
    assert [row[2].strip() for row in rows] == ["native", "recursive", "character"]
    out = _run(
        "benches/split_ab.py",
        *(str(other), "--rounds", "3", "--corpora", "en-markdown"),
        *("--engines", "header", "header-lines"),
    )
    rows = [line.split("|") for line in out.splitlines() if line.startswith("| en-markdown")]
    assert [row[2].strip() for row in rows] == ["header", "header-lines"]


def test_long_text_threads_table() -> None:
    require()
    out = _run("benches/long_text_threads.py", "1")
    rows = [line.split("|")[1].strip() for line in out.splitlines() if line.startswith("| ")]
    assert rows == ["job", "count", "encode", "TokenTextSplitter"]


def test_front_door_table() -> None:
    require()
    out = _run("benches/front_door.py", "--rounds", "1")
    rows = [line for line in out.splitlines() if line.startswith("| `")]
    assert len(rows) == 3 and all(float(r.split("|")[2]) > 0 for r in rows), out


def test_tiktoken_dropin_bench_runs() -> None:
    require()
    out = _run("benches/tiktoken_dropin.py", "--rounds", "1", "cl100k_base")
    rows = [line for line in out.splitlines() if line.startswith("| cl100k_base")]
    assert len(rows) == 6, out  # three corpora, encode and encode_batch each


def test_spans_speed_runs() -> None:
    require()
    out = _run("benches/spans_speed.py", "--rounds", "1", "--batch-copies", "1")
    rows = [line for line in out.splitlines() if line.startswith("| `")]
    assert len(rows) >= 6  # split, spans, (chonkie-core), three thread ratios, the header
    assert "`ferrochunk.split`" in out and "load average" in out.splitlines()[0]
