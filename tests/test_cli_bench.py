"""``ferrochunk bench`` says what it measured: which corpus (and why that one), why a row is
missing, and it reads the folders and suffixes ``ferrochunk chunk`` reads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ferrochunk.cli import main
from support import WITHOUT_MODULES

PROSE = "# Title\n\n" + "Some words here, and more of them. " * 40 + "\n"


def bench(capsys, *args: str) -> tuple[int, str]:
    code = main(["bench", "--rounds", "1", "--chunk-size", "300", "--chunk-overlap", "50", *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def corpora_of(out: str) -> set[str]:
    return {line.split("|")[1].strip() for line in out.splitlines() if line.startswith("| ")} - {
        "corpus"
    }


def test_files_beside_subfolders_are_named_as_left_out(tmp_path: Path, capsys) -> None:
    """A corpus folder's README beside its corpora is no corpus; but it is not silently
    passed over either."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.md").write_text(PROSE, encoding="utf-8")
    (tmp_path / "README.md").write_text(PROSE, encoding="utf-8")
    (tmp_path / "notes.txt").write_text(PROSE, encoding="utf-8")
    code, out = bench(capsys, "--corpus", str(tmp_path))
    assert code == 0 and corpora_of(out) == {"sub"}, out
    assert "; left out, beside the sub-folders: README.md notes.txt)" in out, out


def test_a_folder_of_rst_is_read_as_chunk_reads_it(tmp_path: Path, capsys) -> None:
    for name in ("guide.rst", "notes.adoc", "old.txt.gz"):
        data = ("Title\n=====\n\n" + PROSE).encode()
        if name.endswith(".gz"):
            import gzip

            data = gzip.compress(data)
        (tmp_path / name).write_bytes(data)
    code, out = bench(capsys, "--corpus", str(tmp_path))
    assert code == 0, out
    assert "3 files" in out


def test_json_lines_and_parquet_are_read_as_chunk_reads_them(tmp_path: Path, capsys) -> None:
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [{"text": PROSE, "id": 1}, {"text": PROSE + "more", "id": 2}]
    (tmp_path / "docs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    pq.write_table(pa.table({"text": [PROSE, None, PROSE]}), tmp_path / "rows.parquet")
    code, out = bench(capsys, "--corpus", str(tmp_path))
    assert code == 0, out
    mb = 4 * len(PROSE.encode()) + len(b"more")  # the texts only, not the JSON around them
    assert f"{tmp_path.name}: 2 files, {mb / 1e6:.2f} MB" in out, out


def test_it_names_the_corpus_it_used(tmp_path: Path, capsys, monkeypatch) -> None:
    (tmp_path / "doc.md").write_text(PROSE, encoding="utf-8")
    code, out = bench(capsys, "--corpus", str(tmp_path))
    assert code == 0 and f"corpus: {tmp_path} (--corpus;" in out, out
    monkeypatch.chdir(tmp_path)  # no ../shared/corpus beside it
    code, out = bench(capsys)
    assert code == 0 and "corpus: the bundled sample (no --corpus, and no" in out, out
    assert str(Path("..", "shared", "corpus")) in out


def test_missing_rows_are_explained(tmp_path: Path) -> None:
    (tmp_path / "doc.md").write_text(PROSE, encoding="utf-8")
    blocked = "langchain_text_splitters,semantic_text_splitter"
    cmd = [sys.executable, "-c", WITHOUT_MODULES, blocked, "bench", "--rounds", "1"]
    result = subprocess.run(
        [*cmd, "--corpus", str(tmp_path)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "| langchain " not in out
    for name in ("langchain", "semantic-text-splitter"):
        line = next(line for line in out.splitlines() if line.startswith(f"not measured: {name}"))
        assert "not installed" in line and 'pip install "ferrochunk[bench]"' in line, out


def test_a_peer_that_refuses_the_settings_is_a_missing_row(tmp_path: Path, capsys) -> None:
    pytest.importorskip("semantic_text_splitter")
    (tmp_path / "doc.md").write_text(PROSE, encoding="utf-8")
    settings = ["--chunk-size", "300", "--chunk-overlap", "200"]  # its overlap limit is lower
    code = main(["bench", "--rounds", "1", "--corpus", str(tmp_path), *settings])
    out = capsys.readouterr().out
    assert code == 0, out
    line = next(line for line in out.splitlines() if "semantic-text-splitter" in line)
    assert line.startswith("not measured: semantic-text-splitter: refuses"), line


def test_overlap_defaults_to_a_fifth_of_the_size(tmp_path: Path, capsys) -> None:
    """`bench` takes the convention every chunker and `chunk` take (docs/arguments.md)."""
    (tmp_path / "a.md").write_text(PROSE, encoding="utf-8")
    code = main(["bench", "--rounds", "1", "--chunk-size", "100", "--corpus", str(tmp_path)])
    out = capsys.readouterr()
    assert code == 0 and "chunk_size=100 chunk_overlap=20" in out.out + out.err
