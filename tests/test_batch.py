"""Batches on a thread pool: ``split_batch`` / ``split_iter`` give exactly the one-by-one
calls, in order, with each document's metadata; errors name the document; lazy inputs are
read a bounded amount ahead; the drop-ins' document methods stay LangChain's; a forked
process splits in parallel too."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import subprocess
import sys

import langchain_text_splitters as lc
import pytest
from hypothesis import given
from hypothesis import strategies as st

import corpus
import ferrochunk
from ferrochunk import MarkdownChunker, Splitter, TokenSplitter
from ferrochunk.parallel import resolve_threads
from support import captured_warnings, docs, sizes, texts
from test_markdown import markdown

THREADS = [1, 2, 3]
batches = st.lists(texts, max_size=12)


def rows(chunk_lists):
    return [
        [(c.text, c.start, c.end, c.byte_start, c.byte_end, c.index, dict(c.metadata)) for c in cl]
        for cl in chunk_lists
    ]


@given(batches, sizes(), st.sampled_from(THREADS))
def test_splitter_batch_is_one_by_one(items, size_overlap, threads) -> None:
    size, overlap = size_overlap
    splitter = Splitter(size, chunk_overlap=overlap)
    metas = [{"doc": i} for i in range(len(items))]
    one = [splitter.split(t, m) for t, m in zip(items, metas)]
    assert rows(splitter.split_batch(items, metas, threads=threads)) == rows(one)
    assert rows(splitter.split_iter(iter(items), iter(metas), threads=threads)) == rows(one)


@given(st.lists(markdown(), max_size=6), st.integers(8, 300), st.sampled_from(THREADS))
def test_markdown_batch_is_one_by_one(items, size, threads) -> None:
    chunker = MarkdownChunker(size, chunk_overlap=size // 5)
    ids = [None if i % 2 else f"doc-{i}" for i in range(len(items))]
    metas = [{"n": i} for i in range(len(items))]
    one = [chunker.split(t, m, d) for t, m, d in zip(items, metas, ids)]
    assert rows(chunker.split_batch(items, metas, ids, threads=threads)) == rows(one)


@given(batches, st.integers(2, 60), st.sampled_from(THREADS))
def test_token_batch_is_one_by_one(items, size, threads) -> None:
    items = [t.encode("utf-8", "replace").decode("utf-8") for t in items]  # no surrogates
    splitter = TokenSplitter(size, chunk_overlap=size // 3, encoding="o200k_base")
    one = [splitter.split(t) for t in items]
    assert rows(splitter.split_batch(items, threads=threads)) == rows(one)
    assert [[c.token_count for c in cl] for cl in splitter.split_batch(items)] == [
        [c.token_count for c in cl] for cl in one
    ]


@given(batches, sizes(), st.booleans())
def test_dropin_documents_are_langchains(items, size_overlap, start_index) -> None:
    size, overlap = size_overlap
    metas = [{"doc": i, "nested": {"k": [i]}} for i in range(len(items))]
    kwargs = {"chunk_size": size, "chunk_overlap": overlap, "add_start_index": start_index}
    with captured_warnings() as ours:
        got = ferrochunk.RecursiveCharacterTextSplitter(**kwargs).create_documents(items, metas)
    with captured_warnings() as theirs:
        want = lc.RecursiveCharacterTextSplitter(**kwargs).create_documents(items, metas)
    assert docs(got) == docs(want)
    assert ours == theirs
    # Deep copies: no two documents share a metadata object.
    assert len({id(d.metadata["nested"]) for d in got}) == len(got)


def test_token_counted_batches_match() -> None:
    items = [p.read_text(encoding="utf-8") for p in corpus.paths()[:40]]
    counter = ferrochunk.get_encoding("cl100k_base").length_function()
    splitter = Splitter(200, chunk_overlap=20, length_function=counter)
    one = [splitter.split(t) for t in items]
    got = splitter.split_batch(items, threads=2)
    assert rows(got) == rows(one)
    assert all(c.token_count is not None for cl in got for c in cl)


@pytest.mark.parametrize("threads", [1, 2])
def test_corpus_batches(threads) -> None:
    paths = corpus.paths()
    items = [p.read_text(encoding="utf-8") for p in paths]
    metas = [{"path": str(p)} for p in paths]
    for splitter in (
        Splitter(1000, chunk_overlap=200),
        Splitter(300, chunk_overlap=0, keep_separator="end"),
    ):
        one = [splitter.split(t, m) for t, m in zip(items, metas)]
        assert rows(splitter.split_batch(items, metas, threads=threads)) == rows(one)
    chunker = MarkdownChunker(500)
    one = [chunker.split(t, m) for t, m in zip(items, metas)]
    assert rows(chunker.split_batch(items, metas, threads=threads)) == rows(one)
    dropin = ferrochunk.RecursiveCharacterTextSplitter(chunk_size=500, chunk_overlap=50)
    want = lc.RecursiveCharacterTextSplitter(chunk_size=500, chunk_overlap=50)
    assert docs(dropin.create_documents(items, metas)) == docs(want.create_documents(items, metas))


def test_python_length_goes_one_at_a_time_with_the_same_output() -> None:
    def words(s: str) -> int:
        return len(s.split())

    splitter = Splitter(5, chunk_overlap=1, length_function=words)
    items = ["one two three four five six seven", "", "eight nine"]
    assert rows(splitter.split_batch(items, threads=2)) == rows([splitter.split(t) for t in items])
    chunker = MarkdownChunker(5, length_function=words)
    assert rows(chunker.split_batch(items)) == rows([chunker.split(t) for t in items])


def test_reference_has_the_same_batch_api() -> None:
    items = ["a b c d", "e f"]
    ref = ferrochunk.reference.Splitter(3, chunk_overlap=0)
    assert [[c.text for c in cl] for cl in ref.split_batch(items)] == [
        [c.text for c in cl] for cl in Splitter(3, chunk_overlap=0).split_batch(items)
    ]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        (3, TypeError, "texts[2]: text must be str, got int"),
        (b"bytes", TypeError, "texts[2]: text must be str, got bytes"),
        ("x\ud800", ValueError, "texts[2]: text has a lone surrogate"),
    ],
)
def test_invalid_document_is_named_after_the_ones_before(threads, bad, error, message) -> None:
    items = ["first doc", "second doc", bad, "never reached"]
    for splitter in (Splitter(4, chunk_overlap=0), TokenSplitter(2, chunk_overlap=0)):
        with pytest.raises(error, match=message.replace("[", r"\[").replace("]", r"\]")):
            splitter.split_batch(items, threads=threads)
        it = splitter.split_iter(items, threads=threads)
        assert [c.text for c in next(it)] == [c.text for c in splitter.split("first doc")]
        next(it)
        with pytest.raises(error, match="texts\\[2\\]"):
            next(it)
        assert list(it) == []  # finished, like a generator after an exception


def test_markdown_errors_name_documents_and_surrogates_fall_back() -> None:
    chunker = MarkdownChunker(50)
    with pytest.raises(TypeError, match=r"texts\[1\]"):
        chunker.split_batch(["# a", 7])
    with pytest.raises(ValueError, match=r"metadatas\[1\]: metadata keys \['chunk_id'\]"):
        chunker.split_batch(["# a", "b"], [{}, {"chunk_id": 1}])
    with pytest.raises(TypeError, match=r"document_ids\[0\]"):
        chunker.split_batch(["# a"], None, [3])
    # Lone surrogates take the one-document path in a batch too (which today raises).
    odd = "# T\n\nlone \ud800 surrogate"
    with pytest.raises(ValueError) as one:
        chunker.split(odd)
    with pytest.raises(type(one.value)):
        chunker.split_batch(["# U\n\nfine", odd], threads=2)


def test_metadata_counts_must_match() -> None:
    splitter = Splitter(10, chunk_overlap=0)
    with pytest.raises(ValueError, match="metadatas has fewer items than texts"):
        splitter.split_batch(["a", "b"], [{}])
    with pytest.raises(ValueError, match="metadatas has more items than texts"):
        splitter.split_batch(["a"], [{}, {}])
    with pytest.raises(TypeError, match=r"metadatas\[1\] must be a mapping"):
        splitter.split_batch(["a", "b"], [{}, 5])
    pairs = [("source", "a.md")]  # what `split` takes (`dict(metadata)`), so a batch does
    assert splitter.split_batch(["a b"], [pairs]) == [splitter.split("a b", pairs)]
    assert splitter.split_batch(["a b"], [pairs])[0][0].metadata == {"source": "a.md"}
    with pytest.raises(TypeError, match="not a single str"):
        splitter.split_batch("abc")


@pytest.mark.parametrize(
    ("threads", "error"), [(0, ValueError), (-1, ValueError), ("2", TypeError), (True, TypeError)]
)
def test_bad_thread_counts(threads, error) -> None:
    with pytest.raises(error, match="threads"):
        Splitter(10, chunk_overlap=0).split_batch(["a"], threads=threads)
    with pytest.raises(error, match="threads"):
        resolve_threads(threads)


def test_thread_count_from_environment(monkeypatch) -> None:
    monkeypatch.delenv("RAYON_NUM_THREADS", raising=False)
    monkeypatch.setenv("FERROCHUNK_NUM_THREADS", "3")
    assert resolve_threads() == 3
    monkeypatch.delenv("FERROCHUNK_NUM_THREADS")
    monkeypatch.setenv("RAYON_NUM_THREADS", "5")
    assert resolve_threads() == 5
    monkeypatch.setenv("FERROCHUNK_NUM_THREADS", "many")
    with pytest.raises(ValueError, match="FERROCHUNK_NUM_THREADS must be a positive integer"):
        Splitter(10, chunk_overlap=0).split_batch(["a", "b"])


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no affinity on this OS")
def test_threads_follow_the_affinity_mask() -> None:
    code = (
        "import os; os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]});"
        "from ferrochunk.parallel import resolve_threads; print(resolve_threads())"
    )
    env = {k: v for k, v in os.environ.items() if not k.endswith("NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "1", out.stderr


def test_lazy_input_is_read_a_bounded_amount_ahead() -> None:
    pulled = []

    def gen():
        for i in itertools.count():
            pulled.append(i)
            yield f"document {i} " * 50

    it = Splitter(100, chunk_overlap=0).split_iter(gen(), threads=2)
    for _ in range(3):
        next(it)
    # One group per thread-slot at most: 4 groups per thread of up to 64 documents each.
    assert 3 <= len(pulled) <= 2 * 4 * 64 + 1


def _child(queue) -> None:
    items = [f"word {i} " * 300 for i in range(200)]
    out = Splitter(200, chunk_overlap=20).split_batch(items, threads=2)
    queue.put(sum(len(cl) for cl in out))


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this OS"
)
def test_forked_process_splits_in_parallel_without_hanging() -> None:
    items = [f"word {i} " * 300 for i in range(200)]
    expected = sum(len(cl) for cl in Splitter(200, chunk_overlap=20).split_batch(items, threads=2))
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child, args=(queue,))
    child.start()
    child.join(timeout=60)
    if child.is_alive():
        child.kill()
        pytest.fail("the forked child hung in a parallel split")
    assert child.exitcode == 0
    assert queue.get(timeout=5) == expected


@given(batches, st.integers(2, 40), st.booleans())
def test_token_dropin_documents_are_langchains(items, size, start_index) -> None:
    pytest.importorskip("tiktoken")
    ferrochunk.tokens.use_bundled_ranks_in_tiktoken()  # no download for LangChain's tiktoken
    metas = [{"doc": i} for i in range(len(items))]
    kwargs = {"chunk_size": size, "chunk_overlap": size // 4, "add_start_index": start_index}
    splitter = ferrochunk.TokenTextSplitter(encoding_name="cl100k_base", **kwargs)
    want = lc.TokenTextSplitter(encoding_name="cl100k_base", **kwargs)
    assert docs(splitter.create_documents(items, metas)) == docs(
        want.create_documents(items, metas)
    )


def test_token_dropin_batch_runs_natively_on_the_corpus(monkeypatch) -> None:
    pytest.importorskip("tiktoken")
    ferrochunk.tokens.use_bundled_ranks_in_tiktoken()
    items = [p.read_text(encoding="utf-8") for p in corpus.paths()[:30]]
    calls = []
    native = ferrochunk._native.lossy_iter
    monkeypatch.setattr(ferrochunk._native, "lossy_iter", lambda *a: calls.append(1) or native(*a))
    ours = ferrochunk.TokenTextSplitter(chunk_size=200, chunk_overlap=20).split_documents
    theirs = lc.TokenTextSplitter(chunk_size=200, chunk_overlap=20).split_documents
    documents = ferrochunk.RecursiveCharacterTextSplitter().create_documents(items)
    assert docs(ours(documents)) == docs(theirs(documents)) and calls == [1]


@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize(
    "splitter",
    [Splitter(8, chunk_overlap=2), TokenSplitter(2, chunk_overlap=1)],
    ids=["chars", "tokens"],
)
def test_batch_without_metadatas_gives_read_only_views(splitter, threads) -> None:
    # As `split`: each chunk's metadata is an empty read-only view, not a mutable dict.
    for chunks in splitter.split_batch(["one two three", "four five"], threads=threads):
        assert chunks
        for c in chunks:
            assert type(c.metadata) is type(splitter.split("x")[0].metadata)
            assert c.metadata == {}
            with pytest.raises(TypeError):
                c.metadata["k"] = 1  # type: ignore[index]


MAX_THREADS = 1024  # rust/parallel/threads.rs


@pytest.mark.parametrize("threads", [MAX_THREADS + 1, 2**40, 10**20])
def test_absurd_thread_counts_are_refused(threads, monkeypatch) -> None:
    """More than ``MAX_THREADS`` is a ``ValueError`` (was an ``OverflowError``, or threads
    spawned until the OS refused), from the argument or the environment."""
    for call in (
        lambda: Splitter(10, chunk_overlap=0).split_batch(["a"], threads=threads),
        lambda: TokenSplitter(10, chunk_overlap=0).split_batch(["a"], threads=threads),
        lambda: resolve_threads(threads),
    ):
        with pytest.raises(ValueError, match=f"threads must be at most {MAX_THREADS}"):
            call()
    assert resolve_threads(MAX_THREADS) == MAX_THREADS
    monkeypatch.setenv("FERROCHUNK_NUM_THREADS", str(threads))
    with pytest.raises(ValueError, match=f"FERROCHUNK_NUM_THREADS .* up to {MAX_THREADS}"):
        Splitter(10, chunk_overlap=0).split_batch(["a", "b"])
