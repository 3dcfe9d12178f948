"""``ferrochunk eval`` end to end: the bundled sample, a BEIR folder, span questions, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ferrochunk.cli import main

PNG = b"\x89PNG\r\n\x1a\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["eval", "-q", *args])
    out, err = capsys.readouterr()
    return code, out, err


def results(folder: Path) -> dict:
    return json.loads((folder / "eval.json").read_text(encoding="utf-8"))


def test_no_arguments_runs_on_the_sample(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys)
    assert code == 0, err
    out_dir = tmp_path / "ferrochunk-eval"
    assert (out_dir / "eval.png").read_bytes().startswith(PNG)
    report = results(out_dir)
    assert (
        report["dataset"]["kind"] == "synthetic" and report["dataset"]["name"] == "bundled sample"
    )
    assert report["dataset"]["documents"] == 3 and report["dataset"]["questions"] > 20
    assert report["k"] == 5 and report["retriever"] == "bm25"
    rows = report["results"]
    assert len(rows) == 12  # 4 chunkers x 3 sizes
    assert {r["chunker"] for r in rows} == {"markdown", "splitter", "recursive", "tokens"}
    assert all(0 <= r["recall_strict"] <= r["recall_lenient"] <= 1 for r in rows)
    assert "synthetic questions" in out and "| R@5 strict % |" in out.replace(" | ", " | ")
    assert "| markdown | 32 tok | 0 |" in out and "mid-sentence %" in out
    assert "answers drawn by pysbd" in out and "| whole % |" in out
    assert report["dataset"]["segmenter"].startswith("pysbd ")
    # the sample needs several chunks a document at these sizes, so the chunkers differ
    whole = {(r["chunker"], r["size"]): r["answers_whole"] for r in rows}
    assert all(0 <= w <= 1 for w in whole.values())
    assert len({whole[c, 64] for c in ("markdown", "splitter", "tokens")}) == 3
    assert whole["markdown", 32] < whole["markdown", 128]
    assert "wrote" in out


def test_same_arguments_same_json(tmp_path: Path, capsys) -> None:
    args = ["--chunkers", "markdown,tokens", "--sizes", "60", "--overlaps", "0,20"]
    assert run(capsys, *args, "--out", str(tmp_path / "1"))[0] == 0
    assert run(capsys, *args, "--out", str(tmp_path / "2"))[0] == 0
    strip = [
        {k: v for k, v in r.items() if k != "timing"} for r in results(tmp_path / "1")["results"]
    ]
    again = [
        {k: v for k, v in r.items() if k != "timing"} for r in results(tmp_path / "2")["results"]
    ]
    assert strip == again and len(strip) == 4


def beir_folder(root: Path, qrels: str) -> Path:
    rows = [
        {"_id": "d1", "title": "Lamps", "text": "The keeper lit the lamp at dusk."},
        {"_id": "d2", "text": "Fog rolled over the rocks and the bell rang."},
        {"_id": "d3", "text": "Ships passed the point safely all winter."},
    ]
    root.mkdir()
    (root / "corpus.jsonl").write_text("\n".join(json.dumps(r) for r in rows), "utf-8")
    queries = [{"_id": "q1", "text": "lamp keeper"}, {"_id": "q2", "text": "fog bell"}]
    (root / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in queries), "utf-8")
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text(qrels, encoding="utf-8")
    return root


def test_beir_folder(tmp_path: Path, capsys) -> None:
    data = beir_folder(tmp_path / "tiny", "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n")
    out_dir = tmp_path / "out"
    code, out, err = run(
        capsys,
        "--data",
        str(data),
        "--chunkers",
        "splitter",
        "--sizes",
        "1000",
        "--unit",
        "chars",
        "--k",
        "1",
        "--out",
        str(out_dir),
    )
    assert code == 0, err
    report = results(out_dir)
    assert report["dataset"]["kind"] == "beir" and report["dataset"]["questions"] == 2
    (row,) = report["results"]
    # one chunk per document; each query's words are only in its relevant document
    assert row["recall_strict"] == row["mrr_strict"] == row["ndcg_strict"] == 1.0
    assert row["span_recall"] == 1.0 and "beir questions: 2 over 3 documents" in out
    # answers whole is not defined without spans: n/a, never a number
    assert row["answers_whole"] is None and report["answers_whole"].startswith("n/a")
    assert "| n/a |" in out and "whole %: n/a" in out
    assert (out_dir / "eval.png").read_bytes().startswith(PNG)


def test_span_questions_file(tmp_path: Path, capsys) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    text = "The keeper lit the lamp at dusk.\n\nFog rolled over the rocks and the bell rang.\n"
    (docs / "a.md").write_text(text, encoding="utf-8")
    start = text.index("Fog")
    q = {"query": "fog bell", "doc_id": "a.md", "answers": [[start, start + 12]]}
    (tmp_path / "q.jsonl").write_text(json.dumps(q) + "\n", encoding="utf-8")
    code, _, err = run(
        capsys,
        "--data",
        str(tmp_path / "q.jsonl"),
        "--docs",
        str(docs),
        "--chunkers",
        "splitter",
        "--sizes",
        "40",
        "--unit",
        "chars",
        "--out",
        str(tmp_path / "out"),
    )
    assert code == 0, err
    (row,) = results(tmp_path / "out")["results"]
    assert row["recall_strict"] == 1.0 and row["mrr_strict"] == 1.0
    assert row["answers_whole"] == 1.0  # "Fog rolled o" (12) lies in the 40-character piece
    code, _, err = run(capsys, "--data", str(tmp_path / "q.jsonl"))
    assert code == 2 and "give their documents with --docs" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--k", "0"], "--k must be > 0"),
        (["--k", "five"], "argument --k: invalid int value"),
        (["--sizes", "10,x"], "--sizes must be comma-separated integers"),
        (["--chunkers", "nope"], "unknown chunker 'nope'"),
        (["--unit", "words"], "argument --unit: invalid choice"),
        (["--grid", "missing.toml"], "missing.toml: no such grid file"),
        (["--data", "no/such/folder"], "no such file or folder"),
        (["--questions", "0"], "--questions > 0"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--docs", "somewhere"], "--docs goes with --data"),
        (["--sizes", "0"], "no configuration to evaluate"),
        (["--sizes", "100", "--overlaps", "200"], "no configuration to evaluate"),
    ],
)
def test_bad_options_one_line_exit_2(args: list[str], message: str, tmp_path: Path, capsys) -> None:
    code, out, err = run(capsys, *args, "--out", str(tmp_path))
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert out == ""


def test_out_that_is_a_file_exit_2_before_the_run(tmp_path: Path, capsys) -> None:
    (tmp_path / "taken").write_text("x")
    code, out, err = run(capsys, "--out", str(tmp_path / "taken"))
    assert code == 2 and "exists and is not a folder" in err and "Traceback" not in err
    assert out == ""  # nothing evaluated first


def test_unknown_documents_in_qrels_exit_2(tmp_path: Path, capsys) -> None:
    data = beir_folder(tmp_path / "tiny", "q1\td1\t1\nq2\tmissing-doc\t1\n")
    code, _, err = run(capsys, "--data", str(data), "--out", str(tmp_path / "o"))
    assert code == 2 and "'missing-doc' (line 2)" in err


def test_left_out_combinations_are_named(tmp_path: Path, capsys) -> None:
    code, _, err = run(
        capsys,
        "--chunkers",
        "splitter",
        "--sizes",
        "30,60",
        "--overlaps",
        "40",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    assert "left out splitter size 30 overlap 40 (overlap >= size)" in err


def test_help_shows_defaults(capsys) -> None:
    assert main(["eval", "--help"]) == 0
    out = capsys.readouterr().out
    assert "(default: 5)" in out and "(default: bm25)" in out and "(default: 32,64,128)" in out
    with pytest.raises(SystemExit) as main_help:
        main(["--help"])
    assert main_help.value.code == 0 and "eval" in capsys.readouterr().out
