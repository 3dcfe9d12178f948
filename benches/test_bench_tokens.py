"""Token counting and token-sized splitting vs tiktoken and LangChain, on each corpus.

Counting: MB/s of ``len(tiktoken.encode_ordinary)`` vs ferrochunk's ``count`` (single thread)
and ``count_batch`` (all cores); token splitting: cl100k_base, chunk_size 512, overlap 50,
``from_tiktoken_encoder`` and ``TokenTextSplitter``. Cold by default: every round works on
fresh copies of the texts with ferrochunk's piece caches emptied (``corpus.cold``);
``ferrochunk-warm`` repeats the same strings with warm caches, labelled as such. Every
benchmark checks identical output.
Run for real with ``pytest benches/test_bench_tokens.py --benchmark-enable``.
"""

from __future__ import annotations

import functools
from typing import Callable

import pytest

import ferrochunk
from cold import cold
from corpus import NAMES, megabytes, texts
from ferrochunk import reference, tokens

ENCODINGS = ("cl100k_base", "o200k_base", "gpt2")
SIZE, OVERLAP, SPLIT_ENCODING = 512, 50, "cl100k_base"


def _tiktoken(name: str) -> Callable[[tuple[str, ...]], list[int]]:
    enc = ferrochunk.tiktoken_encoding(name)
    return lambda items: [len(enc.encode_ordinary(t)) for t in items]


def _single(name: str) -> Callable[[tuple[str, ...]], list[int]]:
    enc = ferrochunk.get_encoding(name)
    return lambda items: [enc.count(t, disallowed_special=()) for t in items]


def _batch(name: str) -> Callable[[tuple[str, ...]], list[int]]:
    enc = ferrochunk.get_encoding(name)
    return lambda items: enc.count_batch(list(items), disallowed_special=())


COUNTERS = {
    "tiktoken": _tiktoken,
    "ferrochunk": _single,
    "ferrochunk-warm": _single,
    "ferrochunk-batch": _batch,
}


@functools.cache
def expected_counts(corpus: str, name: str) -> list[int]:
    return _tiktoken(name)(texts(corpus))


@pytest.mark.parametrize("impl", list(COUNTERS))
@pytest.mark.parametrize("name", ENCODINGS)
@pytest.mark.parametrize("corpus", NAMES)
def test_count(benchmark, corpus: str, name: str, impl: str) -> None:
    items = texts(corpus)
    count = COUNTERS[impl](name)
    benchmark.group = f"count {name} {corpus}"
    benchmark.extra_info.update(implementation=impl, corpus=corpus, megabytes=megabytes(items))
    out = _measure(benchmark, impl, count, items)
    _check(benchmark, out == expected_counts(corpus, name), f"{impl} counts differ from tiktoken's")


def _measure(benchmark, impl: str, run: Callable[[tuple[str, ...]], object], items) -> object:
    """Times `run` on fresh copies of `items` with empty piece caches every round (the first
    pass over text just read); `-warm` implementations on the same strings, caches warm."""
    if impl.endswith("-warm"):
        benchmark.extra_info["cold"] = False
        return benchmark(run, items)
    return cold(benchmark, run, items, rounds=5, before=tokens.clear_caches)


def _check(benchmark, identical: bool, message: str) -> None:
    """Records whether the output was identical (the report's column), then asserts it."""
    benchmark.extra_info["identical"] = identical
    assert identical, message


def _langchain(cls: str) -> Callable[[str], list[str]]:
    lc = pytest.importorskip("langchain_text_splitters")
    tokens.use_bundled_ranks_in_tiktoken()  # tiktoken.get_encoding cannot download here
    kwargs = {"encoding_name": SPLIT_ENCODING, "chunk_size": SIZE, "chunk_overlap": OVERLAP}
    return getattr(lc, cls).from_tiktoken_encoder(**kwargs).split_text


def _ours(package) -> Callable[[str], Callable[[str], list[str]]]:
    kwargs = {"encoding_name": SPLIT_ENCODING, "chunk_size": SIZE, "chunk_overlap": OVERLAP}
    return lambda cls: getattr(package, cls).from_tiktoken_encoder(**kwargs).split_text


SPLITTERS = {
    "langchain": _langchain,
    "ferrochunk": _ours(ferrochunk),
    "ferrochunk-warm": _ours(ferrochunk),
    "reference": _ours(reference),
}


@functools.cache
def expected_split(corpus: str, cls: str) -> list[list[str]]:
    split = _langchain(cls)
    return [split(t) for t in texts(corpus)]


@pytest.mark.parametrize("impl", list(SPLITTERS))
@pytest.mark.parametrize("cls", ["RecursiveCharacterTextSplitter", "TokenTextSplitter"])
@pytest.mark.parametrize("corpus", NAMES)
def test_token_split(benchmark, corpus: str, cls: str, impl: str) -> None:
    items = texts(corpus)
    split = SPLITTERS[impl](cls)
    benchmark.group = f"token split {cls} {corpus}"
    benchmark.extra_info.update(implementation=impl, corpus=corpus, megabytes=megabytes(items))
    out = _measure(benchmark, impl, lambda copies: [split(t) for t in copies], items)
    _check(benchmark, out == expected_split(corpus, cls), f"{impl} output differs from LangChain's")
