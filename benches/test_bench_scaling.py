"""Cost must be linear in input size: one document of ~1 MB vs ~100 MB (the corpus repeated),
a fresh copy of it every round (as a document just read).

Compare the two MB/s figures of each implementation in the report (``benches/report.py``).
"""

from __future__ import annotations

import functools

import pytest

import ferrochunk
from corpus import NAMES, texts
from ferrochunk.bench import fresh

SIZES_MB = (1, 100)


@functools.cache
def document(megabytes: int) -> str:
    base = "".join("".join(texts(name)) for name in NAMES)
    target = megabytes * 1_000_000
    repeated = base * (target // len(base.encode("utf-8")) + 1)
    return repeated[: target * len(base) // len(base.encode("utf-8"))]


@pytest.mark.parametrize("megabytes", SIZES_MB)
@pytest.mark.parametrize("impl", ["ferrochunk", "ferrochunk-native"])
def test_scaling(benchmark, impl: str, megabytes: int) -> None:
    text = document(megabytes)
    if impl == "ferrochunk":
        run = ferrochunk.RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)
        run = run.split_text
    else:
        run = ferrochunk.Splitter(1000, chunk_overlap=200).split
    benchmark.group = f"scaling {impl}"
    benchmark.extra_info.update(
        implementation=impl, megabytes=len(text.encode("utf-8")) / 1e6, size=f"{megabytes} MB"
    )
    benchmark.extra_info["cold"] = True
    chunks = benchmark.pedantic(
        run, setup=lambda: ((fresh(text),), {}), rounds=3 if megabytes > 10 else 10
    )
    assert chunks
