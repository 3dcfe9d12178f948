"""``ferrochunk chunk --chunker auto``: a mixed folder (Markdown, RST, AsciiDoc, text, HTML,
PDF, CSV, Python, Rust) chunked in one run, each file by its own chunker, the type in every
row; judged by the library chunkers run on each file by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("lxml")
pytest.importorskip("pypdfium2")
pytest.importorskip("fpdf")

from ferrochunk import CodeChunker, HtmlChunker, PdfChunker, TextChunker, get_encoding
from ferrochunk.cli import main
from ferrochunk.tables import chunk_table
from pdf_documents import outline, write_pdf

PAGE = "<html><body><nav>NAV-MARKER</nav><h1>Page</h1><p>Hello there.</p><pre>x = 1</pre></body>"
FILES = {
    "a.md": "# Title\n\nSome text here.\n\n## Sub\n\nMore text.\n",
    "b.rst": "Title\n=====\n\nRST body text.\n\nSection\n-------\n\nMore.\n",
    "c.adoc": "= Title\n\nAsciiDoc body.\n",
    "d.txt": "Plain text, one paragraph.\n\nAnother one.\n",
    "e.html": PAGE,
    "g.csv": 'name,note\nada,"likes, commas"\nbob,plain\ncyd,"a ""b"" c"\n',
    "h.py": "import os\n\n\nclass A:\n    def f(self):\n        return os.sep\n",
    "i.rs": 'use std::fmt;\n\nfn main() {\n    println!("{}", 1);\n}\n',
}
LANGUAGES = {".py": "python", ".rs": "rust"}
TYPES = {".md": "markdown", ".rst": "rst", ".adoc": "asciidoc", ".txt": "plain"}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "f.pdf").write_bytes(write_pdf(outline(4, sections=2)).data)
    return tmp_path


def run(capsys, *args: str) -> tuple[int, list[dict], str]:
    code = main(["chunk", *args])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


@pytest.mark.parametrize("size", ["120", "1000"])
def test_each_file_by_its_own_chunker(folder: Path, capsys, size: str) -> None:
    code, rows, err = run(capsys, str(folder), "--chunker", "auto", "--chunk-size", size)
    assert code == 0, err
    by_source: dict[str, list[dict]] = {}
    for row in rows:
        by_source.setdefault(Path(row["source"]).name, []).append(row)
    assert set(by_source) == {*FILES, "f.pdf"}
    for name, got in by_source.items():
        path = folder / name
        suffix = path.suffix
        if suffix == ".csv":
            text = path.read_text(encoding="utf-8")
            want = chunk_table(text, format="csv", chunk_size=int(size))
            assert {g["type"] for g in got} == {"table"}
            assert [(g["text"], g["embedding_text"]) for g in got] == [
                (c.text, c.metadata["embedding_text"]) for c in want
            ]
            assert all(text[g["start"] : g["end"]] == g["text"] for g in got)
            assert len({g["chunk_id"] for g in got}) == len(got)
            continue
        if suffix in LANGUAGES:
            text = path.read_text(encoding="utf-8")
            code = CodeChunker(int(size), language=LANGUAGES[suffix]).split(text)
            assert {(g["type"], g["language"]) for g in got} == {("code", LANGUAGES[suffix])}
            assert [(g["text"], g["start"], g["byte_end"]) for g in got] == [
                (c.text, c.start, c.byte_end) for c in code
            ]
            assert [tuple(g["scope_path"]) for g in got] == [c.metadata["scope_path"] for c in code]
            assert len({g["chunk_id"] for g in got}) == len(got)
            continue
        if suffix in TYPES:
            want = TextChunker(int(size), format=TYPES[suffix]).split(
                path.read_text(encoding="utf-8"), None, str(path)
            )
            kind = TYPES[suffix]
        else:
            kind = "html" if suffix == ".html" else "pdf"
            cls = HtmlChunker if kind == "html" else PdfChunker
            want = cls(int(size)).split(path, None, str(path))
        assert {g["type"] for g in got} == {kind}
        assert [g["text"] for g in got] == [c.text for c in want]
        assert [g["chunk_id"] for g in got] == [c.metadata["chunk_id"] for c in want]
        assert [tuple(g["heading_path"]) for g in got] == [c.metadata["heading_path"] for c in want]
        if kind == "pdf":
            assert [(g["page_start"], g["page_end"]) for g in got] == [
                (c.metadata["page_start"], c.metadata["page_end"]) for c in want
            ]
    assert not any("NAV-MARKER" in row["text"] for row in rows)
    assert "9 documents" in err
    assert "by type: 1 asciidoc, 2 code, 1 html, 1 markdown, 1 pdf, 1 plain, 1 rst, 1 table" in err


def test_tokens_files_and_bad_documents(folder: Path, tmp_path: Path, capsys) -> None:
    (folder / "scan.pdf").write_bytes(b"%PDF-1.4 broken")
    out = tmp_path / "out.jsonl"
    code = main(["chunk", str(folder), "--chunker", "auto", "--encoding", "cl100k_base",
                 "--chunk-size", "40", "-o", str(out)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1 and "skipped" in err and "scan.pdf" in err and "cannot open the PDF" in err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    kinds = {"markdown", "rst", "asciidoc", "plain", "html", "pdf", "table", "code"}
    assert {row["type"] for row in rows} == kinds
    counter = get_encoding("cl100k_base").length_function()
    for row in rows:  # a table chunk's size is its embedding_text's (header and rows)
        sized = row["embedding_text"] if row["type"] == "table" else row["text"]
        assert row["token_count"] == counter(sized) <= 40


def test_refusals(folder: Path, tmp_path: Path, capsys) -> None:
    pytest.importorskip("pyarrow")
    for extra, words in (
        (["-o", str(tmp_path / "x.parquet")], "writes JSON Lines"),
        (["-o", str(tmp_path / "x.jsonl"), "--incremental"], "one chunker"),
        (["--language", "python"], "--language does nothing with --chunker auto"),
    ):
        assert main(["chunk", str(folder), "--chunker", "auto", *extra]) == 2
        assert words in capsys.readouterr().err
