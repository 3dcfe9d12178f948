"""``ferrochunk chunk``'s progress bar and summary: UTF-8 bytes of the text chunked where
the job reports them (Parquet's used to be its compressed size), documents for JSON Lines
(whose bytes the job does not report: the bar stood at 0 and the summary said 0.00 MB)."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

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


@pytest.mark.parametrize("name", ["docs.jsonl", "docs.jsonl.gz"])
def test_jsonl_counts_documents_not_zero_bytes(tmp_path: Path, name: str) -> None:
    data = "".join(json.dumps({"text": t}) + "\n" for t in TEXTS).encode()
    path = tmp_path / name
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    err = chunk(str(path), "--progress")
    summary = err.splitlines()[-1]
    assert re.match(r"ferrochunk: 1500 documents, \d+ chunks in ", summary), summary
    assert "MB" not in summary and "documents/s" in summary
    assert "1500 documents [" in frames(err)[-1], frames(err)


def test_one_document_and_one_chunk_are_singular(tmp_path: Path) -> None:
    (tmp_path / "one.md").write_text("just one", encoding="utf-8")
    err = chunk(str(tmp_path / "one.md"))
    assert err.startswith("ferrochunk: 1 document, 1 chunk, 0.00 MB in "), err
