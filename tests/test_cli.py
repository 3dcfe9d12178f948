"""The ``ferrochunk chunk`` job: JSONL output, offsets, bad files, exit codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ferrochunk import reference
from ferrochunk.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict], str]:
    code = main(["chunk", *args])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def test_sample_runs_with_no_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(capsys, "--chunk-size", "300", "--chunk-overlap", "50")
    assert code == 0
    sources = {line["source"] for line in lines}
    assert len(sources) >= 3
    assert "3 documents" in err and "MB/s" in err
    for source in sources:
        text = Path(source).read_text(encoding="utf-8")
        # the pure-Python engine judges the CLI's
        expected = reference.split(text, 300, chunk_overlap=50)
        got = [line for line in lines if line["source"] == source]
        assert [g["text"] for g in got] == [c.text for c in expected]
        assert [g["index"] for g in got] == list(range(len(got)))
        for g in got:
            assert text[g["start"] : g["end"]] == g["text"]
            assert text.encode()[g["byte_start"] : g["byte_end"]] == g["text"].encode()


def test_bad_files_are_named_and_skipped(tmp_path: Path, capsys) -> None:
    (tmp_path / "good.md").write_text("hello world", encoding="utf-8")
    (tmp_path / "bad.txt").write_bytes(b"caf\xe9 latin-1")
    (tmp_path / "ignored.bin").write_bytes(b"\x00\x01")
    code, lines, err = run(capsys, str(tmp_path), str(tmp_path / "missing.md"))
    assert code == 1
    assert [line["text"] for line in lines] == ["hello world"]
    assert "bad.txt" in err and "UTF-8" in err
    assert "missing.md" in err and "1 document," in err


def test_writes_out_file(tmp_path: Path, capsys) -> None:
    out = tmp_path / "chunks.jsonl"
    code, lines, _ = run(capsys, "--out", str(out), "-q")
    assert code == 0 and lines == []
    assert all(json.loads(line)["text"] for line in out.read_text(encoding="utf-8").splitlines())


def test_invalid_sizes_exit_2(capsys) -> None:
    code, _, err = run(capsys, "--chunk-size", "10", "--chunk-overlap", "20")
    assert code == 2 and "chunk_overlap" in err


def test_corpus_matches_reference(capsys, corpus_dir: Path) -> None:
    folder = corpus_dir / "zh-markdown"
    code, lines, _ = run(capsys, str(folder), "--threads", "2")
    assert code == 0
    files = sorted(p for p in folder.iterdir() if p.suffix in (".md", ".txt"))
    expected = [
        (str(p), c.index, c.start, c.end, c.byte_start, c.byte_end, c.text)
        for p in files
        for c in reference.split(p.read_text(encoding="utf-8"), 1000, chunk_overlap=200)
    ]
    got = [
        (g["source"], g["index"], g["start"], g["end"], g["byte_start"], g["byte_end"], g["text"])
        for g in lines
    ]
    assert got == expected


def _bench_folders(root: Path) -> dict[str, list[str]]:
    (root / "flat").mkdir()
    (root / "flat" / "doc.md").write_text("# T\n\nSome words here.\n", encoding="utf-8")
    (root / "bad" / "a").mkdir(parents=True)
    (root / "bad" / "a" / "x.txt").write_bytes(b"caf\xe9\n")
    (root / "none" / "a").mkdir(parents=True)
    (root / "none" / "a" / "x.csv").write_text("a,b\n")
    return {
        "missing": ["--corpus", str(root / "missing")],
        "overlap": ["--corpus", str(root / "flat"), "--chunk-size", "10", "--chunk-overlap", "20"],
        "bad": ["--corpus", str(root / "bad")],
        "none": ["--corpus", str(root / "none")],
    }


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("missing", "not a folder"),
        ("overlap", "must not exceed --chunk-size"),
        ("bad", "x.txt: not UTF-8"),
        ("none", "no file to measure in it (.md"),
    ],
)
def test_bench_usage_errors_are_one_line(tmp_path: Path, capsys, case: str, message: str):
    """A ``--corpus`` that is no folder (a typo benchmarked the sample before), holds no text
    file, or one that is not UTF-8, and an overlap over the size: exit 2, one line."""
    code = main(["bench", "--rounds", "1", *_bench_folders(tmp_path)[case]])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert message in captured.err and captured.err.count("\n") == 1


def test_bench_takes_a_folder_without_subfolders_as_one_corpus(tmp_path: Path, capsys) -> None:
    code = main(["bench", "--rounds", "1", *_bench_folders(tmp_path)["overlap"][:2]])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| flat ")]
    assert code == 0 and len(rows) >= 3


def test_bench_compares_and_says_when_and_under_what_load(tmp_path: Path, capsys) -> None:
    """``ferrochunk bench`` on a folder of two small corpora: a row per corpus and
    implementation, every LangChain-compatible output identical, and the line saying when,
    on what and under what load it ran (ratios move with the host's load)."""
    words = ["a", "to", "the", "word", "quick", "jumped", "lantern", "absolute", "“quoted”"]
    prose = " ".join(words[i * i % 9] + ("\n" if i % 13 == 0 else "") for i in range(900))
    texts = {
        "en": "# Title\n\n" + prose,
        "zh": "# 标题\n\n" + "".join("这是中文句子" * (i % 7 + 1) + "。\n\n" for i in range(120)),
    }
    for name, text in texts.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "doc.md").write_text(text, encoding="utf-8")
    code = main(["bench", "--corpus", str(tmp_path), "--rounds", "1", "--chunk-size", "300"])
    out = capsys.readouterr().out
    assert code == 0
    assert re.search(
        r"^\d{4}-\d\d-\d\d \d\d:\d\d UTC, ferrochunk \S+, Python \S+, \d+ CPUs, "
        r"load average [\d.]+ [\d.]+ [\d.]+; at the end, load average [\d.]+ [\d.]+ [\d.]+$",
        out,
        re.MULTILINE,
    ), out
    rows = [line.split("|") for line in out.splitlines() if line.startswith(("| en ", "| zh "))]
    got = {(row[1].strip(), row[2].strip()): row[6].strip() for row in rows}
    for corpus in texts:
        for name in ("ferrochunk", "ferrochunk native", "reference"):
            assert got[(corpus, name)] == "yes", out
        assert (corpus, "langchain") in got
