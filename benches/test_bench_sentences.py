"""Sentence spans (``ferrochunk.sentence_ends``) on each corpus: the Rust engine on fresh
strings (cold: CPython builds a non-ASCII str's UTF-8 on first use, and that is timed) and
on strings already used (warm), the pure-Python reference, and LangChain's sentence regex
``re.split(r"(?<=[.?!])\\s+")`` for scale (other rules: speed only). Run for real with
``pytest benches/test_bench_sentences.py --benchmark-enable``; MB/s side by side in paired
rounds with ``python benches/sentence_speed.py``.
"""

from __future__ import annotations

import functools
import re
from typing import Callable

import pytest

from corpus import NAMES, megabytes, texts
from ferrochunk import sentence_ends
from ferrochunk.reference import sentences as reference

LANGCHAIN_SENTENCES = re.compile(r"(?<=[.?!])\s+")


def fresh(items: tuple[str, ...]) -> list[str]:
    """New str objects with the same contents (no cached UTF-8), made outside the clock."""
    return [(t + " ")[:-1] for t in items]


def _native(items: list[str]) -> list[list[int]]:
    return [sentence_ends(t) for t in items]


def _reference(items: list[str]) -> list[list[int]]:
    return [reference.sentence_ends(t) for t in items]


def _regex(items: list[str]) -> list[list[str]]:
    return [LANGCHAIN_SENTENCES.split(t) for t in items]


IMPLEMENTATIONS: dict[str, Callable[[list[str]], list]] = {
    "ferrochunk-cold": _native,
    "ferrochunk-warm": _native,
    "reference": _reference,
    "langchain-regex": _regex,
}


@functools.cache
def expected(corpus: str) -> list[list[int]]:
    return _reference(list(texts(corpus)))


@pytest.mark.parametrize("impl", list(IMPLEMENTATIONS))
@pytest.mark.parametrize("corpus", NAMES)
def test_sentences(benchmark, corpus: str, impl: str) -> None:
    items = texts(corpus)
    run = IMPLEMENTATIONS[impl]
    benchmark.group = f"sentences {corpus}"
    benchmark.extra_info.update(implementation=impl, corpus=corpus, megabytes=megabytes(items))
    if impl.endswith("-cold"):
        out = benchmark.pedantic(
            run, setup=lambda: ((fresh(items),), {}), rounds=7, warmup_rounds=1
        )
    else:
        warm = fresh(items)
        run(warm)  # fills the UTF-8 caches
        out = benchmark(run, warm)
    if impl != "langchain-regex":
        identical = out == expected(corpus)
        benchmark.extra_info["identical"] = identical
        assert identical, f"{impl} sentence ends differ from the reference's on {corpus}"
