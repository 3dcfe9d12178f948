"""``spans`` / ``spans_batch`` (numpy arrays of chunk offsets, made in Rust) and
``split_batch(output="arrow")``, held to the chunks of ``split`` itself: Rust == reference ==
``[(c.start, c.end) for c in split(text)]`` on generated text (every CPython storage: Latin-1,
UCS-2, UCS-4) and on the corpus, in code points and UTF-8 bytes, one thread and two."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import corpus
import ferrochunk
import ferrochunk.reference as reference
from ferrochunk import MarkdownChunker, Splitter, TextChunker, TokenSplitter, get_encoding
from support import atom_text

UNITS = ("char", "byte")


def expected(chunks: list, unit: str) -> np.ndarray:
    """The spans of ``chunks`` as ``spans`` must give them, computed independently: code
    points from the chunks' own ``start``/``end``, bytes by encoding the text before them."""
    if unit == "byte":
        pairs = [(c.byte_start, c.byte_end) for c in chunks]
    else:
        pairs = [(c.start, c.end) for c in chunks]
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


def assert_spans(array: np.ndarray, text: str, chunks: list, unit: str) -> None:
    assert isinstance(array, np.ndarray) and array.dtype == np.int64
    assert array.shape == (len(chunks), 2)
    np.testing.assert_array_equal(array, expected(chunks, unit))
    if unit == "byte":  # the byte offsets locate each chunk in the UTF-8 form itself
        data = text.encode()
        assert [data[a:b].decode() for a, b in array.tolist()] == [c.text for c in chunks]
    else:
        assert [text[a:b] for a, b in array.tolist()] == [c.text for c in chunks]


def assert_batch(chunker, texts: list[str], unit: str, threads: int) -> None:
    flat, offsets = chunker.spans_batch(texts, threads=threads, unit=unit)
    assert flat.dtype == np.int64 and offsets.dtype == np.int64
    assert offsets.shape == (len(texts) + 1,) and offsets[0] == 0
    assert flat.shape == (int(offsets[-1]), 2)
    for i, text in enumerate(texts):
        rows = flat[offsets[i] : offsets[i + 1]]
        np.testing.assert_array_equal(rows, expected(chunker.split(text), unit))


# Strings in each storage CPython picks: the widest character decides it.
STORAGE = {
    "latin1": "é",
    "ucs2": "中",
    "ucs4": "😀",
}


LIMIT = {"ascii": 0x80, "latin1": 0x100, "ucs2": 0x10000, "ucs4": 0x110000}


def in_storage(text: str, kind: str) -> str:
    """``text`` stored as ``kind``: the characters wider than it dropped, one of its width
    added in a paragraph of its own at the end (CPython picks the narrowest storage that
    holds the widest character)."""
    text = "".join(ch for ch in text if ord(ch) < LIMIT[kind])
    return text if kind == "ascii" else f"{text}\n\n{STORAGE[kind]}"


@pytest.mark.parametrize("kind", ["ascii", *STORAGE])
@given(text=atom_text, size=st.integers(1, 60), overlap_part=st.integers(0, 4))
def test_splitter_spans_generated(kind: str, text: str, size: int, overlap_part: int):
    text = in_storage(text, kind)
    overlap = size * overlap_part // 5
    native = Splitter(size, chunk_overlap=overlap)
    ref = reference.Splitter(size, chunk_overlap=overlap)
    chunks = native.split(text)
    assert [c.text for c in ref.split(text)] == [c.text for c in chunks]
    for unit in UNITS:
        assert_spans(native.spans(text, unit=unit), text, chunks, unit)
        np.testing.assert_array_equal(ref.spans(text, unit=unit), native.spans(text, unit=unit))


@given(
    unit=st.sampled_from(UNITS),
    text=atom_text,
    size=st.integers(1, 40),
    separators=st.lists(st.sampled_from(["\n\n", "\n", " ", ".", "", r"\s+", "[。.]"]), max_size=4),
    regex=st.booleans(),
    keep=st.sampled_from(["start", "end"]),
    strip=st.booleans(),
)
def test_splitter_options_generated(unit, text, size, separators, regex, keep, strip):
    options = {
        "separators": separators or None,
        "is_separator_regex": regex,
        "keep_separator": keep,
        "strip_whitespace": strip,
    }
    native = Splitter(size, chunk_overlap=size // 3, **options)
    chunks = native.split(text)
    assert_spans(native.spans(text, unit=unit), text, chunks, unit)
    ref = reference.Splitter(size, chunk_overlap=size // 3, **options)
    np.testing.assert_array_equal(ref.spans(text, unit=unit), native.spans(text, unit=unit))


@given(unit=st.sampled_from(UNITS), texts=st.lists(atom_text, max_size=6), size=st.integers(1, 40))
def test_batches_generated(unit: str, texts: list[str], size: int):
    for chunker in (Splitter(size, chunk_overlap=size // 5), MarkdownChunker(size, min_size=0)):
        for threads in (1, 2):
            assert_batch(chunker, texts, unit, threads)
    ref_flat, ref_offsets = reference.Splitter(size).spans_batch(texts, unit=unit)
    flat, offsets = Splitter(size).spans_batch(texts, unit=unit, threads=2)
    np.testing.assert_array_equal(flat, ref_flat)
    np.testing.assert_array_equal(offsets, ref_offsets)


@given(unit=st.sampled_from(UNITS), text=atom_text, size=st.integers(4, 80))
def test_markdown_and_windows_generated(unit: str, text: str, size: int):
    for chunker in (
        MarkdownChunker(size, min_size=0, chunk_overlap=size // 4),
        TextChunker(size, format="rst"),
        TokenSplitter(max(2, size // 8), chunk_overlap=1),
    ):
        assert_spans(chunker.spans(text, unit=unit), text, chunker.split(text), unit)
    ref = reference.MarkdownChunker(size, min_size=0, chunk_overlap=size // 4)
    np.testing.assert_array_equal(
        ref.spans(text, unit=unit),
        MarkdownChunker(size, min_size=0, chunk_overlap=size // 4).spans(text, unit=unit),
    )


def corpus_texts() -> list[str]:
    return [t for name in corpus.NAMES for t in corpus.texts(name)]


CORPUS_CHUNKERS = {
    "splitter": lambda: Splitter(1000, chunk_overlap=200),
    "splitter-tokens": lambda: Splitter(
        256, chunk_overlap=32, length_function=get_encoding("cl100k_base").length_function()
    ),
    "markdown": lambda: MarkdownChunker(800, chunk_overlap=100, parent_size=2000),
    "markdown-tokens": lambda: MarkdownChunker(
        200, length_function=get_encoding("o200k_base").length_function()
    ),
    "text-plain": lambda: TextChunker(600),
    "tokens": lambda: TokenSplitter(256, chunk_overlap=32),
}


@pytest.mark.parametrize("name", CORPUS_CHUNKERS)
def test_corpus_spans(name: str):
    texts = corpus_texts()[::2]  # half the files (every corpus), batched whole below
    chunker = CORPUS_CHUNKERS[name]()
    for unit in UNITS:
        for text in texts[::4]:  # one-text calls on an eighth of the files
            assert_spans(chunker.spans(text, unit=unit), text, chunker.split(text), unit)
        flat, offsets = chunker.spans_batch(texts, unit=unit, threads=2)
        one, one_offsets = chunker.spans_batch(texts, unit=unit, threads=1)
        np.testing.assert_array_equal(flat, one)
        np.testing.assert_array_equal(offsets, one_offsets)
        want = np.concatenate([expected(c, unit) for c in chunker.split_batch(texts)])
        np.testing.assert_array_equal(flat, want)


def test_python_length_and_reference_give_the_same():
    text = "\n\n".join(corpus.texts("en-prose")[:3])
    words = lambda s: len(s.split())  # noqa: E731 (a Python length: served from the chunks)
    for chunker in (
        Splitter(120, chunk_overlap=20, length_function=words),
        reference.Splitter(400),
    ):
        for unit in UNITS:
            assert_spans(chunker.spans(text, unit=unit), text, chunker.split(text), unit)
            flat, offsets = chunker.spans_batch([text, "", text[:50]], unit=unit)
            assert offsets.tolist()[0] == 0 and len(offsets) == 4
            np.testing.assert_array_equal(
                flat[offsets[0] : offsets[1]], expected(chunker.split(text), unit)
            )


def test_empty_inputs():
    for chunker in (
        Splitter(10),
        MarkdownChunker(10),
        TokenSplitter(4, chunk_overlap=0),
        reference.Splitter(10),
    ):
        assert chunker.spans("").shape == (0, 2)
        flat, offsets = chunker.spans_batch([])
        assert flat.shape == (0, 2) and offsets.tolist() == [0]


@pytest.mark.parametrize(
    "chunker", [Splitter(10), MarkdownChunker(10), TokenSplitter(4, chunk_overlap=0)]
)
def test_bad_input(chunker):
    with pytest.raises(ValueError, match="unit must be 'char'"):
        chunker.spans("a", unit="bytes")
    with pytest.raises(ValueError, match="unit must be 'char'"):
        chunker.spans_batch(["a"], unit=None)
    with pytest.raises(TypeError, match="text must be str"):
        chunker.spans(b"a")
    with pytest.raises(ValueError, match=r"lone surrogate '\\ud800' at index 2"):
        chunker.spans("ab\ud800")
    with pytest.raises(TypeError, match=r"texts\[1\]: text must be str, got int"):
        chunker.spans_batch(["a", 5])
    with pytest.raises(ValueError, match=r"texts\[1\]: text has a lone surrogate at index 1"):
        chunker.spans_batch(["a", "b\udfff"])
    with pytest.raises(TypeError, match="not a single str"):
        chunker.spans_batch("abc")
    with pytest.raises(ValueError, match="threads must be a positive int"):
        chunker.spans_batch(["a"], threads=0)


def test_spans_batch_takes_any_iterable():
    texts = ["one two three", "four five"]
    flat, offsets = Splitter(8, chunk_overlap=0).spans_batch(iter(texts))
    assert offsets.tolist() == [0, 2, 4]
    assert [texts[0][a:b] for a, b in flat[:2].tolist()] == ["one two", "three"]


# -- split_batch(output="arrow") ----------------------------------------------------------------

pa = pytest.importorskip("pyarrow")

ARROW_CHUNKERS = {
    "splitter": lambda stack: stack.Splitter(300, chunk_overlap=50),
    "splitter-tokens": lambda stack: stack.Splitter(
        64, chunk_overlap=8, length_function=get_encoding("cl100k_base").length_function()
    ),
    "markdown": lambda stack: stack.MarkdownChunker(300, parent_size=900),
    "text-rst": lambda stack: stack.TextChunker(300, format="rst"),
}


CHUNK_COLUMNS = [
    "row",
    "chunk_index",
    "start",
    "end",
    "byte_start",
    "byte_end",
    "text",
    "token_count",
]


def rows_of_chunks(lists: list[list]) -> list[dict]:
    return [
        {
            "row": row,
            "chunk_index": i,
            "start": c.start,
            "end": c.end,
            "byte_start": c.byte_start,
            "byte_end": c.byte_end,
            "text": c.text,
            "token_count": c.token_count,
        }
        for row, chunks in enumerate(lists)
        for i, c in enumerate(chunks)
    ]


@pytest.mark.parametrize("stack", [ferrochunk, reference], ids=["native", "reference"])
@pytest.mark.parametrize("name", ARROW_CHUNKERS)
def test_split_batch_arrow_equals_chunks(name: str, stack):
    texts = [t[:6000] for t in corpus_texts()[::5]] + ["", "short é 😀"]
    chunker = ARROW_CHUNKERS[name](stack)
    metadatas = [{"source": f"doc{i}", "n": i} if i % 3 else None for i in range(len(texts))]
    for threads in (1, 2):
        table = chunker.split_batch(texts, metadatas, threads=threads, output="arrow")
        assert isinstance(table, pa.Table)
        got = table.select(CHUNK_COLUMNS).to_pylist()
        assert got == rows_of_chunks(chunker.split_batch(texts, threads=threads))
        rows = table.column("row").to_pylist()
        assert table.column("metadata").to_pylist() == [metadatas[r] for r in rows]
    if name == "markdown":
        chunks = [c for cs in chunker.split_batch(texts) for c in cs]
        paths = table.column("heading_path").to_pylist()
        assert paths == [list(c.metadata["heading_path"]) for c in chunks]


def test_split_batch_arrow_native_equals_reference():
    texts = [t[:4000] for t in corpus_texts()[::9]]
    native = Splitter(200).split_batch(texts, output="arrow")
    ref = reference.Splitter(200).split_batch(texts, output="arrow")
    assert native.to_pylist() == ref.to_pylist()
    assert "chunk_id" not in native.schema.names


def test_split_batch_arrow_bad_input():
    splitter = Splitter(10)
    with pytest.raises(ValueError, match="output must be 'chunks'"):
        splitter.split_batch(["a"], output="table")
    with pytest.raises(TypeError, match=r"texts\[1\]: text must be str"):
        splitter.split_batch(["a", 3], output="arrow")
    with pytest.raises(ValueError, match="one per text"):
        splitter.split_batch(["a", "b"], [{"a": 1}], output="arrow")
    with pytest.raises(TypeError, match="one struct column"):
        splitter.split_batch(["a", "b"], [{"k": 1}, {"k": {"x": 2}}], output="arrow")
    with pytest.raises(ValueError, match="no document_ids"):
        MarkdownChunker(10).split_batch(["a"], document_ids=["x"], output="arrow")
