"""chunk_arrow against the Python loop (``to_pylist()`` then ``split`` each) on a table of
corpus documents; the output of both is checked equal. Smoke-run once in the test suite;
the 200 MB Parquet figures come from benches/arrow_engines.py (docs/benchmarks.md)."""

from __future__ import annotations

import pytest

from corpus import NAMES, texts
from ferrochunk import Splitter
from ferrochunk.arrow import chunk_arrow

pa = pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def docs():
    return pa.table({"text": [t for name in NAMES for t in texts(name)]})


def _loop(table, splitter):
    return [c.text for t in table.column("text").to_pylist() for c in splitter.split(t)]


@pytest.mark.parametrize("mode", ["python-loop", "chunk_arrow-1", "chunk_arrow-2"])
def test_bench_arrow(benchmark, docs, mode):
    splitter = Splitter(1000, chunk_overlap=100)
    benchmark.group = "arrow: the corpus"
    benchmark.extra_info["impl"] = mode
    if mode == "python-loop":
        texts = benchmark(_loop, docs, splitter)
    else:
        threads = int(mode[-1])
        out = benchmark(chunk_arrow, docs, chunker=splitter, threads=threads)
        texts = out.column("text").to_pylist()
    assert texts == _loop(docs, splitter)
