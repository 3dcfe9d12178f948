"""``Splitter.split_file`` == ``Splitter.split`` on the whole text, whatever the buffer size:
separators, multi-byte characters and ``\\r\\n`` cut across buffer edges, unseekable streams,
other encodings, token sizes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import corpus
import ferrochunk
from ferrochunk import Splitter
from ferrochunk.frontend.patterns import to_rust
from ferrochunk.split import files
from support import LITERAL_SEPARATORS, RUST_REGEXES, sizes, texts

# The patterns the native engine runs (split_file refuses those that need Python's re).
NATIVE_REGEXES = [p for p in RUST_REGEXES if p and to_rust(p) is not None and p != "(?s)."]
separator_options = st.one_of(
    st.just({}),
    st.lists(st.sampled_from(LITERAL_SEPARATORS), min_size=1, max_size=5).map(
        lambda seps: {"separators": seps}
    ),
    st.lists(st.sampled_from(NATIVE_REGEXES), min_size=1, max_size=4).map(
        lambda seps: {"separators": [*seps, ""], "is_separator_regex": True}
    ),
)
# Stretches that put separators, CJK, emoji and CRLF across the edges of tiny buffers.
edgy = st.lists(
    st.sampled_from(["\n\n", "\r\n", "\r\n\r\n", "\n", " ", "é", "漢字", "😀", "a. ", "word"]),
    max_size=120,
).map("".join)


def encodable(text: str) -> str:
    return text.encode("utf-8", "replace").decode("utf-8")


def rows(chunks) -> list[tuple]:
    return [
        (c.text, c.start, c.end, c.byte_start, c.byte_end, c.index, c.token_count, dict(c.metadata))
        for c in chunks
    ]


def check(splitter: Splitter, text: str, buffer_size: int, **kwargs) -> None:
    data = text.encode("utf-8")
    got = splitter.split_file(io.BytesIO(data), {"f": 1}, buffer_size=buffer_size, **kwargs)
    assert rows(got) == rows(splitter.split(text, {"f": 1}))


@given(
    (texts | edgy).map(encodable),
    sizes(),
    separator_options,
    st.sampled_from(["start", "end"]),
    st.booleans(),
    st.integers(1, 17) | st.integers(1, 400),
)
def test_split_file_is_split(text, size_overlap, seps, keep, strip, buffer_size) -> None:
    size, overlap = size_overlap
    splitter = Splitter(
        size, chunk_overlap=overlap, keep_separator=keep, strip_whitespace=strip, **seps
    )
    check(splitter, text, buffer_size)


@given(edgy, st.integers(1, 30), st.integers(1, 9))
def test_token_sizes_and_counts(text, size, buffer_size) -> None:
    counter = ferrochunk.get_encoding("cl100k_base").length_function()
    check(Splitter(size, chunk_overlap=size // 4, length_function=counter), text, buffer_size)


def test_python_length_function() -> None:
    splitter = Splitter(4, chunk_overlap=1, length_function=lambda s: len(s.split()))
    check(splitter, "one two three four\n\nfive six seven eight nine ten\n" * 20, 5)


def test_long_runs_and_long_pieces() -> None:
    text = "Short line.\n" * 5000 + "x" * 20000 + "\n\n" + "tail words " * 3000
    for size in (50, 1000):
        check(Splitter(size, chunk_overlap=size // 5), text, 777)


def test_corpus_files() -> None:
    for path in corpus.paths()[::3]:
        text = path.read_bytes().decode("utf-8")
        splitter = Splitter(500, chunk_overlap=100)
        got = splitter.split_file(path, buffer_size=4096)
        assert rows(got) == rows(splitter.split(text))


class Unseekable(io.RawIOBase):
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), len(self.data) - self.at, 5)
        buffer[:n] = self.data[self.at : self.at + n]
        self.at += n
        return n


@pytest.mark.parametrize("spool_bytes", [1 << 30, 64])
def test_unseekable_streams_are_replayed(monkeypatch, spool_bytes) -> None:
    monkeypatch.setattr(files, "SPOOL_BYTES", spool_bytes)
    text = "a b c d e f g h " * 40 + "\n\nend"  # the first separator comes late
    splitter = Splitter(10, chunk_overlap=3)
    got = splitter.split_file(Unseekable(text.encode()), buffer_size=16)
    assert rows(got) == rows(splitter.split(text))


@pytest.mark.parametrize("encoding", ["utf-16", "latin-1", "utf-8-sig", "cp1252"])
def test_other_encodings(tmp_path: Path, encoding) -> None:
    text = "caf\u00e9 na\u00efve\r\n\r\nr\u00e9sum\u00e9 " * 50
    path = tmp_path / "f.txt"
    path.write_bytes(text.encode(encoding))
    splitter = Splitter(30, chunk_overlap=5)
    got = splitter.split_file(path, encoding=encoding, buffer_size=7)
    assert rows(got) == rows(splitter.split(path.read_bytes().decode(encoding)))


def test_bad_input() -> None:
    splitter = Splitter(10, chunk_overlap=0)
    with pytest.raises(ValueError, match=r"not valid UTF-8.*offset 5"):
        list(splitter.split_file(io.BytesIO(b"hello\xff world"), buffer_size=3))
    with pytest.raises(ValueError, match="offset 2"):
        list(splitter.split_file(io.BytesIO(b"ab\xc3"), buffer_size=1))
    with pytest.raises(TypeError, match="binary mode"):
        list(splitter.split_file(io.StringIO("text")))
    with pytest.raises(TypeError, match="path or a binary file"):
        list(splitter.split_file(42))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="buffer_size"):
        splitter.split_file(io.BytesIO(b""), buffer_size=0)
    python_only = Splitter(
        10, chunk_overlap=0, separators=[r"(?<=\.) ", ""], is_separator_regex=True
    )
    with pytest.raises(ValueError, match="Python's re"):
        python_only.split_file(io.BytesIO(b"a. b"))
    assert list(splitter.split_file(io.BytesIO(b""))) == []
