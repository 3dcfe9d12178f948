"""``ferrochunk chunk``'s progress bar and summary: UTF-8 bytes of the text chunked, for
every input kind (Parquet's used to be its compressed size, a gzipped text file's too, and
JSON Lines counted documents: the job reported no bytes for them)."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ferrochunk import _native
from ferrochunk.cli import chunk as cli_chunk
from ferrochunk.cli import main, progress

# Repetitive, so compressed Parquet is far smaller than the text; non-ASCII, so code points
# and UTF-8 bytes differ.
TEXTS = [f"Zeile {k}: grüße, 漢字 and words. " * 40 for k in range(1500)]
TEXT_BYTES = sum(len(t.encode("utf-8")) for t in TEXTS)


def chunk(*args: str) -> str:
    cmd = [sys.executable, "-m", "ferrochunk", "chunk", *args, "-o", "/dev/null"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stderr


def frames(err: str) -> list[str]:
    """The bar's states, as tqdm redraws them (a carriage return before each)."""
    return [f for f in re.split(r"[\r\n]", err) if f.startswith("chunk:")]


def megabytes(n: int) -> str:
    return f"{n / 1e6:.2f}"


@pytest.fixture
def parquet(tmp_path: Path) -> Path:
    path = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"text": TEXTS}), path, row_group_size=500)
    assert path.stat().st_size < TEXT_BYTES / 4
    return path


def test_parquet_summary_counts_utf8_bytes_of_text(parquet: Path) -> None:
    err = chunk(str(parquet))
    assert re.search(rf"1500 documents, \d+ chunks, {megabytes(TEXT_BYTES)} MB in", err), err


def test_parquet_bar_ends_at_the_text_bytes(parquet: Path) -> None:
    last = frames(chunk(str(parquet), "--progress"))[-1]
    mb = f"{TEXT_BYTES / 1e6:.2f}M"
    assert "100%|" in last and f"{mb}/{mb}" in last, last


def jsonl(path: Path, texts: list[str]) -> Path:
    """``texts`` as JSON Lines (gzipped for ``.gz``), non-ASCII escaped as JSON allows."""
    data = "".join(json.dumps({"text": t}) + "\n" for t in texts).encode()
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)
    return path


def summarised(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    """The byte count ``main`` hands the summary, exactly (the line rounds to 0.01 MB)."""
    seen: list[Any] = []
    monkeypatch.setattr(cli_chunk, "summary", lambda *a: seen.append(a[2]))
    assert main(["chunk", *args, "-o", os.devnull]) == 0
    assert len(seen) == 1
    return seen[0]


@pytest.mark.parametrize("name", ["docs.jsonl", "docs.jsonl.gz"])
def test_jsonl_summary_counts_utf8_bytes_of_text(tmp_path: Path, name: str) -> None:
    err = chunk(str(jsonl(tmp_path / name, TEXTS)))
    summary = err.splitlines()[-1]
    assert re.match(
        rf"ferrochunk: 1500 documents, \d+ chunks, {megabytes(TEXT_BYTES)} MB in ", summary
    ), summary


@pytest.mark.parametrize("name", ["docs.jsonl", "docs.jsonl.gz"])
def test_jsonl_summary_bytes_are_exact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    path = jsonl(tmp_path / name, TEXTS)
    for threads in ("1", "2"):
        assert summarised(monkeypatch, str(path), "--threads", threads) == TEXT_BYTES


@pytest.mark.parametrize("above", [1_000, 32 << 20])  # streamed, read whole
def test_gzipped_text_counts_its_uncompressed_utf8_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, above: int
) -> None:
    text = "".join(TEXTS[:200])
    path = tmp_path / "doc.txt.gz"
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    want = len(text.encode("utf-8"))
    assert path.stat().st_size < want / 4 and want != len(text)

    def job(args: Any, **kwargs: Any) -> Any:
        return _native.CorpusJob(stream_above=above, **kwargs)

    monkeypatch.setattr(cli_chunk, "_job", job)
    assert summarised(monkeypatch, str(path)) == want


@pytest.mark.parametrize("name", ["docs.jsonl", "docs.jsonl.gz"])
def test_jsonl_bar_ends_at_the_text_bytes(tmp_path: Path, name: str) -> None:
    last = frames(chunk(str(jsonl(tmp_path / name, TEXTS)), "--progress"))[-1]
    mb = f"{TEXT_BYTES / 1e6:.2f}M"
    assert "100%|" in last and f"{mb}/{mb}" in last, last


def test_jsonl_bar_advances_while_the_file_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of several blocks (4 MB each, rust/corpus/job.rs) moves the bar per block, in
    UTF-8 bytes of text, and the total ends at the text's bytes."""
    texts = TEXTS * 4
    want = TEXT_BYTES * 4
    path = jsonl(tmp_path / "big.jsonl", texts)
    assert path.stat().st_size > 3 * (4 << 20)
    states: list[tuple[int, int]] = []
    update = progress.Progress.update

    def record(self: progress.Progress, disk: int, text: int) -> None:
        update(self, disk, text)
        states.append((self.bar.n, self.bar.total))

    monkeypatch.setattr(progress.Progress, "update", record)
    assert main(["chunk", str(path), "--progress", "-o", os.devnull, "--threads", "2"]) == 0
    middle = [n for n, _ in states if 0 < n < want]
    assert len(middle) >= 2, states
    assert states[-1] == (want, want), states


def test_one_document_and_one_chunk_are_singular(tmp_path: Path) -> None:
    (tmp_path / "one.md").write_text("just one", encoding="utf-8")
    err = chunk(str(tmp_path / "one.md"))
    assert err.startswith("ferrochunk: 1 document, 1 chunk, 0.00 MB in "), err


def chunk_stdin(stdin: Any, *args: str) -> str:
    cmd = [sys.executable, "-m", "ferrochunk", "chunk", "-", *args, "--progress"]
    result = subprocess.run(
        [*cmd, "-o", os.devnull], stdin=stdin, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stderr


@pytest.mark.parametrize("fmt", ["jsonl", "text"])
def test_redirected_stdin_bar_ends_at_its_size(tmp_path: Path, fmt: str) -> None:
    """`< file` has a size: the bar has a total and ends at 100 % of the text's bytes (it
    used to stop at the fraction the JSON syntax took, or start from a total of 1)."""
    path = jsonl(tmp_path / "docs.jsonl", TEXTS)
    if fmt == "text":
        path.write_text("".join(TEXTS), encoding="utf-8")
    with open(path, "rb") as stdin:
        last = frames(chunk_stdin(stdin, "--input-format", fmt))[-1]
    mb = f"{TEXT_BYTES / 1e6:.2f}M"
    assert "100%|" in last and f"{mb}/{mb}" in last, last


def test_piped_stdin_bar_has_no_percentage(tmp_path: Path) -> None:
    """A pipe's length is known only at its end: a count and a rate, no guessed total."""
    path = jsonl(tmp_path / "docs.jsonl", TEXTS)
    feed = subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE)
    err = chunk_stdin(feed.stdout, "--input-format", "jsonl")
    feed.wait()
    states = frames(err)
    assert states and not any("%|" in s for s in states), states
    assert f"{TEXT_BYTES / 1e6:.2f}MB [" in states[-1], states[-1]
