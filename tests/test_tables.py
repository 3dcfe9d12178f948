"""Tables as data (``ferrochunk.tables``): CSV/TSV written by Python's csv module (quotes,
delimiters and newlines inside fields) comes back row for row from the chunks' exact
spans; every chunk repeats the header; sizes fit; Markdown tables by hand."""

from __future__ import annotations

import csv
import doctest
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ferrochunk import tables
from ferrochunk.tables import chunk_table

cell = st.text(st.sampled_from('ab ,;\t"\n\r|=漢😀'), max_size=8)


def write(rows: list[list[str]], delimiter: str, terminator: str) -> str:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator=terminator).writerows(rows)
    return out.getvalue()


def test_doc_examples() -> None:
    assert doctest.testmod(tables).failed == 0


@given(
    st.lists(st.lists(cell, min_size=1, max_size=4), min_size=2, max_size=12),
    st.sampled_from([("csv", ","), ("tsv", "\t")]),
    st.sampled_from(["\r\n", "\n"]),
    st.sampled_from(["markdown", "pairs"]),
    st.integers(1, 300),
)
def test_csv_round_trip(rows, fmt, terminator, style, size) -> None:
    if terminator == "\n":  # the writer quotes only the terminator's characters: no bare \r
        rows = [[c.replace("\r", "") for c in r] for r in rows]
    rows = [r for r in rows if r != [""]]  # csv writes [""] as a blank line, read as no row
    if len(rows) < 2:
        return
    text = write(rows, fmt[1], terminator)
    chunks = chunk_table(text, format=fmt[0], style=style, chunk_size=size, title="T")
    got = []
    for k, c in enumerate(chunks):
        assert text[c.start : c.end] == c.text
        assert text.encode()[c.byte_start : c.byte_end] == c.text.encode()
        part = list(csv.reader(io.StringIO(c.text, newline=""), delimiter=fmt[1]))
        assert c.metadata["row_end"] - c.metadata["row_start"] == len(part)
        assert c.metadata["row_start"] == len(got)
        got.extend(part)
        assert c.metadata["columns"] == tuple(rows[0])
        assert c.metadata["table_title"] == "T" and c.metadata["continuation"] == (k > 0)
        emb = c.metadata["embedding_text"]
        assert emb.startswith("T\n")
        assert len(part) == 1 or len(emb) <= size
        if style == "pairs":
            assert emb.count("\n") >= len(part)
    assert got == rows[1:]


def test_markdown_table_by_hand() -> None:
    text = (
        "# Prices\n\n| item | price |\n|:--|--:|\n"
        "| tea | 3 |\n| cake \\| pie | 5 |\n| jam | 2 |\n\nafter\n"
    )
    chunks = chunk_table(text, chunk_size=50)
    head = "Prices\n| item | price |\n|---|---|\n"
    assert [c.metadata["embedding_text"] for c in chunks] == [
        head + "| tea | 3 |",
        head + "| cake \\| pie | 5 |",
        head + "| jam | 2 |",
    ]
    assert [c.text for c in chunks] == ["| tea | 3 |", "| cake \\| pie | 5 |", "| jam | 2 |"]
    one = chunk_table(text, style="pairs", chunk_size=1000, metadata={"src": "p.md"})
    assert len(one) == 1 and one[0].metadata["src"] == "p.md"
    assert one[0].metadata["embedding_text"] == (
        "Prices\nitem=tea; price=3\nitem=cake | pie; price=5\nitem=jam; price=2"
    )


def test_ragged_and_empty() -> None:
    text = "a,b\n1\n1,2,3\n"
    chunks = chunk_table(text, format="csv", style="pairs", chunk_size=1000)
    assert chunks[0].metadata["embedding_text"] == "a=1\na=1; b=2; column3=3"
    assert chunk_table("", format="csv") == []
    assert chunk_table("only,a,header\n", format="csv") == []


@pytest.mark.parametrize(
    "kwargs",
    [{"format": "xml"}, {"style": "json"}, {"chunk_size": 0}, {"chunk_size": True}],
)
def test_bad_arguments(kwargs) -> None:
    with pytest.raises(ValueError):
        chunk_table("a,b\n1,2\n", **kwargs)
    with pytest.raises(TypeError):
        chunk_table(b"a,b")  # type: ignore[arg-type]
