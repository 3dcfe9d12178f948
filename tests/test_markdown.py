"""MarkdownChunker (mirrors ``rust/markdown/blocks.rs`` and ``rust/markdown/chunker.rs``):
Rust == pure-Python reference, and both checked against an independent CommonMark parser
(markdown-it-py, used only here): heading paths equal the parser's, no fenced code block or
table is cut unless it alone exceeds the size, every chunk is an exact span, no text lost."""

from __future__ import annotations

from bisect import bisect_right

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

import ferrochunk
from ferrochunk import reference as ref
from ferrochunk.markdown.chunker import NativeMarkdownEngine
from ferrochunk.reference.markdown.build import ReferenceMarkdownEngine
from support import recorded_calls

PARSER = MarkdownIt("commonmark").enable("table")


def rows(chunks) -> list[tuple]:
    return [
        (c.text, c.start, c.end, c.byte_start, c.byte_end, c.index, dict(c.metadata))
        for c in chunks
    ]


def both(text: str, **options) -> list:
    """Native chunks, after checking they equal the reference's."""
    native = ferrochunk.MarkdownChunker(**options).split(text)
    reference = ref.MarkdownChunker(**options).split(text)
    assert rows(native) == rows(reference)
    return native


def norm(s: str) -> str:
    return " ".join(s.split())


def line_starts(text: str) -> list[int]:
    starts = [0]
    for i, c in enumerate(text):
        if c == "\n":
            starts.append(i + 1)
    return starts


def check_spans(text: str, chunks, size: int, length=len) -> None:
    """Exact spans in order, byte offsets agree, sizes fit, nothing but whitespace lost."""
    data = text.encode("utf-8")
    covered = []
    last = 0
    for c in chunks:
        assert text[c.start : c.end] == c.text and c.text
        assert data[c.byte_start : c.byte_end] == c.text.encode("utf-8")
        assert c.start >= last
        assert length(c.text) <= size, (length(c.text), c.text[:80])
        covered.append(text[last : c.start])
        last = c.end
    covered.append(text[last:])
    assert "".join(covered).strip() == ""


def indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def check_coverage(text: str, chunks, headings: list[tuple[int, int, str]]) -> None:
    """``heading_paths``/``main_heading_path`` from the parser's headings: a section runs from
    a heading's first character to the next heading; a chunk lists the sections it
    overlaps, and the main one holds the most code points (the first on a tie)."""
    sections = [(0, ())]
    stack: list[tuple[int, str]] = []
    for at, level, title in headings:
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        sections.append((at, tuple(t for _, t in stack)))
    ends = [s for s, _ in sections[1:]] + [len(text)]
    for c in chunks:
        held = [
            (min(end, c.end) - max(start, c.start), path)
            for (start, path), end in zip(sections, ends)
            if min(end, c.end) > max(start, c.start)
        ]
        paths = tuple(tuple(norm(t) for t in p) for p in c.metadata["heading_paths"])
        assert paths == tuple(path for _, path in held), c.text[:60]
        most = max(n for n, _ in held)
        main = next(path for n, path in held if n == most)
        assert tuple(norm(t) for t in c.metadata["main_heading_path"]) == main


def check_against_parser(text: str, chunks, size: int) -> None:
    """Heading paths are markdown-it's; fences and tables that fit are inside one chunk, and
    so is every table row and fenced line that fits (a block too large is cut between them).

    Lines are matched by number: markdown-it reads CR LF as one line end, as it is counted
    here, but a lone CR as a line end of its own, which would shift its line numbers
    against the text's; such text cannot be judged this way."""
    src = text.replace("\r\n", "\n")
    assert "\r" not in src, "lone CR: markdown-it's line numbers would not be the text's"
    tokens = PARSER.parse(src)
    src_lines = src.split("\n")
    starts = line_starts(text)
    headings = []  # (line, level, title) of top-level headings
    regions = []
    rows = []  # table rows and fenced lines, whole lines as a cut block's pieces hold them
    for k, t in enumerate(tokens):
        if t.type == "heading_open" and t.level == 0:
            headings.append((t.map[0], int(t.tag[1]), norm(tokens[k + 1].content)))
        if t.type in ("fence", "table_open"):
            regions.append(t.map)
        if t.type in ("fence", "tr_open"):
            rows.extend(at for at in range(*t.map) if src_lines[at].strip())
    lines = text.split("\n")
    for c in chunks:
        line = bisect_right(starts, c.start) - 1
        stack: list[tuple[int, str]] = []
        for at, level, title in headings:
            if at > line:
                break
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, title))
        assert tuple(norm(p) for p in c.metadata["heading_path"]) == tuple(t for _, t in stack)
    check_coverage(
        text, chunks, [(starts[at] + indent(lines[at]), lv, t) for at, lv, t in headings]
    )
    for a, b in regions:
        b = max(a, b - 1)
        while b > a and not lines[b].strip():
            b -= 1
        start = starts[a] + len(lines[a]) - len(lines[a].lstrip(" \t"))
        end = starts[b] + len(lines[b].rstrip())
        if end - start <= size:
            assert any(c.start <= start and end <= c.end for c in chunks), text[start:end][:80]
    for at in rows:  # measured from the line start, as cut blocks' pieces are
        end = starts[at] + len(lines[at].rstrip())
        if end - starts[at] <= size:
            start = starts[at] + indent(lines[at])
            assert any(c.start <= start and end <= c.end for c in chunks), lines[at][:80]


@pytest.mark.parametrize(
    "options",
    [
        {"chunk_size": 500},
        {"chunk_size": 1000, "min_size": 0},
        {"chunk_size": 300, "separators": "cjk", "embedding_text": True},
        {"chunk_size": 120, "min_size": 60, "separators": "cjk"},
    ],
    ids=str,
)
def test_corpus(options, markdown_paths) -> None:
    size = options["chunk_size"]
    for path in markdown_paths:
        text = path.read_text(encoding="utf-8")
        chunks = both(text, **options)
        check_spans(text, chunks, size)
        check_against_parser(text, chunks, size)


# -- generated Markdown --------------------------------------------------------------------

words = st.sampled_from(
    ["alpha", "beta", "Rust", "chunk", "漢字", "中文。", "😀", "e\u0301", "x", "a,", "b;", "end."]
)
sentence = st.lists(words, min_size=1, max_size=12).map(" ".join)
title = st.one_of(st.just(""), sentence)
paragraph = st.lists(sentence, min_size=1, max_size=4).map("\n".join)
atx = st.tuples(st.integers(1, 6), title).map(lambda t: "#" * t[0] + (" " + t[1] if t[1] else ""))
setext = st.tuples(sentence, st.sampled_from(["===", "---", "-"])).map("\n".join)
fence_char = st.sampled_from(["```", "~~~", "````"])
code_line = st.one_of(sentence, st.just("# not a heading"), st.just(""), st.just("| a | b |"))


@st.composite
def fenced(draw) -> str:
    fence = draw(fence_char)
    info = draw(st.sampled_from(["", "rust", "python title=x"]))
    body = draw(st.lists(code_line, max_size=8))
    if fence == "````" and draw(st.booleans()):
        body = ["```", *body, "```"]  # a shorter fence nested in a longer one
    close = [] if draw(st.integers(0, 9)) == 0 else [fence]  # sometimes unclosed
    return "\n".join([fence + info, *body, *close])


@st.composite
def table(draw) -> str:
    n = draw(st.integers(1, 4))
    head = "| " + " | ".join(f"h{i}" for i in range(n)) + " |"
    delim = "|" + "|".join(["---"] * n) + "|"
    body = []
    for _ in range(draw(st.integers(0, 8))):
        cells = draw(st.lists(words, min_size=1, max_size=n + 1))  # ragged rows too
        body.append("| " + " | ".join(cells) + " |")
    return "\n".join([head, delim, *body])


@st.composite
def list_block(draw) -> str:
    items = []
    for k in range(draw(st.integers(1, 4))):
        marker = draw(st.sampled_from(["-", "*", f"{k + 1}."]))
        item = f"{marker} {draw(sentence)}"
        if draw(st.booleans()):
            pad = " " * (len(marker) + 1)
            code = draw(fenced()).replace("\n", "\n" + pad)
            item += "\n\n" + pad + code + "\n"
        items.append(item)
    return "\n".join(items)


block = st.one_of(
    atx, setext, paragraph, fenced(), table(), list_block(), sentence.map(lambda s: "> " + s)
)


@st.composite
def markdown(draw) -> str:
    blocks = draw(st.lists(block, max_size=14))
    gaps = draw(st.lists(st.sampled_from(["\n\n", "\n\n\n", "\n\n  \n"]), min_size=len(blocks)))
    text = "".join(b + g for b, g in zip(blocks, gaps))
    return text.replace("\n", "\r\n") if draw(st.integers(0, 5)) == 0 else text


@given(markdown(), st.integers(8, 400), st.integers(0, 100), st.sampled_from(["default", "cjk"]))
# The room beside a heading once cut a fence line that fits a chunk (``#`` + "```r", "ust").
@example("#\r\n\r\n```rust\r\nalpha\r\n\r\n", 9, 0, "default")
def test_generated(text, size, min_percent, preset) -> None:
    min_size = size * min_percent // 100
    chunks = both(text, chunk_size=size, min_size=min_size, separators=preset)
    check_spans(text, chunks, size)
    check_against_parser(text, chunks, size)


@given(markdown(), st.integers(3, 60))
def test_generated_token_lengths(text, size) -> None:
    def words_(s: str) -> int:
        return len(s.split())

    chunks = both(text, chunk_size=size, length_function=words_)
    check_spans(text, chunks, size, length=words_)


@given(st.text(st.sampled_from("#`~|-*> \t\r\n=ab漢😀.。1"), max_size=200), st.integers(1, 50))
def test_noise_never_raises_or_loses_text(text, size) -> None:
    check_spans(text, both(text, chunk_size=size), size)


# -- bad input, identity, metadata ---------------------------------------------------------

BAD = [
    "",
    "   \n\t\n",
    "```python\nprint(1)\n# still code\n",
    "| a | b |\n|---|---|\n| 1 |\n| 1 | 2 | 3 |\nno pipe row\n",
    "#\n\n##\n\ntext\n\n###   ###\n",
    "# T\r\n\r\ntext\r\n```\r\ncode\r\n```\r\n",
    "Setext\n===\n\n- item\n\n  ```\n  code\n",
]


@pytest.mark.parametrize("text", BAD)
@pytest.mark.parametrize("size", [1, 5, 40, 1000])
def test_bad_input_gives_sane_chunks(text, size) -> None:
    chunks = both(text, chunk_size=size)
    check_spans(text, chunks, size)
    check_against_parser(text, chunks, size)


def test_parser_check_refuses_lone_cr() -> None:
    """The judge above cannot read a lone CR (markdown-it counts it as a line end)."""
    with pytest.raises(AssertionError, match="lone CR"):
        check_against_parser("# A\rtext", [], 10)


@pytest.mark.parametrize(
    ("separators", "engine"),
    [([r"(?<=\.) ", ""], ReferenceMarkdownEngine), ([r"\. ", ""], NativeMarkdownEngine)],
)
def test_separator_route(separators, engine) -> None:
    """Separators outside the regex syntax both engines share run on the reference engine
    (Python's re); the others in Rust, never touching the reference."""
    text = "one. two. three."
    chunker = ferrochunk.MarkdownChunker(chunk_size=10, min_size=0, separators=separators)
    assert type(chunker._engine) is engine
    with recorded_calls(ReferenceMarkdownEngine) as calls:
        chunks = chunker.split(text)
    assert calls == ([text] if engine is ReferenceMarkdownEngine else [])
    # by hand: the sentences "one. ", "two. ", "three." packed into 10 characters, stripped
    assert [(c.text, c.start, c.end) for c in chunks] == [("one. two.", 0, 9), ("three.", 10, 16)]


@pytest.mark.parametrize("module", [ferrochunk, ref], ids=["native", "reference"])
def test_lone_surrogate_gives_chunks_or_a_clear_error(module) -> None:
    text = "# A\ud800\n\none. two\n"
    try:
        chunks = module.MarkdownChunker(chunk_size=100).split(text)
    except ValueError as err:
        if isinstance(err, UnicodeError):
            raise
        assert "lone surrogate" in str(err)
    else:
        assert [(c.text, c.start, c.end) for c in chunks] == [(text.strip(), 0, len(text) - 1)]


def test_document_shorter_than_min_is_one_chunk() -> None:
    text = "# A\n\none\n\n## B\n\ntwo\n\n```\ncode\n```\n"
    chunks = both(text, chunk_size=200, min_size=100)
    assert [c.text for c in chunks] == [text.strip()]


def test_ids_are_stable_and_linked(markdown_paths) -> None:
    text = markdown_paths[10].read_text(encoding="utf-8")
    first = ferrochunk.MarkdownChunker(chunk_size=400).split(text)
    again = ferrochunk.MarkdownChunker(chunk_size=400).split(text)
    assert [c.metadata["chunk_id"] for c in first] == [c.metadata["chunk_id"] for c in again]
    ids = [c.metadata["chunk_id"] for c in first]
    assert len(set(ids)) == len(ids)
    assert [c.metadata["prev_id"] for c in first] == [None, *ids[:-1]]
    assert [c.metadata["next_id"] for c in first] == [*ids[1:], None]
    other = ferrochunk.MarkdownChunker(chunk_size=401).split(text)
    assert not set(ids) & {c.metadata["chunk_id"] for c in other}
    named = ferrochunk.MarkdownChunker(chunk_size=400).split(text, document_id="doc-1")
    assert {c.metadata["document_id"] for c in named} == {"doc-1"}
    assert not set(ids) & {c.metadata["chunk_id"] for c in named}


def test_user_metadata_is_copied_and_read_only() -> None:
    meta = {"source": "a.md", "acl": ("staff",)}
    chunks = ferrochunk.MarkdownChunker(chunk_size=20, min_size=0).split(
        "# A\n\none two three\n\n# B\n\nfour five six\n", meta
    )
    meta["source"] = "changed"
    assert len(chunks) == 2
    assert all(c.metadata["source"] == "a.md" for c in chunks)
    with pytest.raises(TypeError):
        chunks[0].metadata["source"] = "x"  # type: ignore[index]
    with pytest.raises(ValueError, match="chunk_id"):
        ferrochunk.MarkdownChunker().split("x", {"chunk_id": 1})


def test_table_row_that_fits_is_never_cut() -> None:
    """A row longer than the room left beside the repeated header, but within the size, is
    a piece alone: the header's room is no reason to cut through a row."""
    rows_ = ["| size | the maximum chunk size, in characters or tokens |"]
    rows_ += ["| overlap | how much of the previous chunk is repeated here |"]
    text = "| Option | Meaning |\n|--------|---------|\n" + "\n".join(rows_) + "\n"
    for embedding_text in (False, True):
        chunks = both(text, chunk_size=100, min_size=0, embedding_text=embedding_text)
        check_spans(text, chunks, 100)
        for row in rows_:
            assert any(row in c.text for c in chunks), row


def test_embedding_text_prefixes_path_and_table_header() -> None:
    rows_ = "".join(f"| {i} | value {i} |\n" for i in range(30))
    text = f"# Data\n\n## Numbers\n\n| n | v |\n|---|---|\n{rows_}"
    chunks = both(text, chunk_size=120, embedding_text=True)
    later = [c for c in chunks if c.metadata["continuation"]]
    assert later and all(c.metadata["table_header"] == "| n | v |\n|---|---|" for c in later)
    for c in later:
        assert c.metadata["embedding_text"] == ("Data > Numbers\n\n| n | v |\n|---|---|\n" + c.text)
        assert len(c.text) + len(c.metadata["table_header"]) + 1 <= 120


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"chunk_size": 0}, ValueError),
        ({"chunk_size": 10, "min_size": 11}, ValueError),
        ({"chunk_size": "10"}, TypeError),
        ({"separators": "klingon"}, ValueError),
        ({"length_function": 3}, TypeError),
    ],
)
def test_bad_arguments(kwargs, error) -> None:
    with pytest.raises(error):
        ferrochunk.MarkdownChunker(**kwargs)


@pytest.mark.parametrize(
    "options",
    [
        {"chunk_size": 2**64},
        {"chunk_size": 2**70, "min_size": 2**65, "chunk_overlap": 2**69},
        {"chunk_size": 10, "parent_size": 2**64},
    ],
    ids=str,
)
def test_sizes_past_the_native_range_mean_what_they_say(options) -> None:
    """Python ints have no maximum: the native class agrees with the reference."""
    text = "# A\n\none. two. three.\n\n## B\n\nfour five six.\n"
    native = ferrochunk.MarkdownChunker(**options)
    reference = ref.MarkdownChunker(**options)
    assert rows(native.split(text)) == rows(reference.split(text))
    if "parent_size" in options:
        assert rows(native.split_hierarchy(text)[1]) == rows(reference.split_hierarchy(text)[1])


def test_document_id_with_a_lone_surrogate_is_taken_as_in_the_reference() -> None:
    text, doc = "# A\n\none. two.\n", "id-\ud800"
    native = ferrochunk.MarkdownChunker(chunk_size=10, min_size=0).split(text, None, doc)
    reference = ref.MarkdownChunker(chunk_size=10, min_size=0).split(text, None, doc)
    assert rows(native) == rows(reference)
    assert {c.metadata["document_id"] for c in native} == {doc}


def test_batch_document_id_with_a_lone_surrogate_is_taken_as_in_the_reference() -> None:
    texts, ids = ["# A\n\none. two.\n", "three. four."], ["id-\ud800", "b"]
    native = ferrochunk.MarkdownChunker(chunk_size=10, min_size=0).split_batch(texts, None, ids)
    reference = ref.MarkdownChunker(chunk_size=10, min_size=0).split_batch(texts, None, ids)
    assert [rows(c) for c in native] == [rows(c) for c in reference]
