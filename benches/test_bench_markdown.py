"""Markdown chunking speed: ferrochunk's MarkdownChunker (Rust and pure-Python reference),
LangChain's usual recipe (MarkdownHeaderTextSplitter then RecursiveCharacterTextSplitter),
and the MarkdownHeaderTextSplitter drop-in against LangChain's. Quality figures and a table:
``python benches/markdown_quality.py``."""

from __future__ import annotations

import pytest
from langchain_text_splitters import MarkdownHeaderTextSplitter as LangChainHeaders
from langchain_text_splitters import RecursiveCharacterTextSplitter as LangChainRecursive

import ferrochunk
from corpus import texts as corpus
from ferrochunk import reference as ref
from ferrochunk.bench import fresh

HEADERS = [("#", "h1"), ("##", "h2"), ("###", "h3")]


def langchain_recipe(texts: tuple[str, ...]) -> int:
    md = LangChainHeaders(HEADERS, strip_headers=False)
    rc = LangChainRecursive(chunk_size=1000, chunk_overlap=0)
    return sum(len(rc.split_documents(md.split_text(t))) for t in texts)


def chunker(cls, preset: str):
    c = cls(chunk_size=1000, separators=preset)
    return lambda texts: sum(len(c.split(t)) for t in texts)


def headers(cls):
    s = cls(HEADERS)
    return lambda texts: sum(len(s.split_text(t)) for t in texts)


CASES = {
    "ferrochunk": lambda preset: chunker(ferrochunk.MarkdownChunker, preset),
    "reference": lambda preset: chunker(ref.MarkdownChunker, preset),
    "langchain-recipe": lambda preset: langchain_recipe,
    "headers-ferrochunk": lambda preset: headers(ferrochunk.MarkdownHeaderTextSplitter),
    "headers-langchain": lambda preset: headers(LangChainHeaders),
}


@pytest.mark.parametrize("name", ["en-markdown", "zh-markdown"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_markdown_speed(benchmark, name, case) -> None:
    texts = corpus(name)
    run = CASES[case]("cjk" if name.startswith("zh") else "default")
    benchmark.extra_info.update(bytes=sum(len(t.encode("utf-8")) for t in texts), cold=True)
    # Cold: fresh copies of the texts every round, made outside the timed region.
    setup = lambda: (([fresh(t) for t in texts],), {})  # noqa: E731
    assert benchmark.pedantic(run, setup=setup, rounds=5) > 0
