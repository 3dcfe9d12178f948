# ruff: noqa: RUF001 - CJK punctuation in generated text is the point
"""TextChunker (rust/structure/ + the Markdown packer): Rust == pure-Python reference on
generated reStructuredText / AsciiDoc / plain text and on real text read in each format;
hand-written documents (tests/data/structure/) whose titles, code blocks, tables, notes and
labels were written down by hand, checked at every size; the API (formats, suffixes, ids)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import corpus
import ferrochunk
from ferrochunk import reference as ref
from ferrochunk.frontend.structure import FORMATS, format_for_path

DATA = Path(__file__).parent / "data" / "structure"
SIZES = (40, 60, 90, 130, 200, 300, 500, 2000)


def rows(chunks) -> list[tuple]:
    return [(c.text, c.start, c.end, c.byte_start, c.byte_end, dict(c.metadata)) for c in chunks]


def both(text: str, **options) -> list:
    """Native chunks, after checking they equal the reference's."""
    native = ferrochunk.TextChunker(**options).split(text)
    assert rows(native) == rows(ref.TextChunker(**options).split(text))
    return native


def check_spans(text: str, chunks, size: int) -> None:
    """Exact spans in order, byte offsets agree, sizes fit, only whitespace left out."""
    data = text.encode("utf-8")
    kept = []
    last = 0
    for c in chunks:
        assert text[c.start : c.end] == c.text and c.text
        assert data[c.byte_start : c.byte_end] == c.text.encode("utf-8")
        assert c.start >= last and len(c.text) <= size
        kept.append(c.text)
        last = c.start
    assert "".join("".join(kept).split()) == "".join(text.split()) or any(
        c.metadata["continuation"] for c in chunks
    )


# -- generated documents -----------------------------------------------------------------

LINES = {
    "rst": [
        "Title", "=====", "-----", "~~~~~~~~", "Example::", "    code line", "   indented text",
        ".. note::", ".. code-block:: python", ".. _target:", ".. image:: a.png",
        "   :alt: x", "+---+---+", "| a | b |", "+===+===+", "=== ===", "a   b",
        "- item one", "#. auto", "(2) two", ":field: value", "term", ">>> 1 + 1", "| line",
        "    >>> f(", "    ...     1)", "    ...",
        "One sentence. Two sentences!", "第一句话。第二句话！", "emoji 🎉 café", "..",
    ],
    "asciidoc": [
        "= Title", "== Section", "Title", "-----", "----", "....", "|===", "|a |b", "====",
        "****", "--", "```", "[source,python]", ".Block title", ":attr: value", "// comment",
        "* item", "** nested", ". step", "term:: definition", "term::", "+", "  literal",
        "'''", "One sentence. Two sentences!", "第一句话。第二句话！", "emoji 🎉 café",
        "ifdef::a[]", "endif::a[]", "ifeval::[1 > 0]", "ifdef::a[inline]",
    ],
    "plain": [
        "Title", "=====", "-----", "- item", "1. first", "+---+", "| a |", "  indented",
        "One sentence. Two sentences!", "第一句话。第二句话！", "emoji 🎉 café", "MARCIUS:",
    ],
}  # fmt: skip


def documents(fmt: str) -> st.SearchStrategy[str]:
    line = st.one_of(st.sampled_from([*LINES[fmt], "", ""]), st.text(max_size=12))
    newline = st.sampled_from(["\n", "\r\n"])
    return st.tuples(st.lists(line, max_size=40), newline).map(lambda p: p[1].join(p[0]))


@pytest.mark.parametrize("fmt", ["rst", "asciidoc", "plain"])
@given(data=st.data())
def test_generated_documents_native_equals_reference(fmt: str, data) -> None:
    text = data.draw(documents(fmt))
    size = data.draw(st.sampled_from([8, 30, 80, 400]))
    min_size = data.draw(st.sampled_from([0, size // 4]))
    overlap = data.draw(st.sampled_from([0, size // 5]))
    chunks = both(text, chunk_size=size, min_size=min_size, format=fmt, chunk_overlap=overlap)
    if not overlap:
        check_spans(text, chunks, size)


@pytest.mark.parametrize("fmt", ["rst", "asciidoc", "plain"])
def test_real_text_in_every_format_native_equals_reference(fmt: str) -> None:
    """Corpus files (Markdown and prose) read as another format: real lines, odd markup."""
    corpus.require()
    paths = corpus.files()[::12]
    for path in paths:
        text = path.read_text(encoding="utf-8")[:30000]
        for size in (200, 1000):
            check_spans(text, both(text, chunk_size=size, format=fmt), size)


def test_token_sizes_and_parents_agree() -> None:
    text = (DATA / "guide.rst").read_text(encoding="utf-8")
    tokens = ferrochunk.get_encoding("cl100k_base").length_function()
    for fmt in ("rst", "asciidoc", "plain"):
        opts = {"chunk_size": 30, "format": fmt, "length_function": tokens, "parent_size": 90}
        native = ferrochunk.TextChunker(**opts).split_hierarchy(text)
        reference = ref.TextChunker(**opts).split_hierarchy(text)
        assert [rows(x) for x in native] == [rows(x) for x in reference]
        assert all(tokens(c.text) <= 30 for c in native[1])


# -- hand-written documents ----------------------------------------------------------------

# What each sample holds, written down by reading it: the blocks that must stay whole, the
# title lines (never the end of a chunk), the labels glued forward, and section paths.
RST_WHOLE = [
    ".. code-block:: python\n\n   import guide\n   guide.install(force=True)",
    ".. note::\n\n   The installer needs a network connection.\n\n"
    "   Proxies are read from the environment.",
    "[main]\n    level = 2",
    "+--------+-------+\n| option | value |\n+========+=======+\n| level  | 2     |\n"
    "+--------+-------+",
    "=====  =====\nname   kind\n=====  =====\nlevel  int\n=====  =====",
    "term one\n   The first definition.",
]
ADOC_WHOLE = [
    "[source,python]\n----\nimport guide\nguide.install(force=True)\n----",
    "[NOTE]\n====\nThe installer needs a network connection.\n\n"
    "Proxies are read from the environment.\n====",
    ".Options\n|===\n|option |value\n\n|level |2\n|===",
]
SAMPLES = {
    "rst": (
        RST_WHOLE,
        ["User guide\n==========", "Install\n=======", "Configure\n---------", "Usage\n====="],
        [".. _top:"],
        {
            "Install\n=": ("User guide", "Install"),
            "Configure\n-": ("User guide", "Install", "Configure"),
            "Usage\n=": ("User guide", "Usage"),
        },
    ),
    "asciidoc": (
        ADOC_WHOLE,
        ["= User guide", "== Install", "=== Configure", "== Usage"],
        [":toc:", "[source,python]", "[NOTE]", ".Options", "+"],
        {
            "== Install": ("User guide", "Install"),
            "=== Configure": ("User guide", "Install", "Configure"),
            "== Usage": ("User guide", "Usage"),
        },
    ),
}


@pytest.mark.parametrize("fmt", ["rst", "asciidoc"])
@pytest.mark.parametrize("size", SIZES)
def test_hand_written_structure_kept(fmt: str, size: int) -> None:
    text = (DATA / f"guide.{'rst' if fmt == 'rst' else 'adoc'}").read_text(encoding="utf-8")
    whole, titles, labels, paths = SAMPLES[fmt]
    chunks = both(text, chunk_size=size, min_size=0, format=fmt)
    check_spans(text, chunks, size)
    spans = [(c.start, c.end) for c in chunks]
    for block in whole:
        a = text.index(block)
        if len(block) <= size:
            assert any(s <= a and a + len(block) <= e for s, e in spans), (size, block)
    for line in titles + labels if size >= 130 else ():  # below: a run of titles alone
        a = text.index(line + "\n")
        end = a + len(line)
        assert all(e != end for _, e in spans), (size, line)  # glued to what follows
    for title, path in paths.items():  # a chunk starting with a title is under it
        at = text.index(title)
        first = next(c for c in chunks if c.start <= at < c.end)
        if first.start == at:
            assert first.metadata["heading_path"] == path, (size, title)


def test_plain_text_items_and_titles() -> None:
    text = "Notes\n=====\n\nIntro line one.\nIntro line two.\n- first\n- second\n\nEnd.\n"
    chunks = both(text, chunk_size=30, min_size=0, format="plain")
    assert [c.text for c in chunks] == [  # items are seams even without a blank line
        "Notes\n=====\n\nIntro line one.",
        "Intro line two.\n- first",
        "- second\n\nEnd.",
    ]
    assert {c.metadata["heading_path"] for c in chunks} == {("Notes",)}


def test_doctest_cut_before_prompts_not_continuations() -> None:
    # A literal block of two statements, 21 and 40 characters (with indentation), that does
    # not fit 42: cut before the second ">>>". Lines alone, the most even cut would be
    # after "    >>> g(" (32 + 29), before a "..." continuation.
    code = "    >>> f(\n    ...     1)\n    >>> g(\n    ...     2,\n    ...     3)\n"
    chunks = both("Run::\n\n" + code, chunk_size=42, min_size=0, format="rst")
    assert [c.text for c in chunks] == [
        "Run::\n\n    >>> f(\n    ...     1)",
        "    >>> g(\n    ...     2,\n    ...     3)",
    ]


def test_literal_block_after_a_directive_head() -> None:
    # ".. note:: ... Python::" opens a literal block (two classes, blank lines between):
    # 75 characters, kept whole at 80 though the note (103) is cut.
    code = "class A:\n            x = 1\n\n\n        class B:\n            y = 2"
    text = ".. note:: As in\n   Python::\n\n        " + code + "\n\n   After.\n"
    chunks = both(text, chunk_size=80, min_size=0, format="rst")
    assert any(code in c.text for c in chunks)


def test_asciidoc_conditional_over_a_title() -> None:
    # The title under "ifndef::y[]" is a title and the conditional opens its section's
    # chunk; inside a paragraph a conditional is part of it.
    text = "Intro\nifdef::x[]\ntext.\nendif::x[]\n\nifndef::y[]\nLater Part\n~~~~~~~~~~\n\nBody.\n"
    chunks = both(text, chunk_size=50, min_size=0, format="asciidoc")
    assert [c.text for c in chunks] == [
        "Intro\nifdef::x[]\ntext.\nendif::x[]",
        "ifndef::y[]\nLater Part\n~~~~~~~~~~\n\nBody.",
    ]
    assert chunks[1].metadata["heading_path"] == ("Later Part",)


# -- the API ------------------------------------------------------------------------------


def test_formats_suffixes_and_ids() -> None:
    assert FORMATS == ("markdown", "rst", "asciidoc", "plain")
    assert format_for_path("a/B.RST") == "rst"
    assert format_for_path(Path("x.asciidoc")) == "asciidoc"
    assert format_for_path("notes.txt") == "plain"
    assert format_for_path("x.py", "plain") == "plain"
    text = "Title\n=====\n\nSome text here.\n"
    md = ferrochunk.MarkdownChunker(chunk_size=50).split(text)
    same = ferrochunk.TextChunker(chunk_size=50, format="markdown").split(text)
    assert rows(md) == rows(same)
    ids = {
        fmt: ferrochunk.TextChunker(chunk_size=50, format=fmt).split(text)[0].metadata["chunk_id"]
        for fmt in FORMATS
    }
    assert len(set(ids.values())) == len(FORMATS)


@pytest.mark.parametrize("bad", ["md", "RST", "", None, 3])
def test_unknown_format_is_a_clear_error(bad) -> None:
    for cls in (ferrochunk.TextChunker, ref.TextChunker):
        with pytest.raises(ValueError, match="format must be one of"):
            cls(chunk_size=100, format=bad)


def test_cli_text_chunker_reads_each_file_by_suffix(tmp_path, capsys) -> None:
    """``ferrochunk chunk --chunker text``: every file as its suffix says, the same chunks
    and ids as ``TextChunker(format=...)`` with the file's document id."""
    import json

    from ferrochunk.cli import main

    names = {"guide.rst": "rst", "guide.adoc": "asciidoc", "notes.txt": "plain", "a.md": "markdown"}
    for name in names:
        source = DATA / name if (DATA / name).exists() else None
        text = source.read_text("utf-8") if source else "Notes\n=====\n\nOne. Two.\n\n- item\n"
        (tmp_path / name).write_text(text, "utf-8")
    assert main(["chunk", "--chunker", "text", "--chunk-size", "120", "-q", str(tmp_path)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for name, fmt in names.items():
        mine = [r for r in rows if r["source"].endswith(name)]
        text = (tmp_path / name).read_text("utf-8")
        want = ferrochunk.TextChunker(120, format=fmt).split(
            text, document_id=mine[0]["document_id"]
        )
        assert [(r["start"], r["end"], r["chunk_id"], tuple(r["heading_path"])) for r in mine] == [
            (c.start, c.end, c.metadata["chunk_id"], c.metadata["heading_path"]) for c in want
        ]
