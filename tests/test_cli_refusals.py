"""``ferrochunk chunk`` ignores nothing silently: piped input is read, an output suffix it
cannot write is refused, options that do not apply are refused, an input named twice is
read once, and a wrong field or language name gets the valid ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ferrochunk.cli import main


def cli(*args: str, stdin: bytes | None = None, cwd: Path | None = None):
    """The real command; ``stdin=None``: standard input is the null device, as from cron."""
    cmd = [sys.executable, "-m", "ferrochunk", "chunk", *args]
    where = {"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}
    return subprocess.run(cmd, capture_output=True, timeout=120, cwd=cwd, **where)


def rows(result: subprocess.CompletedProcess) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def one_line_error(result: subprocess.CompletedProcess, *words: str) -> None:
    err = result.stderr.decode()
    assert result.returncode == 2 and result.stdout == b"", err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, (word, err)


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    (tmp_path / "a.md").write_text("alpha beta gamma", encoding="utf-8")
    lines = [{"body": f"row {k} text", "id": f"r{k}"} for k in range(40)]
    (tmp_path / "docs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines), "utf-8")
    table = pa.table({"text": ["first row", "second row"], "key": ["k1", "k2"]})
    pq.write_table(table, tmp_path / "rows.parquet")
    return tmp_path


def test_piped_input_without_a_dash_is_read() -> None:
    result = cli("--chunk-size", "5", "--chunk-overlap", "0", stdin=b"ab cd ef")
    assert result.returncode == 0, result.stderr
    assert [(r["source"], r["text"]) for r in rows(result)] == [("-", "ab cd"), ("-", "ef")]


def test_no_pipe_and_no_paths_is_the_sample() -> None:
    result = cli("--chunk-size", "5000")
    sources = {Path(r["source"]).parent.name for r in rows(result)}
    assert result.returncode == 0 and sources == {"sample"}, result.stderr


@pytest.mark.parametrize("out", ["x.csv", "x.jsonl.gz", "chunks", "x.parquet.gz"])
def test_an_output_suffix_it_cannot_write_is_refused(inputs: Path, out: str) -> None:
    result = cli("a.md", "--out", out, cwd=inputs)
    one_line_error(result, out, ".jsonl", ".parquet", "--format")
    assert not (inputs / out).exists()


def test_format_given_takes_any_name(inputs: Path) -> None:
    result = cli("a.md", "--out", "x.csv", "--format", "jsonl", cwd=inputs)
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["text"] for line in (inputs / "x.csv").read_text().splitlines()] == [
        "alpha beta gamma"
    ]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["rows.parquet", "--id-field", "key"], ["--id-field", "JSON Lines", "--id-column"]),
        (["rows.parquet", "--text-field", "body"], ["--text-field", "JSON Lines"]),
        (["docs.jsonl", "--text-column", "body"], ["--text-column", "Parquet", "--text-field"]),
        (["docs.jsonl", "--id-column", "id"], ["--id-column", "Parquet"]),
        (["a.md", "--id-field", "id"], ["--id-field", "JSON Lines"]),
        (["a.md", "--min-size", "10"], ["--min-size", "markdown"]),
        (["a.md", "--chunker", "tokens", "--min-size", "10"], ["--min-size", "markdown"]),
        (["a.md", "--chunker", "tokens", "--cjk"], ["--cjk", "tokens"]),
        (["a.md", "--chunker", "markdown", "--language", "python"], ["--language", "recursive"]),
        (["a.md", "--chunker", "tokens", "--language", "python"], ["--language", "recursive"]),
        (["a.md", "--glob", "*.txt"], ["--glob", "folder"]),
        (["a.md", "--progress", "-q"], ["--progress", "--quiet"]),
    ],
)
def test_options_that_do_not_apply_are_refused(
    inputs: Path, args: list[str], words: list[str]
) -> None:
    one_line_error(cli(*args, cwd=inputs), *words)


@pytest.mark.parametrize(
    "args",
    [
        [".", "--id-field", "id", "--text-field", "body"],  # a folder may hold JSON Lines
        [".", "--text-column", "text", "--id-column", "key"],
        ["-", "--input-format", "jsonl", "--text-field", "body"],
        ["docs.jsonl", "rows.parquet", "--text-field", "body", "--id-column", "key"],
        ["a.md", "--chunker", "markdown", "--min-size", "3", "--cjk"],
    ],
)
def test_options_that_apply_somewhere_are_taken(inputs: Path, args: list[str]) -> None:
    result = cli(*args, stdin=b'{"body": "x"}\n', cwd=inputs)
    assert result.returncode in (0, 1), result.stderr  # 1: a.md/rows skipped by a field
    assert "error" not in result.stderr.decode() and rows(result)


def test_an_input_named_twice_is_read_once(inputs: Path, capsys) -> None:
    a = str(inputs / "a.md")
    code = main(["chunk", a, a, str(inputs / "." / "a.md"), str(inputs), "--glob", "*.md"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert [json.loads(line)["source"] for line in out.splitlines()] == [a]
    assert err.count("read once") == 3 and "1 document," in err


def test_a_missing_text_field_is_told_once_with_the_fields_found(inputs: Path) -> None:
    for quiet in ([], ["-q"]):
        result = cli("docs.jsonl", *quiet, cwd=inputs)
        err = result.stderr.decode()
        assert result.returncode == 1 and result.stdout == b""
        told = [line for line in err.splitlines() if 'no string field "text"' in line]
        assert len(told) == 1, err
        assert "docs.jsonl:1" in told[0] and "body, id" in told[0] and "--text-field" in told[0]
        assert err.count("\n") == (1 if quiet else 2), err
        assert quiet or "40 skipped" in err.splitlines()[-1]  # the summary counts them all


def test_an_unknown_language_lists_the_valid_ones() -> None:
    result = cli("--language", "klingon")
    one_line_error(result, "'klingon'", "python", "rust", "cpp", "visualbasic6")
