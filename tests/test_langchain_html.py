"""The HTML splitters of ``ferrochunk.langchain`` give LangChain's documents, warnings and
errors on generated HTML (same BeautifulSoup/lxml parse; our walks and the Rust recursive
pass), and LangChain's ``ImportError`` when a parser is missing."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import langchain_text_splitters as lc
import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.documents import Document

import ferrochunk.langchain as fl
from support import docs, outcome

pytest.importorskip("bs4")
pytest.importorskip("lxml")

WORDS = ["Intro", "text", "more words here", "漢字テキスト", "😀", "a&amp;b", " ", "\n", "  \t"]
STYLES = ["font-size: 24px;", "font-size:21px", "font-size: 12px", "color: red", "font-size:x"]


@st.composite
def element(draw, depth: int = 0) -> str:
    tag = draw(
        st.sampled_from(
            [
                "h1",
                "h2",
                "h3",
                "p",
                "div",
                "span",
                "a",
                "table",
                "ul",
                "li",
                "img",
                "video",
                "audio",
                "section",
                "code",
                "iframe",
                "b",
            ]
        )
    )
    attrs = draw(st.sampled_from(["", ' href="http://x.test/a"', ' src="s.png"', ' class="c"']))
    if draw(st.booleans()):
        attrs += f' style="{draw(st.sampled_from(STYLES))}"'
    if depth >= 3 or draw(st.integers(0, 3)) == 0:
        inner = draw(st.sampled_from(WORDS))
    else:
        kids = draw(st.lists(st.one_of(element(depth + 1), st.sampled_from(WORDS)), max_size=4))
        inner = "".join(kids)
    return f"<{tag}{attrs}>{inner}</{tag}>"


html_docs = st.tuples(
    st.lists(st.one_of(element(), st.sampled_from([*WORDS, "<!-- c -->", "<br/>"])), max_size=8),
    st.booleans(),
).map(lambda p: f"<html><body>{''.join(p[0])}</body></html>" if p[1] else "".join(p[0]))
HEADERS = [
    [("h1", "Header 1"), ("h2", "Header 2")],
    [("h2", "B"), ("h1", "A"), ("h3", "C")],
    [("h1", "Same"), ("h2", "Same")],
]
headers = st.sampled_from(HEADERS)


@given(html_docs, headers, st.booleans())
def test_header_splitter_matches(html, heads, each) -> None:
    expected = outcome(lambda: docs(lc.HTMLHeaderTextSplitter(heads, each).split_text(html)))
    assert outcome(lambda: docs(fl.HTMLHeaderTextSplitter(heads, each).split_text(html))) == (
        expected
    )


@given(html_docs, headers, st.integers(1, 60), st.integers(0, 10))
def test_section_splitter_matches(html, heads, size, overlap) -> None:
    def run(module):
        splitter = module.HTMLSectionSplitter(heads, chunk_size=size, chunk_overlap=overlap)
        return (
            outcome(lambda: docs(splitter.split_text(html))),
            outcome(
                lambda: docs(splitter.split_documents([Document(html, metadata={"Title": "T"})]))
            ),
            outcome(lambda: splitter.split_html_by_headers(html)),
        )

    assert run(fl) == run(lc)


def _semantic(module, html: str, options: dict) -> tuple:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = outcome(lambda: module.HTMLSemanticPreservingSplitter(**options))
    messages = [(w.category, str(w.message)) for w in caught]
    if made[0] != "ok":
        return made, messages
    splitter = made[1]
    parent = [Document(html, metadata={"source": "s", "Header 1": "parent"})]
    return (
        outcome(lambda: docs(splitter.split_text(html))),
        outcome(lambda: docs(splitter.transform_documents(parent))),
        messages,
    )


def _link_handler(tag) -> str:
    return f"[iframe:{tag.get('src', '')}]"


semantic_options = st.fixed_dictionaries(
    {"headers_to_split_on": headers, "max_chunk_size": st.integers(1, 120)},
    optional={
        "chunk_overlap": st.integers(0, 10),
        "separators": st.sampled_from([None, [" "], ["\n", ". ", ""]]),
        "elements_to_preserve": st.sampled_from([["table"], ["ul", "table"], ["code"]]),
        "preserve_links": st.booleans(),
        "preserve_images": st.booleans(),
        "preserve_videos": st.booleans(),
        "preserve_audio": st.booleans(),
        "custom_handlers": st.sampled_from([{"iframe": _link_handler}]),
        "normalize_text": st.booleans(),
        "external_metadata": st.sampled_from([{"source": "x"}]),
        "allowlist_tags": st.sampled_from([["p", "div"], ["table", "span", "body", "html"]]),
        "denylist_tags": st.sampled_from([["span"], ["h1", "code"]]),
        "preserve_parent_metadata": st.booleans(),
        "keep_separator": st.sampled_from([True, False, "start", "end"]),
    },
)


@given(html_docs, semantic_options)
def test_semantic_splitter_matches(html, options) -> None:
    assert _semantic(fl, html, options) == _semantic(lc, html, options)


def test_semantic_splitter_stopwords(nltk_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopword removal downloads NLTK's list first (stubbed here: no network), as LangChain."""
    import nltk

    calls: list[str] = []
    monkeypatch.setattr(nltk, "download", lambda name, *a, **k: calls.append(name) or True)
    html = "<h1>The title</h1><p>This is a text with the words of it</p>"
    options = {"headers_to_split_on": HEADERS[0], "stopword_removal": True}
    assert _semantic(fl, html, options) == _semantic(lc, html, options)
    assert calls == ["stopwords", "stopwords"]


@pytest.mark.parametrize(
    ("missing", "make"),
    [
        ("bs4", lambda m: m.HTMLHeaderTextSplitter([("h1", "A")]).split_text("<h1>x</h1>")),
        ("bs4", lambda m: m.HTMLSectionSplitter([("h1", "A")]).split_html_by_headers("<p/>")),
        ("bs4", lambda m: m.HTMLSemanticPreservingSplitter([("h1", "A")])),
        ("lxml", lambda m: m.HTMLSectionSplitter([("h1", "A")]).split_text("<h1>x</h1>")),
        ("nltk", lambda m: m.HTMLSemanticPreservingSplitter([("h1", "A")], stopword_removal=True)),
    ],
)
def test_missing_parsers_raise_langchains_import_error(missing, make, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, missing, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = outcome(lambda: make(lc))
        assert expected[:2] == ("raised", ImportError)
        assert outcome(lambda: make(fl)) == expected


def test_split_text_from_file_and_url_warning(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("<h1>T</h1><p>body 漢字</p>", encoding="utf-8")
    for module in (lc, fl):
        splitter = module.HTMLHeaderTextSplitter([("h1", "H")])
        assert docs(splitter.split_text_from_file(str(page))) == [
            ("T", {"H": "T"}),
            ("body 漢字", {"H": "T"}),
        ]
    results = []
    for module in (lc, fl):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            # A loopback address: refused before (or at) connecting; no traffic leaves.
            got = outcome(
                lambda m=module: m.HTMLHeaderTextSplitter([]).split_text_from_url(
                    "http://127.0.0.1:9/"
                )
            )
        results.append((got[:2], [(w.category, str(w.message)) for w in caught]))
    assert results[0] == results[1]
    assert results[0][1], "the deprecation warning"


def test_section_splitter_xslt_is_hardened() -> None:
    """The XSLT stays refused network, entities and DTDs (LangChain's security tests)."""
    html = '<!DOCTYPE html [<!ENTITY e "EXPANDED">]><html><body><h1>T</h1><p>&e;</p></body></html>'
    for module in (lc, fl):
        text = " ".join(
            d.page_content for d in module.HTMLSectionSplitter([("h1", "H")]).split_text(html)
        )
        assert "EXPANDED" not in text
    assert fl.HTMLSectionSplitter([("h1", "H")]).xslt_path.is_file()
