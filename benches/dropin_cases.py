"""The LangChain drop-ins of ``ferrochunk.langchain`` against LangChain's own classes, as
cases for ``test_bench_dropin.py`` and ``dropin_ratios.py``: each case is a corpus of inputs
and, for both packages, a function splitting one input; outputs are compared as
``(page_content, metadata)`` pairs or strings.

Inputs are the shared corpus: Markdown as is; HTML rendered from it by markdown-it-py;
Python from this package's own sources (the corpus has none)."""

from __future__ import annotations

import functools
import warnings
from pathlib import Path
from typing import Any, Callable, NamedTuple

import langchain_text_splitters as lc

import ferrochunk
import ferrochunk.langchain as fl
from corpus import texts

HEADERS = [("#", "h1"), ("##", "h2"), ("###", "h3")]
HTML_HEADERS = [("h1", "h1"), ("h2", "h2"), ("h3", "h3")]
SOURCES = Path(__file__).resolve().parents[1] / "python" / "ferrochunk"


class Case(NamedTuple):
    inputs: Callable[[], tuple[str, ...]]
    make: Callable[[Any], Callable[[str], Any]]  # module -> one input -> output


@functools.cache
def html(corpus: str) -> tuple[str, ...]:
    from markdown_it import MarkdownIt

    render = MarkdownIt("commonmark").enable("table").render
    return tuple(f"<html><body>{render(t)}</body></html>" for t in texts(corpus))


@functools.cache
def python_sources() -> tuple[str, ...]:
    return tuple(p.read_text(encoding="utf-8") for p in sorted(SOURCES.rglob("*.py")))


def _docs(documents: list) -> list[tuple[str, dict]]:
    return [(d.page_content, d.metadata) for d in documents]


def _header(module):
    splitter = module.MarkdownHeaderTextSplitter(HEADERS)
    return lambda text: _docs(splitter.split_text(text))


def _text(cls: str, **kwargs: Any):
    def make(module):
        return getattr(module, cls)(**kwargs).split_text

    return make


def _section(module):
    splitter = module.HTMLSectionSplitter(HTML_HEADERS, chunk_size=500, chunk_overlap=50)
    Document = lc.RecursiveCharacterTextSplitter().create_documents(["x"])[0].__class__
    return lambda text: _docs(splitter.split_documents([Document(text, metadata={"Title": "t"})]))


def _semantic(module):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the beta warning
        splitter = module.HTMLSemanticPreservingSplitter(
            HTML_HEADERS, max_chunk_size=500, elements_to_preserve=["table", "pre"]
        )
    return lambda text: _docs(splitter.split_text(text))


def _html_header(module):
    splitter = module.HTMLHeaderTextSplitter(HTML_HEADERS)
    return lambda text: _docs(splitter.split_text(text))


def _experimental(module):
    splitter = module.ExperimentalMarkdownSyntaxTextSplitter()
    return lambda text: _docs(splitter.split_text(text))


def _chunker(corpus: str):
    """ferrochunk's MarkdownChunker against LangChain's usual recipe (header splitter, then
    the recursive splitter on each section): not the same output, so not compared."""

    def make(module):
        if module is lc:
            md = lc.MarkdownHeaderTextSplitter(HEADERS, strip_headers=False)
            rc = lc.RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=0)
            return lambda text: len(rc.split_documents(md.split_text(text)))
        preset = "cjk" if corpus.startswith("zh") else "default"
        chunker = ferrochunk.MarkdownChunker(chunk_size=1000, separators=preset)
        return lambda text: len(chunker.split(text))

    return make


CASES: dict[str, Case] = {}
for corpus in ("en-markdown", "zh-markdown"):
    md = functools.partial(texts, corpus)
    CASES[f"MarkdownHeaderTextSplitter/{corpus}"] = Case(md, _header)
    CASES[f"MarkdownTextSplitter/{corpus}"] = Case(
        md, _text("MarkdownTextSplitter", chunk_size=1000, chunk_overlap=200)
    )
    CASES[f"ExperimentalMarkdownSyntaxTextSplitter/{corpus}"] = Case(md, _experimental)
    CASES[f"MarkdownChunker (vs header+recursive recipe)/{corpus}"] = Case(md, _chunker(corpus))
CASES["PythonCodeTextSplitter/ferrochunk sources"] = Case(
    python_sources, _text("PythonCodeTextSplitter", chunk_size=1000, chunk_overlap=200)
)
CASES["LatexTextSplitter/en-markdown"] = Case(
    functools.partial(texts, "en-markdown"),
    _text("LatexTextSplitter", chunk_size=1000, chunk_overlap=200),
)
CASES["JSFrameworkTextSplitter/en-markdown"] = Case(
    functools.partial(texts, "en-markdown"),
    _text("JSFrameworkTextSplitter", chunk_size=1000, chunk_overlap=200),
)
for corpus in ("en-markdown", "zh-markdown"):
    rendered = functools.partial(html, corpus)
    CASES[f"HTMLSectionSplitter.split_documents/{corpus} as HTML"] = Case(rendered, _section)
    CASES[f"HTMLSemanticPreservingSplitter/{corpus} as HTML"] = Case(rendered, _semantic)
    CASES[f"HTMLHeaderTextSplitter/{corpus} as HTML"] = Case(rendered, _html_header)

COMPARED = {name for name in CASES if not name.startswith("MarkdownChunker")}


def fresh(items: tuple[str, ...]) -> list[str]:
    """New ``str`` objects with the same contents: no cached UTF-8 form (cold)."""
    return [t.encode("utf-8").decode("utf-8") for t in items]


__all__ = ["CASES", "COMPARED", "Case", "fl", "fresh", "lc"]
