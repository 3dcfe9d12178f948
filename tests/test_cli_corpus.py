"""``ferrochunk chunk`` end to end on every input and output format: rows equal the library's
chunks (texts, offsets, ids, token counts, heading paths), bad inputs are named and skipped
without losing the rest, and option errors are one line."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import ferrochunk
from ferrochunk.cli import main
from ferrochunk.reference.chunk_id import chunk_id, text_digest

ROW_FIELDS = ("text", "start", "end", "byte_start", "byte_end", "index")


def run(capsys, *args: str) -> tuple[int, list[dict], str]:
    code = main(["chunk", *args])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def cli(*args: str, stdin: bytes = b"", timeout: int = 120) -> subprocess.CompletedProcess:
    """The real command in a subprocess (standard input, hangs, tracebacks)."""
    cmd = [sys.executable, "-m", "ferrochunk", "chunk", *args]
    return subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)


def expected_rows(text: str, source: str, size: int = 1000, overlap: int = 200) -> list[dict]:
    """What the library gives, with ids from the reference's formula."""
    splitter = ferrochunk.Splitter(size, chunk_overlap=overlap)
    settings = splitter.settings
    digest = text_digest(text)
    return [
        {
            **{f: getattr(c, f) for f in ROW_FIELDS},
            "source": source,
            "document_id": source,
            "chunk_id": chunk_id(source, settings, digest, c.start, c.end),
            "token_count": None,
            "row": None,
        }
        for c in splitter.split(text)
    ]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "a.md").write_text("# Title\n\n" + "Some words here. " * 200, encoding="utf-8")
    (tmp_path / "b.rst").write_text("Section\n=======\n\n" + "漢字と emoji 😀. " * 150, "utf-8")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "c.txt.gz").write_bytes(gzip.compress(("plain text line\n" * 300).encode()))
    (sub / "skip.bin").write_bytes(b"\x00")
    return tmp_path


def test_text_folder_rows_equal_the_library(folder: Path, capsys) -> None:
    code, rows, err = run(capsys, str(folder), "--threads", "2")
    assert code == 0, err
    files = [folder / "a.md", folder / "b.rst", folder / "sub" / "c.txt.gz"]
    expected = []
    for path in files:
        raw = path.read_bytes()
        text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8")
        expected += expected_rows(text, str(path))
    assert rows == expected
    assert "3 documents" in err


def test_threads_do_not_change_the_output(corpus_dir: Path, tmp_path: Path) -> None:
    outs = []
    for threads in ("1", "2", "3"):
        out = tmp_path / f"{threads}.jsonl"
        result = cli(str(corpus_dir), "--threads", threads, "-o", str(out), "-q")
        assert result.returncode == 0, result.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] == outs[2] and outs[0]


def test_jsonl_input_with_fields_and_bad_rows(tmp_path: Path, capsys) -> None:
    lines = [
        json.dumps({"body": "first document text", "key": "doc-a"}),
        "not json at all",
        json.dumps({"other": 1}),
        "",
        json.dumps({"body": "second one", "key": 7}),
    ]
    path = tmp_path / "docs.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, rows, err = run(
        capsys,
        str(path),
        "--text-field",
        "body",
        "--id-field",
        "key",
        "--chunk-size",
        "10",
        "--chunk-overlap",
        "0",
    )
    assert code == 1
    assert f"{path}:2" in err and "not a JSON object" in err
    assert f"{path}:3" in err and 'no string field "body"' in err
    got = [(r["row"], r["document_id"], r["text"]) for r in rows]
    want = [
        (0, "doc-a", c.text) for c in ferrochunk.split("first document text", 10, chunk_overlap=0)
    ]
    want += [(4, "7", c.text) for c in ferrochunk.split("second one", 10, chunk_overlap=0)]
    assert got == want


def test_jsonl_after_a_byte_order_mark(tmp_path: Path, capsys) -> None:
    """A UTF-8 BOM before the first line is read past (it cost the first document), in a
    file, gzipped and on stdin; a text file keeps it, as before."""
    data = b'\xef\xbb\xbf{"text": "first row"}\n{"text": "second"}\n'
    (tmp_path / "bom.jsonl").write_bytes(data)
    (tmp_path / "bom.ndjson.gz").write_bytes(gzip.compress(data))
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfplain")
    code, rows, err = run(capsys, str(tmp_path))
    assert code == 0, err
    assert [(Path(r["source"]).name, r["row"], r["text"]) for r in rows] == [
        ("bom.jsonl", 0, "first row"),
        ("bom.jsonl", 1, "second"),
        ("bom.ndjson.gz", 0, "first row"),
        ("bom.ndjson.gz", 1, "second"),
        ("bom.txt", None, "\ufeffplain"),
    ]
    result = cli("-", "--input-format", "jsonl", stdin=data)
    assert [json.loads(line)["text"] for line in result.stdout.splitlines()] == [
        "first row",
        "second",
    ]


def test_parquet_in_and_out(tmp_path: Path, capsys) -> None:
    texts = ["# A\n\nalpha " * 50, None, "## B\n\n| x | y |\n|---|---|\n| 1 | 2 |\n" * 20]
    table = pa.table({"body": texts, "id": [10, 11, 12]})
    source = tmp_path / "in.parquet"
    pq.write_table(table, source, row_group_size=2)
    out = tmp_path / "out.parquet"
    args = [str(source), "--text-column", "body", "--id-column", "id", "--chunker", "markdown"]
    code, _, err = run(capsys, *args, "--chunk-size", "120", "-o", str(out))
    assert code == 1 and "null text" in err  # the null row is named; the rest is written
    got = pq.read_table(out).to_pylist()
    chunker = ferrochunk.MarkdownChunker(120)
    want = []
    for row, (text, doc_id) in enumerate(zip(texts, ["10", "11", "12"])):
        if text is not None:
            for c in chunker.split(text, document_id=doc_id):
                want.append(
                    (
                        row,
                        doc_id,
                        c.text,
                        c.start,
                        c.metadata["chunk_id"],
                        list(c.metadata["heading_path"]),
                        c.metadata["table_header"],
                    )
                )
    assert [
        (
            g["row"],
            g["document_id"],
            g["text"],
            g["start"],
            g["chunk_id"],
            g["heading_path"],
            g["table_header"],
        )
        for g in got
    ] == want
    code, rows, _ = run(capsys, *args, "--chunk-size", "120")
    assert [r["text"] for r in rows] == [g["text"] for g in got]  # JSONL holds the same rows


def test_markdown_rows_carry_structure_and_ids(corpus_dir: Path, capsys) -> None:
    folder = corpus_dir / "en-markdown"
    code, rows, _ = run(capsys, str(folder), "--chunker", "markdown", "--chunk-size", "500")
    assert code == 0
    chunker = ferrochunk.MarkdownChunker(500)
    for path in sorted(folder.glob("*.md"))[:20]:
        text = path.read_text(encoding="utf-8")
        want = [
            (
                c.text,
                c.start,
                c.byte_start,
                c.metadata["chunk_id"],
                list(c.metadata["heading_path"]),
                c.metadata["continuation"],
            )
            for c in chunker.split(text, document_id=str(path))
        ]
        got = [
            (
                r["text"],
                r["start"],
                r["byte_start"],
                r["chunk_id"],
                r["heading_path"],
                r["continuation"],
            )
            for r in rows
            if r["source"] == str(path)
        ]
        assert got == want, path


def test_token_sizes(tmp_path: Path, capsys) -> None:
    text = "Tokens are counted in Rust. " * 100
    (tmp_path / "t.txt").write_text(text, encoding="utf-8")
    code, rows, _ = run(capsys, str(tmp_path), "--encoding", "o200k_base", "--chunk-size", "40")
    assert code == 0
    counter = ferrochunk.get_encoding("o200k_base").length_function()
    want = ferrochunk.Splitter(40, length_function=counter).split(text)  # overlap: size/5
    assert [(r["text"], r["token_count"]) for r in rows] == [(c.text, c.token_count) for c in want]
    code, rows, _ = run(capsys, str(tmp_path), "--chunker", "tokens", "--chunk-size", "16")
    want = ferrochunk.split_tokens(text, 16, chunk_overlap=3, encoding="cl100k_base")
    assert code == 0 and [(r["text"], r["token_count"]) for r in rows] == [
        (c.text, c.token_count) for c in want
    ]


def test_stdin_text_and_jsonl() -> None:
    result = cli("-", "--chunk-size", "5", "--chunk-overlap", "0", stdin=b"ab cd ef")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0 and [r["text"] for r in rows] == ["ab cd", "ef"]
    assert rows[0]["source"] == "-"
    lines = b'{"text": "one two"}\n{"text": "three"}\n'
    result = cli("-", "--input-format", "jsonl", "--chunk-size", "20", stdin=lines)
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["row"], r["text"]) for r in rows] == [(0, "one two"), (1, "three")]


def test_bad_files_are_skipped_and_the_rest_kept(tmp_path: Path, capsys) -> None:
    (tmp_path / "good.md").write_text("fine text", encoding="utf-8")
    (tmp_path / "latin.txt").write_bytes(b"caf\xe9")
    (tmp_path / "broken.md.gz").write_bytes(b"\x1f\x8b\x08\x00garbage")
    (tmp_path / "dangling.md").symlink_to(tmp_path / "missing-target.md")
    code, rows, err = run(capsys, str(tmp_path))
    assert code == 1
    assert [r["text"] for r in rows] == ["fine text"]
    for name, reason in (
        ("latin.txt", "UTF-8"),
        ("broken.md.gz", "cannot read"),
        ("dangling.md", "broken symlink"),
    ):
        assert any(name in line and reason in line for line in err.splitlines()), (name, err)


def test_empty_folder_is_an_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    code, rows, err = run(capsys, str(tmp_path))
    assert code == 2 and rows == []
    assert "no files matching" in err and str(tmp_path) in err and "--glob" in err
    code, rows, err = run(capsys, str(tmp_path), "--glob", "*.png", "--input-format", "text")
    assert code == 1 and "UTF-8" in err  # chosen by --glob, then refused as not text


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_and_symlink_loop_do_not_hang(tmp_path: Path) -> None:
    (tmp_path / "doc.md").write_text("some text", encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.md")
    (tmp_path / "loop").symlink_to(tmp_path)
    result = cli(str(tmp_path), timeout=60)
    err = result.stderr.decode()
    assert result.returncode == 0, err
    assert "pipe.md" in err and "FIFO" in err
    assert "symlink loop" in err
    assert [json.loads(line)["text"] for line in result.stdout.splitlines()] == ["some text"]


@pytest.mark.parametrize(
    "args",
    [
        ["--threads", "-1"],
        ["--threads", "0"],
        ["--threads", "many"],
        ["--chunk-size", "0"],
        ["--chunk-overlap", "-5"],
        ["--chunk-size", "10", "--chunk-overlap", "20"],
        ["--encoding", "nope"],
        ["--language", "klingon"],
        ["--format", "parquet"],
        ["--threads", "9" * 23],
        ["--chunker", "tokens", "--chunk-size", "9" * 23],
    ],
)
def test_bad_options_are_one_line(args) -> None:
    result = cli(*args)
    err = result.stderr.decode().strip()
    assert result.returncode == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--chunk-size", "9" * 23], "--chunk-size: must be at most 9223372036854775807"),
        (["--threads", "1025"], "--threads: must be at most 1024"),
        (["--language", "cobolx"], "error: 'cobolx' is not a valid Language"),
    ],
)
def test_bad_option_messages_say_what_is_wrong(args: list[str], message: str) -> None:
    result = cli(*args)
    err = result.stderr.decode()
    assert result.returncode == 2 and result.stdout == b"" and message in err, err


def test_progress_bar_on_request(folder: Path, tmp_path: Path) -> None:
    result = cli(str(folder), "--progress", "-o", str(tmp_path / "o.jsonl"))
    err = result.stderr.decode()
    assert result.returncode == 0 and "100%|" in err and "B/s" in err
    quiet = cli(str(folder), "-o", str(tmp_path / "o.jsonl"))
    assert "%|" not in quiet.stderr.decode()  # stderr is not a terminal here


def test_chunk_script_runs_the_built_cli_offline() -> None:
    """A fresh build runs without setting up again (no index reachable: it must not try)."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "chunk.sh"
    stamp = script.parents[1] / ".venv" / ".ferrochunk-built"
    if not stamp.exists():
        pytest.skip("no build stamp: the build was not made by scripts/setup.sh")
    root = script.parents[1]
    sources = [*root.joinpath("rust").rglob("*"), root / "Cargo.toml", root / "Cargo.lock"]
    if any(p.stat().st_mtime > stamp.stat().st_mtime for p in sources if p.is_file()):
        pytest.skip("sources changed since the last scripts/setup.sh: the script would rebuild")
    env = {**os.environ, "PIP_INDEX_URL": "http://127.0.0.1:9/", "PIP_NO_INDEX": "1"}
    result = subprocess.run(
        ["bash", str(script), "--help"], capture_output=True, env=env, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert b"setup:" not in result.stderr and b"--chunker" in result.stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("out", [["-o", "/dev/full"], []])
def test_a_failed_write_is_one_line(folder: Path, out: list[str]) -> None:
    """A full disk (written by the pool, or to standard output) is one line, not a
    traceback."""
    if out:
        result = cli(str(folder), *out)
    else:
        with open("/dev/full", "wb") as full:
            cmd = [sys.executable, "-m", "ferrochunk", "chunk", str(folder)]
            result = subprocess.run(cmd, stdout=full, stderr=subprocess.PIPE, timeout=120)
    err = result.stderr.decode().strip()
    assert result.returncode == 2, err
    assert err.splitlines()[-1].endswith("No space left on device"), err
    assert "Traceback" not in err and "cannot write" in err, err


def test_a_closed_pipe_ends_quietly(folder: Path) -> None:
    """``| head``: the reader went away (here before the first write, so the test does not
    depend on the pipe's capacity); the command stops with 141 (128 + SIGPIPE), silently."""
    read, write = os.pipe()
    os.close(read)
    cmd = [sys.executable, "-m", "ferrochunk", "chunk", str(folder)]
    try:
        result = subprocess.run(cmd, stdout=write, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write)
    assert result.returncode == 141, result.stderr.decode()
    assert result.stderr == b""
