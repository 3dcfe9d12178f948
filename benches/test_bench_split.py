"""Drop-in and native splitting vs the reference and LangChain on each corpus, cold.

chunk_size=1000, chunk_overlap=200, default separators. Every round splits fresh copies of the
texts (see ``corpus.cold``). Each benchmark also checks that its output equals LangChain's.
Run for real with ``pytest benches --benchmark-enable``; paired ratios:
``python benches/cold_speed.py``.
"""

from __future__ import annotations

import functools
from typing import Callable

import pytest

import ferrochunk
from cold import cold
from corpus import NAMES, megabytes, texts
from ferrochunk import reference

SIZE, OVERLAP = 1000, 200
Split = Callable[[str], list[str]]


def _langchain() -> Split:
    lc = pytest.importorskip("langchain_text_splitters")
    return lc.RecursiveCharacterTextSplitter(chunk_size=SIZE, chunk_overlap=OVERLAP).split_text


def _native() -> Callable[[str], list]:
    # Timed: the call returning Chunk objects (text, offsets, metadata); texts are compared
    # after the clock stops.
    return ferrochunk.Splitter(SIZE, chunk_overlap=OVERLAP).split


def _semantic_text_splitter() -> Split:
    sts = pytest.importorskip("semantic_text_splitter")
    return sts.TextSplitter((SIZE - OVERLAP, SIZE), overlap=OVERLAP).chunks


IMPLEMENTATIONS: dict[str, Callable[[], Split]] = {
    "langchain": _langchain,
    "ferrochunk": lambda: (
        ferrochunk.RecursiveCharacterTextSplitter(chunk_size=SIZE, chunk_overlap=OVERLAP).split_text
    ),
    "ferrochunk-native": _native,
    "reference": lambda: (
        reference.RecursiveCharacterTextSplitter(chunk_size=SIZE, chunk_overlap=OVERLAP).split_text
    ),
    "semantic-text-splitter": _semantic_text_splitter,  # another algorithm: speed only
}
COMPATIBLE = {"langchain", "ferrochunk", "ferrochunk-native", "reference"}


@functools.cache
def expected(corpus: str) -> list[list[str]]:
    split = _langchain()
    return [split(t) for t in texts(corpus)]


@pytest.mark.parametrize("impl", list(IMPLEMENTATIONS))
@pytest.mark.parametrize("corpus", NAMES)
def test_split(benchmark, corpus: str, impl: str) -> None:
    items = texts(corpus)
    split = IMPLEMENTATIONS[impl]()
    benchmark.group = f"split {corpus}"
    benchmark.extra_info.update(implementation=impl, corpus=corpus, megabytes=megabytes(items))
    out = cold(benchmark, lambda copies: [split(t) for t in copies], items)
    if impl == "ferrochunk-native":
        out = [[c.text for c in chunks] for chunks in out]
    if impl in COMPATIBLE:
        identical = out == expected(corpus)
        benchmark.extra_info["identical"] = identical
        assert identical, f"{impl} output differs from LangChain's on {corpus}"
