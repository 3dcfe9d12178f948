"""Batches across threads: ``Splitter.split_batch`` at 1 and 2 threads on the whole shared
corpus (fresh ``str`` objects each round, made outside the timed region), checked equal to
one-by-one ``split``; and a smoke run of the end-to-end script ``corpus_scale.py``.

Compare the two ``split_batch`` groups' times in the report (``benches/report.py``); the
corpus-scale table and its command are in docs/benchmarks.md (``## Corpus scale``).
"""

from __future__ import annotations

import pytest

import ferrochunk
from corpus import NAMES, megabytes, texts

SIZE, OVERLAP = 1000, 200


def fresh(items: tuple[str, ...]) -> list[str]:
    """New str objects (no cached UTF-8 inside), as a batch read from disk has."""
    return ["".join(list(t)) for t in items]


@pytest.mark.parametrize("threads", [1, 2])
def test_split_batch(benchmark, threads: int) -> None:
    items = tuple(t for name in NAMES for t in texts(name))
    splitter = ferrochunk.Splitter(SIZE, chunk_overlap=OVERLAP)
    benchmark.group = "split_batch, whole corpus"
    benchmark.extra_info.update(threads=threads, megabytes=megabytes(items))
    got = benchmark.pedantic(
        lambda batch: splitter.split_batch(batch, threads=threads),
        setup=lambda: ((fresh(items),), {}),
        rounds=3,
    )
    identical = [[c.text for c in cl] for cl in got] == [
        [c.text for c in splitter.split(t)] for t in items
    ]
    benchmark.extra_info["identical"] = identical
    assert identical


def test_corpus_scale_script_runs(capsys) -> None:
    """The end-to-end script on a 4 MB corpus, one round (a smoke test, not a figure)."""
    import corpus_scale

    corpus_scale.scale(megabytes=4, rounds=1)
    out = capsys.readouterr().out
    assert "| ferrochunk chunk, 2 threads |" in out and "LangChain, Pool(2)" in out


def test_batch_modes_script_runs(capsys) -> None:
    """``corpus_scale.py --batch`` on 4 MB, one round (a smoke test, not a figure)."""
    import corpus_scale

    corpus_scale.batch(megabytes=4, rounds=1)
    out = capsys.readouterr().out
    assert "chunks identical" in out and "| split_batch, threads=2 |" in out
