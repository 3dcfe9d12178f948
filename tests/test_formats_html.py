"""``HtmlChunker``: judged by lxml's own reading of the page (``html_judge.py``, XPath) and
by markdown-it reading the rendition back, on hand-made pages and on a real manual (PLY's,
from its sdist on PyPI)."""

from __future__ import annotations

import pickle
import sys
from html import escape

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("lxml")

import ferrochunk
import html_judge
from ferrochunk import HtmlChunker, get_encoding
from ferrochunk.formats import Rendition
from html_judge import code_lines, normalize, read_page

PAGE = """<!DOCTYPE html><html><head><title>T</title>
<script>var trackerSecret = "SCRIPT-MARKER";</script><style>.x{color:STYLE-MARKER}</style></head>
<body><header><a href="/">BANNER-MARKER home</a></header>
<nav><ul><li><a href="#a">NAV-MARKER install</a></li></ul></nav>
<div role="navigation">ROLE-MARKER sidebar</div>
<main><article><header><h1>User Guide <a class="headerlink" href="#g">¶</a></h1></header>
<p>This guide explains   the <b>whole</b> tool and <code>its</code> options.<br>It is short.</p>
<div>Loose text in a div <span>with a span</span><p>and a paragraph inside it.</p> a tail.</div>
<h2>Install</h2>
<p>Run the installer first.</p>
<div class="highlight-python"><div class="highlight"><pre>pip install tool
  tool --init   # sets things up
for x in ``range(3)``: pass</pre></div></div>
<h3>Options</h3>
<table><caption>The options</caption>
<tr><th>name</th><th>meaning</th></tr>
<tr><td>--fast</td><td>skip | checks</td></tr><tr><td>--slow</td><td>check all</td></tr></table>
<ul><li>first item</li><li><p>second item</p><ol><li>nested one</li></ol></li></ul>
<h2>Usage</h2>
<blockquote><p>Quoted advice stays a paragraph.</p></blockquote>
<p>1. Not a list, # not a heading.</p>
<p hidden>HIDDEN-MARKER</p>
<aside>ASIDE-MARKER related</aside>
</article></main>
<footer>FOOTER-MARKER copyright</footer>
<form><button>FORM-MARKER</button></form></body></html>"""
MARKERS = ["SCRIPT", "STYLE", "BANNER", "NAV", "ROLE", "HIDDEN", "ASIDE", "FOOTER", "FORM"]


def markdown_blocks(text: str) -> dict[str, list]:
    """What markdown-it (CommonMark and GFM tables) reads in a rendition."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    found: dict[str, list] = {"headings": [], "paragraphs": [], "code": [], "cells": []}
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            found["headings"].append((int(token.tag[1]), tokens[i + 1].content))
        elif token.type == "paragraph_open":
            found["paragraphs"].append(normalize(tokens[i + 1].content))
        elif token.type == "fence":
            found["code"].append((token.info, code_lines(token.content)))
        elif token.type in ("th_open", "td_open"):
            found["cells"].append(tokens[i + 1].content.replace("\\|", "|"))
    return found


def check_chunks(chunker: HtmlChunker, markup, rendition: Rendition) -> list:
    """The chunks, with what holds for every page: exact offsets, and every paragraph
    (and code block) that fits whole in a chunk under its heading path."""
    chunks = chunker.split_rendition(rendition)
    assert chunks == chunker.split(markup)
    for c in chunks:
        assert rendition.text[c.start : c.end] == c.text
        assert rendition.text.encode()[c.byte_start : c.byte_end] == c.text.encode()
    page = read_page(markup)
    texts = [normalize(c.text) for c in chunks]
    for text, path, heading in page.paragraphs:
        if len(text) + heading <= chunker.chunk_size:
            holding = [c for c, t in zip(chunks, texts) if text in t]
            assert holding, f"paragraph cut: {text[:80]!r}"
            assert any(path in c.metadata["heading_paths"] for c in holding), (text[:60], path)
    for code in page.code:
        if len(code) + 12 <= chunker.chunk_size:
            assert any(code in code_lines(c.text) for c in chunks), f"code cut: {code[:60]!r}"
    return chunks


def test_a_page_as_lxml_and_markdown_it_read_it() -> None:
    rendition = HtmlChunker().render(PAGE)
    page, seen = read_page(PAGE), markdown_blocks(rendition.text)
    assert (
        seen["headings"]
        == page.headings
        == [
            (1, "User Guide"),
            (2, "Install"),
            (3, "Options"),
            (2, "Usage"),
        ]
    )
    for text, _, _ in page.paragraphs:
        assert text in seen["paragraphs"]
    assert "Loose text in a div with a span" in seen["paragraphs"]
    assert "1. Not a list, # not a heading." in seen["paragraphs"]  # escaped, still text
    assert [code for _, code in seen["code"]] == page.code
    assert seen["code"][0][0] == "python"  # the language of Sphinx's highlight-python
    assert seen["cells"] == ["name", "meaning", "--fast", "skip | checks", "--slow", "check all"]
    for marker in MARKERS:
        assert f"{marker}-MARKER" not in rendition.text
    assert "¶" not in rendition.text


@pytest.mark.parametrize("size", [60, 120, 400, 2000])
def test_the_hand_page_at_every_size(size: int) -> None:
    chunker = HtmlChunker(size, min_size=0)
    chunks = check_chunks(chunker, PAGE, chunker.render(PAGE))
    assert all(len(c.text) <= size for c in chunks)
    text = chunker.render(PAGE).text
    table = text[text.index("| name |") : text.index("check all |") + len("check all |")]
    rows = [c for c in chunks if "| --fast |" in c.text or "| --slow |" in c.text]
    if len(table) <= size:
        assert [c for c in rows if table in c.text] == rows  # whole when it fits
    else:  # else cut between rows, never inside one
        assert len(rows) > 1
        for row in table.split("\n"):
            assert any(row in c.text for c in rows)
    assert {c.metadata["heading_path"] for c in chunks} >= {("User Guide", "Install", "Options")}


@pytest.mark.parametrize("size", [60, 400])
def test_cut_reasons_match_the_chunks(size: int) -> None:
    chunker = HtmlChunker(size, min_size=0)
    chunks, cuts = chunker.split(PAGE), chunker.cuts(PAGE)
    assert len(cuts) == len(chunks) and cuts[-1].reason == "end"
    assert any(c.reason == "heading" for c in cuts)
    for cut, after in zip(cuts, chunks[1:]):
        if cut.reason == "heading":  # the next chunk opens with the heading lxml saw
            assert after.text.startswith("#"), after.text
    assert {c.reason for c in cuts} <= {"heading", "block", "atomic", "sentence", "clause",
                                         "line", "word", "character", "statement",
                                         "paragraph", "end"}  # fmt: skip


@pytest.fixture(scope="module")
def real_pages() -> dict[str, bytes]:
    try:
        return html_judge.real_pages()
    except html_judge.Unavailable as error:
        print(f"real HTML pages unavailable: {error}", file=sys.stderr)
        pytest.skip(f"real HTML pages unavailable: {error}")


@pytest.mark.parametrize("size", [200, 500, 1500])
def test_a_real_manual(real_pages: dict[str, bytes], size: int) -> None:
    assert set(real_pages) == {"ply.html", "internal.html"}
    chunker = HtmlChunker(size)
    for name, markup in real_pages.items():
        rendition = chunker.render(markup)
        chunks = check_chunks(chunker, markup, rendition)
        page, seen = read_page(markup), markdown_blocks(rendition.text)
        assert seen["headings"] == page.headings, name
        assert len(page.paragraphs) > 80 and len(page.code) > 5, name  # it is the manual
        paths = {c.metadata["heading_path"] for c in chunks}
        assert len(paths) > len(page.headings) // 2, name


def test_tokens_bytes_and_charsets() -> None:
    counter = get_encoding("cl100k_base").length_function()
    chunks = HtmlChunker(30, length_function=counter).split(PAGE)
    assert chunks and all(c.token_count is not None and c.token_count <= 30 for c in chunks)
    latin = '<html><head><meta charset="iso-8859-1"></head><body><p>Caf\xe9 cr\xe8me</p></body>'
    assert HtmlChunker().split(latin.encode("latin-1"))[0].text == "Café crème"
    declared = '<?xml version="1.0" encoding="utf-8"?><html><body><h1>Ünï</h1></body></html>'
    assert HtmlChunker().render(declared).text == "# Ünï\n\n"


def test_files_empty_pages_and_batches(tmp_path) -> None:
    path = tmp_path / "page.html"
    path.write_text(PAGE, encoding="utf-8")
    chunker = HtmlChunker(100)
    assert chunker.split(path) == chunker.split(PAGE)
    for empty in ("", "   ", "<html></html>", "<!-- nothing -->", b""):
        assert chunker.split(empty) == []
    pages = [PAGE, "<h1>Two</h1><p>Second page.</p>", ""]
    metadatas = [{"source": str(i)} for i in range(3)]
    batch = chunker.split_batch(pages, metadatas)
    assert batch == [chunker.split(p, m) for p, m in zip(pages, metadatas)]
    assert batch[1][0].metadata["source"] == "1"


def test_bad_input_names_what_to_change(monkeypatch) -> None:
    chunker = HtmlChunker(100)
    with pytest.raises(TypeError, match="HTML source must be str, bytes or a path, got int"):
        chunker.split(5)
    with pytest.raises(ValueError, match="cannot read HTML file"):
        chunker.split(__import__("pathlib").Path("/nonexistent/page.html"))
    with pytest.raises(ValueError, match="lone surrogate"):
        chunker.split("<p>a\ud800b</p>")
    with pytest.raises(TypeError, match="rendition must be a Rendition"):
        chunker.split_rendition("<p>x</p>")
    with pytest.raises(TypeError, match="not one document"):
        chunker.split_batch("<p>x</p>")
    with pytest.raises(ValueError, match="chunk_size must be > 0"):
        HtmlChunker(0)
    with pytest.raises(TypeError, match="positional"):
        HtmlChunker(100, 10)  # type: ignore[misc]
    monkeypatch.setitem(sys.modules, "lxml.html", None)
    with pytest.raises(ImportError, match=r"needs lxml: pip install 'ferrochunk\[html\]'"):
        chunker.split(PAGE)


def test_pickles_and_exports() -> None:
    chunker = HtmlChunker(300, min_size=10, chunk_overlap=20, embedding_text=True)
    copy = pickle.loads(pickle.dumps(chunker))
    assert (copy.chunk_size, copy.min_size, copy.chunk_overlap) == (300, 10, 20)
    assert copy.split(PAGE) == chunker.split(PAGE)
    assert ferrochunk.HtmlChunker is HtmlChunker
    assert "embedding_text" in chunker.split(PAGE)[0].metadata


def _html() -> st.SearchStrategy[str]:
    """Random pages: nested blocks, inline markup, lists, tables, code and furniture, with
    text that looks like Markdown (``#``, ``1.``, ``|``, backticks) or is not ASCII."""
    words = st.sampled_from(["alpha", "# hash", "1. one", "a|b", "`tick`", "```", "- dash",
                             "数据", "naïve", "&amp;", "x  y", "> quote", "***", ""])  # fmt: skip
    text = st.lists(words, max_size=4).map(" ".join)
    inline = st.recursive(
        text.map(escape),
        lambda inner: (
            st.tuples(st.sampled_from(["b", "i", "a", "code", "span"]), inner).map(
                lambda t: f"<{t[0]}>{t[1]}</{t[0]}>"
            )
            | st.lists(inner, max_size=3).map("<br>".join)
        ),
        max_leaves=4,
    )
    leaf = (
        inline.map(lambda s: f"<p>{s}</p>")
        | st.tuples(st.integers(1, 6), inline).map(lambda t: f"<h{t[0]}>{t[1]}</h{t[0]}>")
        | text.map(lambda s: f"<pre>{escape(s)}\n  {escape(s)}</pre>")
        | st.lists(st.lists(inline, min_size=1, max_size=3), max_size=3).map(
            lambda rows: (
                "<table>"
                + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
                + "</table>"
            )
        )
        | st.sampled_from(["<nav>FURNITURE-X</nav>", "<script>FURNITURE-Y</script>"])
    )
    return st.recursive(
        leaf,
        lambda inner: st.tuples(
            st.sampled_from(["div", "section", "blockquote", "ul", "ol", "article"]),
            st.lists(inner, max_size=3),
        ).map(
            lambda t: (
                f"<{t[0]}>"
                + "".join(f"<li>{x}</li>" if t[0] in ("ul", "ol") else x for x in t[1])
                + f"</{t[0]}>"
            )
        ),
        max_leaves=8,
    )


@given(_html(), st.sampled_from([30, 200]))
def test_random_pages(body: str, size: int) -> None:
    markup = f"<html><body>{body}</body></html>"
    chunker = HtmlChunker(size, min_size=0)
    rendition = chunker.render(markup)
    chunks = chunker.split_rendition(rendition)
    for c in chunks:
        assert rendition.text[c.start : c.end] == c.text
    flat = normalize(rendition.text)
    for text, _, _ in read_page(markup).paragraphs:
        assert text in flat
    assert "FURNITURE" not in rendition.text
