"""Splitting from many Python threads at once gives what splitting one after the other gives,
and leaves the garbage collector alone.

The native module declares it needs no GIL and releases it while it splits, so eight threads
really run at once here (on free-threaded builds too). The collector used to be switched off
around every large split, process-wide and with the GIL released, so two threads could switch
it back on under each other; chunk records are now not tracked by it, and it is paused only
while a thread holds the GIL to build them (``rust/python/ffi/collector.rs``), so no other thread
can run then: a thread that watches ``gc.isenabled()`` during the whole run checks that it
never sees the switch off.
"""

from __future__ import annotations

import gc
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

import pytest

import ferrochunk

THREADS = 8
SAMPLE = Path(ferrochunk.__file__).parent / "sample"
CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"


def documents() -> list[str]:
    """Texts of every storage kind: the bundled sample, corpus files if present, and a few
    large ones (the old GC switch only kicked in above a million code points)."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLE.iterdir())]
    for name in ("en-markdown", "zh-markdown", "en-prose"):
        texts += [p.read_text(encoding="utf-8") for p in sorted((CORPUS / name).glob("*.*"))][:5]
    texts += ["café au lait. " * 90_000, "漢字のテキスト。" * 150_000, "😀 emoji\n\n" * 120_000]
    return texts


def as_plain(result: Any) -> Any:
    """Chunk records as comparable tuples (they compare by value anyway)."""
    if isinstance(result, list):
        return [as_plain(x) for x in result]
    if isinstance(result, ferrochunk.Chunk):
        return (result.text, result.start, result.end, result.byte_start, result.byte_end)
    return result


SPLITS: dict[str, Callable[[str], Any]] = {
    "split": lambda t: ferrochunk.split(t, 1000, chunk_overlap=200),
    "split_batch": lambda t: ferrochunk.Splitter(1000, chunk_overlap=200).split_batch(
        [t, t[::-1]], threads=2
    ),
    "RecursiveCharacterTextSplitter": ferrochunk.RecursiveCharacterTextSplitter(
        chunk_size=400, chunk_overlap=50
    ).split_text,
    "CharacterTextSplitter": ferrochunk.CharacterTextSplitter(
        separator="\n", chunk_size=400, chunk_overlap=50
    ).split_text,
    "MarkdownChunker": ferrochunk.MarkdownChunker(chunk_size=800).split,
    "TokenTextSplitter": ferrochunk.TokenTextSplitter(chunk_size=300, chunk_overlap=30).split_text,
}


@pytest.mark.parametrize("name", sorted(SPLITS))
def test_eight_threads_split_as_one(name: str) -> None:
    split = SPLITS[name]
    texts = documents()
    if name in ("MarkdownChunker", "TokenTextSplitter"):
        texts = texts[:-3] + [t[:200_000] for t in texts[-3:]]  # keep the suite quick
    expected = [as_plain(split(t)) for t in texts]
    was_enabled = gc.isenabled()
    gc.enable()
    toggled: list[bool] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if not gc.isenabled():
                toggled.append(True)
            done.wait(0.0005)

    start = threading.Barrier(THREADS)

    def work(offset: int) -> list[Any]:
        start.wait()
        order = texts[offset:] + texts[:offset]  # each thread in another order
        got = [as_plain(split(t)) for t in order]
        return got[-offset:] + got[:-offset] if offset else got

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(THREADS) as pool:
            results = list(pool.map(work, range(THREADS)))
    finally:
        done.set()
        watcher.join()
        if not was_enabled:
            gc.disable()
    for got in results:
        assert got == expected
    assert not toggled, "the garbage collector was switched off during a split"
