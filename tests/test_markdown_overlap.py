"""MarkdownChunker(chunk_overlap=...) (mirrors ``rust/markdown/overlap.rs``): Rust ==
reference, and properties checked against the chunks without overlap and against an
independent CommonMark parser (markdown-it-py): only starts move, back into the previous
chunk and never past its start; the repeated tail fits ``chunk_overlap`` and the chunk
still fits ``chunk_size``; no tail crosses a heading or starts inside a fenced code block
or table that is whole in one chunk; heading paths stay the parser's."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ferrochunk
from ferrochunk import reference as ref
from test_markdown import (
    PARSER,
    both,
    check_against_parser,
    line_starts,
    markdown,
    rows,
)


def whole_regions(text: str, plain) -> list[tuple[int, int]]:
    """Fences and tables (markdown-it's reading) inside one chunk without overlap."""
    starts = line_starts(text)
    lines = text.split("\n")
    out = []
    for t in PARSER.parse(text):
        if t.type in ("fence", "table_open") and t.map:
            a, b = t.map[0], max(t.map[0], t.map[1] - 1)
            while b > a and not lines[b].strip():
                b -= 1
            start = starts[a] + len(lines[a]) - len(lines[a].lstrip(" \t"))
            end = starts[b] + len(lines[b].rstrip())
            if any(c.start <= start and end <= c.end for c in plain):
                out.append((start, end))
    return out


def check(text: str, size: int, overlap: int, length=len, **options) -> list:
    chunks = both(text, chunk_size=size, chunk_overlap=overlap, length_function=length, **options)
    plain = ferrochunk.MarkdownChunker(chunk_size=size, length_function=length, **options).split(
        text
    )
    assert [c.end for c in chunks] == [c.end for c in plain]
    assert [c.metadata["heading_path"] for c in chunks] == [
        c.metadata["heading_path"] for c in plain
    ]
    data = text.encode("utf-8")
    for k, (c, p) in enumerate(zip(chunks, plain)):
        assert text[c.start : c.end] == c.text
        assert data[c.byte_start : c.byte_end] == c.text.encode("utf-8")
        assert length(c.text) <= size
        if c.start == p.start:
            continue
        prev = plain[k - 1]
        assert prev.start < c.start < prev.end  # a tail of the previous chunk only
        assert length(text[c.start : prev.end]) <= overlap
        assert not c.text[0].isspace()
        assert c.metadata["table_header"] is None
    return chunks


def check_parser(text: str, size: int, chunks) -> None:
    check_against_parser(text, chunks, size)
    plain = ferrochunk.MarkdownChunker(chunk_size=size).split(text)
    for a, b in whole_regions(text, plain):
        assert not any(a < c.start < b for c in chunks), text[a:b][:80]


@pytest.mark.parametrize(("size", "overlap"), [(300, 60), (1000, 200)])
def test_corpus(size, overlap, markdown_paths) -> None:
    moved = 0
    for path in markdown_paths[::3]:
        text = path.read_text(encoding="utf-8")
        chunks = check(text, size, overlap, separators="cjk")
        check_parser(text, size, chunks)
        moved += sum(b.start < a.end for a, b in itertools.pairwise(chunks))
    assert moved > 100  # the corpus has many chunk boundaries inside sections


@given(markdown(), st.integers(8, 400), st.integers(0, 99), st.sampled_from(["default", "cjk"]))
def test_generated(text, size, percent, preset) -> None:
    chunks = check(text, size, size * percent // 100, separators=preset)
    check_parser(text, size, chunks)


@given(markdown(), st.integers(3, 60), st.integers(0, 99))
def test_generated_token_lengths(text, size, percent) -> None:
    def words(s: str) -> int:
        return len(s.split())

    check(text, size, size * percent // 100, length=words)


def test_seams_and_default_unchanged() -> None:
    text = "# T\n\n" + " ".join(f"Sentence number {i} ends here." for i in range(40)) + "\n"
    chunks = check(text, 200, 60)
    tails = [b for a, b in itertools.pairwise(chunks) if b.start < a.end]
    assert any(b.text.startswith("Sentence number") for b in tails)
    assert all(text[b.start - 1] == " " for b in tails)  # whole words at least
    plain = ferrochunk.MarkdownChunker(chunk_size=200).split(text)
    zero = ferrochunk.MarkdownChunker(chunk_size=200, chunk_overlap=0).split(text)
    assert rows(plain) == rows(zero)


@given(markdown(), st.integers(8, 200), st.integers(1, 8))
def test_hierarchy_children_stay_in_parents(text, size, ratio) -> None:
    options = {"chunk_size": size, "parent_size": size * ratio, "chunk_overlap": size // 3}
    native = ferrochunk.MarkdownChunker(**options).split_hierarchy(text)
    reference = ref.MarkdownChunker(**options).split_hierarchy(text)
    assert [rows(x) for x in native] == [rows(x) for x in reference]
    parents, children = native
    by_id = {p.metadata["chunk_id"]: p for p in parents}
    for c in children:
        p = by_id[c.metadata["parent_id"]]
        assert p.start <= c.start and c.end <= p.end


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"chunk_size": 10, "chunk_overlap": 10}, ValueError),
        ({"chunk_size": 10, "chunk_overlap": -1}, ValueError),
        ({"chunk_size": 10, "chunk_overlap": "3"}, TypeError),
    ],
)
def test_bad_overlap(kwargs, error) -> None:
    with pytest.raises(error, match="chunk_overlap"):
        ferrochunk.MarkdownChunker(**kwargs)
