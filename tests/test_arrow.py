"""``ferrochunk.arrow.chunk_arrow``: every Arrow input kind, the Rust path against the Python
path (the reference classes chunking row by row) and against ``split`` per row, threads,
nulls, kept columns, the pinned schema and the errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import corpus
import ferrochunk
from ferrochunk import reference
from ferrochunk.arrow import ArrowStats, chunk_arrow
from ferrochunk.reference.tokens import tiktoken_length
from support import texts as generated_texts

pa = pytest.importorskip("pyarrow")
pc = pytest.importorskip("pyarrow.compute")

MD = "# Title\n\nIntro text. More.\n\n## Part\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n"
DOCS = [
    MD,
    None,
    "Ünïcödé façade 😀🦀 e\u0301\r\n中文文本的分词测试\u3002 " * 8,
    "",
    "   \n ",
    "plain words " * 30,
]
COUNTER = ferrochunk.get_encoding("cl100k_base").length_function()


def chunkers(m):
    """Chunkers of one stack (``ferrochunk`` or the reference), same arguments."""
    length = (
        COUNTER if m is ferrochunk else tiktoken_length(ferrochunk.tiktoken_encoding("cl100k_base"))
    )
    return {
        "splitter": m.Splitter(40, chunk_overlap=8),
        "splitter-tokens": m.Splitter(12, chunk_overlap=3, length_function=length),
        "markdown": m.MarkdownChunker(50, min_size=10),
        "markdown-tokens": m.MarkdownChunker(16, min_size=4, length_function=length),
        "markdown-parents": m.MarkdownChunker(40, min_size=5, parent_size=120, chunk_overlap=8),
    }


NAMES = sorted(chunkers(ferrochunk))


def table(docs=DOCS, **extra):
    return pa.table({"id": list(range(len(docs))), "text": docs, **extra})


def expected_rows(chunker, docs):
    """What ``split`` gives, row by row: the oracle of every test here."""
    out = []
    for row, text in enumerate(docs):
        if text is None:
            continue
        if isinstance(chunker, (ferrochunk.MarkdownChunker, reference.MarkdownChunker)):
            chunks = chunker.split(text, None, document_id=f"doc{row}")
        else:
            chunks = chunker.split(text)
        out += [(row, c.index, c.start, c.end, c.byte_start, c.byte_end, c.text) for c in chunks]
    return out


def rows_of(out):
    cols = ["row", "chunk_index", "start", "end", "byte_start", "byte_end", "text"]
    return list(zip(*(out.column(c).to_pylist() for c in cols)))


@pytest.mark.parametrize("name", NAMES)
def test_native_equals_reference_and_split(name: str) -> None:
    ids = [f"doc{i}" for i in range(len(DOCS))]
    assert ferrochunk.arrow._native_route(chunkers(ferrochunk)[name]) is not None  # Rust path
    assert ferrochunk.arrow._native_route(chunkers(reference)[name]) is None
    native = chunk_arrow(table(doc=ids), chunker=chunkers(ferrochunk)[name], id_column="doc")
    ref = chunk_arrow(table(doc=ids), chunker=chunkers(reference)[name], id_column="doc")
    assert native.schema == ref.schema
    assert native.to_pylist() == ref.to_pylist()  # ids too: both name the encoding
    assert rows_of(native) == expected_rows(chunkers(ferrochunk)[name], DOCS)
    if "tokens" in name:
        counts = [COUNTER(t) for t in native.column("text").to_pylist()]
        assert native.column("token_count").to_pylist() == counts
    else:
        assert native.column("token_count").null_count == native.num_rows


@pytest.mark.parametrize("name", [n for n in NAMES if n != "markdown-parents"])
@pytest.mark.parametrize("id_column", ["doc", None])
def test_without_chunk_ids_only_the_id_column_goes(name: str, id_column) -> None:
    data = table(doc=[f"doc{i}" for i in range(len(DOCS))])
    for m in (ferrochunk, reference):
        chunker = chunkers(m)[name]
        full = chunk_arrow(data, chunker=chunker, id_column=id_column)
        bare = chunk_arrow(data, chunker=chunker, id_column=id_column, chunk_ids=False)
        assert "chunk_id" not in bare.schema.names
        assert bare.to_pylist() == full.drop_columns(["chunk_id"]).to_pylist()
        assert bare.schema == full.drop_columns(["chunk_id"]).schema.remove_metadata()
    with pytest.raises(ValueError, match="parent_id is a chunk id"):
        chunk_arrow(data, chunker=chunkers(ferrochunk)["markdown-parents"], chunk_ids=False)


def test_markdown_metadata_and_ids_match_split() -> None:
    chunker = ferrochunk.MarkdownChunker(40, min_size=5, parent_size=120)
    out = chunk_arrow(table(doc=[f"d{i}" for i in range(6)]), chunker=chunker, id_column="doc")
    got = out.to_pylist()
    want = chunker.split(MD, None, document_id="d0")
    assert [r for r in got if r["row"] == 0] and len([r for r in got if r["row"] == 0]) == len(want)
    for r, c in zip(got, want):
        m = c.metadata
        assert (r["chunk_id"], r["document_id"], tuple(r["heading_path"])) == (
            m["chunk_id"],
            m["document_id"],
            m["heading_path"],
        )
        covered = tuple(tuple(p) for p in r["heading_paths"])
        assert (covered, tuple(r["main_heading_path"])) == (
            m["heading_paths"],
            m["main_heading_path"],
        )
        assert (r["continuation"], r["table_header"], r["parent_id"]) == (
            m["continuation"],
            m["table_header"],
            m["parent_id"],
        )


def test_a_chunk_across_headings_lists_every_path() -> None:
    doc = "# A\n\nshort.\n\n## B\n\ntiny.\n\n# C\n\n" + "words and more words. " * 6
    chunker = ferrochunk.MarkdownChunker(120, min_size=60)
    out = chunk_arrow(pa.table({"text": [doc]}), chunker=chunker).to_pylist()
    want = chunker.split(doc, None)
    assert len(out) == len(want)
    for r, c in zip(out, want):
        assert tuple(tuple(p) for p in r["heading_paths"]) == c.metadata["heading_paths"]
        assert tuple(r["main_heading_path"]) == c.metadata["main_heading_path"]
    assert max(len(r["heading_paths"]) for r in out) > 1, "no chunk spans two sections"


@given(st.lists(st.one_of(st.none(), generated_texts), max_size=12), st.sampled_from(NAMES))
def test_generated_batches_match_the_reference(docs, name) -> None:
    data = pa.table({"text": pa.array(docs, pa.string())})
    native = chunk_arrow(data, chunker=chunkers(ferrochunk)[name], threads=2)
    ref = chunk_arrow(data, chunker=chunkers(reference)[name])
    assert native.to_pylist() == ref.to_pylist()
    assert ArrowStats.of(native) == ArrowStats.of(ref)


def test_corpus_sample_matches_split() -> None:
    docs = [p.read_text(encoding="utf-8") for p in corpus.paths()[::40][:12]]
    for name in ("splitter", "markdown-tokens"):
        chunker = chunkers(ferrochunk)[name]
        out = chunk_arrow(pa.table({"text": docs}), chunker=chunker, threads=2)
        split = [
            (row, c.index, c.start, c.end, c.byte_start, c.byte_end, c.text)
            for row, d in enumerate(docs)
            for c in (
                chunker.split(d, None, document_id=None)
                if name.startswith("markdown")
                else chunker.split(d)
            )
        ]
        assert rows_of(out) == split


def _inputs():
    """The same documents in every form the PyCapsule interface brings in."""
    t = table()
    yield "table", t
    yield "record-batch", t.to_batches()[0]
    yield "reader", pa.RecordBatchReader.from_batches(t.schema, t.to_batches(max_chunksize=2))
    yield "many-batches", pa.Table.from_batches(t.to_batches(max_chunksize=1))
    yield "large-string", t.set_column(1, "text", pc.cast(t["text"], pa.large_string()))
    yield "string-view", t.set_column(1, "text", pc.cast(t["text"], pa.string_view()))
    yield "sliced", pa.concat_tables([table(DOCS[:1]), t]).slice(1)
    try:
        import polars as pl

        yield "polars", pl.from_arrow(t)
    except ImportError:
        pass
    try:
        import duckdb

        con = duckdb.connect()
        con.register("docs", t)
        yield "duckdb", con.sql("select * from docs order by id")
    except ImportError:
        pass


@pytest.mark.parametrize("threads", [1, 2])
def test_every_input_kind_gives_the_same_chunks(threads: int) -> None:
    chunker = ferrochunk.Splitter(30, chunk_overlap=5)
    want = chunk_arrow(table(), chunker=chunker, keep_columns=["id"], threads=1)
    kinds = []
    for kind, data in _inputs():
        out = chunk_arrow(data, chunker=chunker, keep_columns=["id"], threads=threads)
        got = out.to_pylist()
        if kind == "polars":  # polars has no int64 row count difference, only types
            assert [r["text"] for r in got] == [r["text"] for r in want.to_pylist()], kind
            continue
        assert got == want.to_pylist(), kind
        assert ArrowStats.of(out).null_texts == 1, kind
        kinds.append(kind)
    assert {"string-view", "duckdb"} <= set(kinds)


def test_chunked_array_of_texts_is_the_text_column() -> None:
    texts = pa.chunked_array([DOCS[:3], DOCS[3:]])
    out = chunk_arrow(texts, chunker=ferrochunk.Splitter(30, chunk_overlap=5))
    want = chunk_arrow(table(), chunker=ferrochunk.Splitter(30, chunk_overlap=5))
    assert out.to_pylist() == want.drop_columns([]).to_pylist()


def test_nulls_are_counted_and_kept_columns_repeat() -> None:
    data = table(lang=["en", "xx", "zh", "", None, "en"])
    out = chunk_arrow(
        data, chunker=ferrochunk.Splitter(40, chunk_overlap=0), keep_columns=["lang", "id"]
    )
    stats = ArrowStats.of(out)
    assert (stats.rows, stats.null_texts, stats.chunks) == (6, 1, out.num_rows)
    assert out.schema.field("lang").type == pa.string()
    for r in out.to_pylist():
        assert r["lang"] == data["lang"][r["row"]].as_py()
        assert r["id"] == r["row"]
    assert set(out.column("row").to_pylist()) == {0, 2, 5}  # null, empty, blank: no chunks


def test_schema_is_pinned() -> None:
    """The documented schema (docs/engines.md); change it only with SCHEMA_VERSION."""
    base = [
        ("row", pa.int64()),
        ("chunk_index", pa.int64()),
        ("start", pa.int64()),
        ("end", pa.int64()),
        ("byte_start", pa.int64()),
        ("byte_end", pa.int64()),
        ("text", pa.large_string()),
        ("token_count", pa.int64()),
        ("chunk_id", pa.string()),
        ("document_id", pa.string()),
    ]
    md = [
        ("heading_path", pa.list_(pa.string())),
        ("heading_paths", pa.list_(pa.list_(pa.string()))),
        ("main_heading_path", pa.list_(pa.string())),
        ("continuation", pa.bool_()),
        ("table_header", pa.string()),
    ]
    out = chunk_arrow(
        table(), chunker=ferrochunk.Splitter(30, chunk_overlap=5), keep_columns=["id"]
    )
    assert [(f.name, f.type) for f in out.schema] == [*base, ("id", pa.int64())]
    out = chunk_arrow(table(), chunker=ferrochunk.MarkdownChunker(40, min_size=5, parent_size=80))
    assert [(f.name, f.type) for f in out.schema] == [*base, *md, ("parent_id", pa.string())]
    assert out.schema.metadata[b"ferrochunk.schema"] == b"2"


def test_bad_input_gets_clear_errors() -> None:
    chunker = ferrochunk.Splitter(30, chunk_overlap=5)
    with pytest.raises(ValueError, match=r'no column "body".*"id", "text"'):
        chunk_arrow(table(), chunker=chunker, text_column="body")
    with pytest.raises(ValueError, match='no column "body"'):
        chunk_arrow(table(), chunker=reference.Splitter(30, chunk_overlap=5), text_column="body")
    for c in (chunker, reference.Splitter(30, chunk_overlap=5)):
        with pytest.raises(TypeError, match='"id" must be string'):
            chunk_arrow(table(), chunker=c, text_column="id")
    with pytest.raises(ValueError, match="already uses"):
        chunk_arrow(table(start=[1] * 6), chunker=chunker, keep_columns=["start"])
    for c in (chunker, reference.Splitter(30, chunk_overlap=5)):  # a kept column that is not there
        with pytest.raises(ValueError, match=r'no column "zz".*"id", "text"'):
            chunk_arrow(table(), chunker=c, keep_columns=["zz"])
    with pytest.raises(TypeError, match="Arrow data"):
        chunk_arrow(["a", "b"], chunker=chunker)
    with pytest.raises(TypeError, match="chunker must be"):
        chunk_arrow(table(), chunker=ferrochunk.RecursiveCharacterTextSplitter())
    with pytest.raises(ValueError, match="threads"):
        chunk_arrow(table(), chunker=chunker, threads=0)


def test_struct_rows_that_are_null_and_kept_columns_given_once() -> None:
    """A struct array (a table's rows) with a null row has no columns to read: a clear
    ``ValueError``, not a Rust panic; and ``keep_columns`` as a one-shot iterator keeps its
    columns (a type check once read it empty)."""
    rows = pa.StructArray.from_arrays(
        [pa.array(["alpha beta", "gamma"])], names=["text"], mask=pa.array([False, True])
    )
    with pytest.raises(ValueError, match="null rows"):
        chunk_arrow(rows, chunker=ferrochunk.Splitter(20, chunk_overlap=0))
    data = pa.table({"text": ["alpha beta"], "lang": ["en"]})
    for c in (ferrochunk.Splitter(20, chunk_overlap=0), reference.Splitter(20, chunk_overlap=0)):
        out = chunk_arrow(data, chunker=c, keep_columns=iter(["lang"]))
        assert out.column("lang").to_pylist() == ["en"]


def test_dask_keep_columns_checked_as_chunk_arrow_checks_them() -> None:
    """``chunk_dataframe(keep_columns="id")`` kept the columns ``i`` and ``d`` (a str read as
    its characters); a missing column failed with a bare ``KeyError``."""
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from ferrochunk.dask import chunk_dataframe

    frame = pd.DataFrame({"text": ["alpha beta"], "i": [1], "d": [2], "id": ["a"]})
    ddf = dd.from_pandas(frame, npartitions=1)
    with pytest.raises(TypeError, match="sequence of column names"):
        chunk_dataframe(ddf, ferrochunk.Splitter(20, chunk_overlap=0), keep_columns="id")
    with pytest.raises(ValueError, match='no column "zz"'):
        chunk_dataframe(ddf, ferrochunk.Splitter(20, chunk_overlap=0), keep_columns=["zz"])


def test_a_failing_row_is_named() -> None:
    docs = ["fine", "bad <|endoftext|> token"]
    for c in (ferrochunk.Splitter(5, chunk_overlap=0, length_function=COUNTER),):
        with pytest.raises(ValueError, match="row 1: Encountered text corresponding"):
            chunk_arrow(pa.table({"text": docs}), chunker=c, threads=2)


def test_batches_chunked_in_several_groups_match_one_batch() -> None:
    """Past 64 MiB of text per thread the batches read so far are chunked as one group;
    rows, ids and kept columns must not depend on where the groups end (90 MB in batches
    of 40, 40 and 10 MB make two groups at one thread, one at two)."""
    doc = "Some text. " * 400 + "\n\nmore text, ünïcode 文字 😀\n\n" * 50
    per_mb = 1_000_000 // len(doc.encode()) + 1
    parts = [
        pa.table({"id": [f"{mb}-{i}" for i in range(mb * per_mb)], "text": [doc] * (mb * per_mb)})
        for mb in (40, 40, 10)
    ]
    many = pa.concat_tables(parts)
    assert many["text"].num_chunks == 3
    one = many.combine_chunks()
    chunker = ferrochunk.Splitter(1000, chunk_overlap=100)
    for threads in (1, 2):
        got = chunk_arrow(many, chunker=chunker, keep_columns=["id"], threads=threads)
        want = chunk_arrow(one, chunker=chunker, keep_columns=["id"], threads=threads)
        assert got.num_rows == want.num_rows > 0
        assert got.equals(want)
        assert got["row"][-1].as_py() == many.num_rows - 1
