"""Parent/child Markdown chunks (mirrors ``rust/markdown/parent.rs``): Rust == reference,
and properties checked from the spans alone: every child lies in the parent its
``parent_id`` names, parents are exact spans made of consecutive whole children, they fit
``parent_size`` (unless one child alone), and children equal the plain chunks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ferrochunk
from ferrochunk import reference as ref
from test_markdown import markdown, rows


def hierarchy(text: str, **options) -> tuple[list, list]:
    native = ferrochunk.MarkdownChunker(**options).split_hierarchy(text, {"src": "t"})
    reference = ref.MarkdownChunker(**options).split_hierarchy(text, {"src": "t"})
    assert [rows(x) for x in native] == [rows(x) for x in reference]
    return native


def check(text: str, parents: list, children: list, options: dict, length=len) -> None:
    flat = {k: v for k, v in options.items() if k != "parent_size"}
    plain = ferrochunk.MarkdownChunker(**flat).split(text, {"src": "t"})
    strip = [{k: v for k, v in c.metadata.items() if k != "parent_id"} for c in children]
    assert [dict(c.metadata) for c in plain] == strip
    assert [c.text for c in plain] == [c.text for c in children]
    by_id = {p.metadata["chunk_id"]: p for p in parents}
    assert len(by_id) == len(parents)
    assert not set(by_id) & {c.metadata["chunk_id"] for c in children}
    assert all(p.metadata["parent_id"] is None for p in parents)
    groups: dict[str, list] = {}
    for c in children:
        groups.setdefault(c.metadata["parent_id"], []).append(c)
    assert list(groups) == [p.metadata["chunk_id"] for p in parents]  # consecutive, in order
    for pid, kids in groups.items():
        p = by_id[pid]
        assert text[p.start : p.end] == p.text
        assert (p.start, p.end) == (kids[0].start, kids[-1].end)
        assert text.encode()[p.byte_start : p.byte_end] == p.text.encode()
        assert len(kids) == 1 or length(p.text) <= options["parent_size"]
        assert p.metadata["heading_path"] == kids[0].metadata["heading_path"]
        assert p.metadata["src"] == "t"
    ids = [p.metadata["chunk_id"] for p in parents]
    assert [p.metadata["prev_id"] for p in parents] == [None, *ids][: len(ids)]


@pytest.mark.parametrize("options", [{"chunk_size": 200, "parent_size": 1500}], ids=str)
def test_corpus(options, markdown_paths) -> None:
    for path in markdown_paths[::5]:
        text = path.read_text(encoding="utf-8")
        parents, children = hierarchy(text, **options)
        check(text, parents, children, options)
        assert len(parents) <= len(children)


@given(markdown(), st.integers(8, 200), st.integers(1, 8))
def test_generated(text, size, ratio) -> None:
    options = {"chunk_size": size, "parent_size": size * ratio, "separators": "cjk"}
    parents, children = hierarchy(text, **options)
    check(text, parents, children, options)


@given(markdown(), st.integers(3, 30))
def test_generated_token_lengths(text, size) -> None:
    def words(s: str) -> int:
        return len(s.split())

    options = {"chunk_size": size, "parent_size": size * 3, "length_function": words}
    parents, children = hierarchy(text, **options)
    check(text, parents, children, options, length=words)


def test_sections_close_parents() -> None:
    section = "# {0}\n\n" + "word " * 30 + "\n\n"
    text = "".join(section.format(t) for t in "ABCD")
    parents, _ = hierarchy(text, chunk_size=100, min_size=0, parent_size=1000)
    # each section (about 160 chars) is over a quarter of 1000 only with its neighbour
    assert len(parents) == 2
    assert [p.metadata["heading_path"] for p in parents] == [("A",), ("C",)]


def test_no_parents_without_parent_size() -> None:
    chunker = ferrochunk.MarkdownChunker(chunk_size=50)
    assert all("parent_id" not in c.metadata for c in chunker.split("# A\n\ntext\n"))
    with pytest.raises(ValueError, match="parent_size"):
        chunker.split_hierarchy("# A\n\ntext\n")
    with pytest.raises(ValueError, match="parent_size"):
        ferrochunk.MarkdownChunker(chunk_size=50, parent_size=49)
    with pytest.raises(TypeError, match="parent_size"):
        ferrochunk.MarkdownChunker(chunk_size=50, parent_size="99")  # type: ignore[arg-type]
