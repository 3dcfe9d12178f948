"""``ferrochunk view`` and ``ferrochunk.view``: the page holds every chunk with its reason
and nothing that loads from elsewhere (judged by lxml, an independent HTML parser), the CLI
takes ``chunk``'s chunker options, and a missing extra is one line. The page in a real
browser: ``test_view_browser.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import html as lxml_html

import ferrochunk
from ferrochunk.view import documents, view
from support import WITHOUT_MODULES

ROOT = Path(__file__).resolve().parents[1]


def page_data(page: str) -> dict:
    tree = lxml_html.fromstring(page.encode("utf-8"))
    (data,) = tree.xpath('//script[@id="data"]')
    return json.loads(data.text)


def test_the_page_holds_every_chunk_and_its_reason():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    splitter = ferrochunk.Splitter(300, chunk_overlap=60)
    chunks, cuts = splitter.split(text), splitter.cuts(text)
    (doc,) = page_data(view(text, splitter))["docs"]
    assert doc["text"] == text and doc["length"] == len(text)
    (shown,) = doc["views"]
    assert [(r[0], r[1]) for r in shown["chunks"]] == [(c.start, c.end) for c in chunks]
    assert [(r[2], r[3]) for r in shown["chunks"]] == [tuple(c) for c in cuts]
    tokens = ferrochunk.get_encoding("cl100k_base")
    assert [r[4] for r in shown["chunks"]] == [len(tokens.encode(c.text)) for c in chunks]


def test_nothing_is_fetched_and_text_cannot_break_out():
    text = 'a </script><script>alert(1)</script> <img src="http://x/y.png"> b\n\n' * 3
    page = view(text, ferrochunk.Splitter(40, chunk_overlap=0))
    tree = lxml_html.fromstring(page.encode("utf-8"))
    assert len(tree.xpath("//script")) == 2 and not tree.xpath("//img")
    for attr in ("src", "href"):
        for value in tree.xpath(f"//@{attr}"):
            assert value.startswith("data:"), value
    assert page_data(page)["docs"][0]["text"] == text


def test_markdown_chunks_carry_their_heading_path_and_id():
    text = "# Title\n\nIntro text.\n\n## Part\n\nBody of the part.\n"
    (doc,) = documents(text, [ferrochunk.MarkdownChunker(30, min_size=0)], tokens=None)
    rows = doc["views"][0]["chunks"]
    chunks = ferrochunk.MarkdownChunker(30, min_size=0).split(text)
    assert [r[5] for r in rows] == [" > ".join(c.metadata["heading_path"]) for c in chunks]
    assert [r[6] for r in rows] == [c.metadata["chunk_id"] for c in chunks]


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "ferrochunk", "view", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=cwd)


def test_cli_compare_writes_two_views(tmp_path):
    src = tmp_path / "doc.md"
    src.write_text("# A\n\none two three.\n\n## B\n\nfour five six seven.\n" * 20, "utf-8")
    done = cli(
        str(src), "-o", "v.html", "--chunk-size", "80",
        "--compare", "--chunker markdown --chunk-size 120", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (doc,) = page_data((tmp_path / "v.html").read_text("utf-8"))["docs"]
    labels = [v["label"] for v in doc["views"]]
    assert labels[0].startswith("Splitter size=80") and labels[1].startswith("MarkdownChunker")
    text = src.read_text("utf-8")
    assert len(doc["views"][0]["chunks"]) == len(ferrochunk.Splitter(80).split(text))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.md"], "missing.md: no such file"),
        (["doc.md", "--compare", "--chunker nope"], "--compare '--chunker nope'"),
        (["doc.md", "--chunker", "tokens", "--min-size", "3"], "--min-size does nothing"),
    ],
)
def test_cli_refusals_are_one_line(tmp_path, args, message):
    (tmp_path / "doc.md").write_text("text", "utf-8")
    done = cli(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_terminal_view(tmp_path):
    pytest.importorskip("rich")
    (tmp_path / "doc.md").write_text("one two three\n\nfive six", "utf-8")
    done = cli("doc.md", "--terminal", "--chunk-size", "10", "--chunk-overlap", "0", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "one two⟨0:word⟩ three⟨1:paragraph⟩" in done.stdout
    assert "five six⟨2:end⟩" in done.stdout


def test_terminal_without_rich_is_one_line(tmp_path):
    (tmp_path / "doc.md").write_text("text", "utf-8")
    cmd = [sys.executable, "-c", WITHOUT_MODULES, "rich", "view", "doc.md", "--terminal"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and 'pip install "ferrochunk[view]"' in done.stderr


def test_help_and_the_page_need_no_extra(tmp_path):
    (tmp_path / "doc.md").write_text("# A\n\ntext", "utf-8")
    missing = "numpy,rich,lxml,markdown_it,pyarrow,langchain_core,matplotlib"
    for args in (["--help"], ["doc.md", "-o", "v.html"]):
        cmd = [sys.executable, "-c", WITHOUT_MODULES, missing, "view", *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert done.returncode == 0 and done.stderr == "", done.stderr
    assert (tmp_path / "v.html").read_text("utf-8").startswith("<!DOCTYPE html>")


def test_cli_compares_with_langchain(tmp_path):
    lc = pytest.importorskip("langchain_text_splitters")
    text = (ROOT / "docs" / "testing.md").read_text("utf-8")
    (tmp_path / "doc.md").write_text(text, "utf-8")
    done = cli("doc.md", "-o", "v.html", "--chunk-size", "300", "--compare",
               "langchain --chunk-size 300", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (doc,) = page_data((tmp_path / "v.html").read_text("utf-8"))["docs"]
    ours, theirs = doc["views"]
    assert theirs["label"].startswith("LangChain RecursiveCharacterTextSplitter size=300")
    want = lc.RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=60).split_text(text)
    assert [text[r[0] : r[1]] for r in theirs["chunks"]] == want
    assert {r[2] for r in theirs["chunks"]} == {"unknown"}
    # The drop-in's chunks are LangChain's: the same bands.
    assert [(r[0], r[1]) for r in ours["chunks"]] == [(r[0], r[1]) for r in theirs["chunks"]]
