"""The native API (``split`` / ``Splitter`` / ``Chunk``): exact offsets, the drop-in's texts,
native == reference chunk for chunk, pickling and read-only shared metadata."""

from __future__ import annotations

import pickle

import langchain_text_splitters as lc
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ferrochunk
import ferrochunk.reference
from ferrochunk import _native
from ferrochunk.reference.split.recursive import Engine
from support import (
    LITERAL_SEPARATORS,
    RUST_REGEXES,
    check_offsets,
    outcome,
    recorded_calls,
    repeated_passages,
    sizes,
    texts,
)

# Valid in the native API (no capture group, cannot match empty) but outside the Rust
# subset: the native Splitter runs these on Python's re.
PYTHON_ONLY = [r"(?<=\.) ", r"\bthe\b", "(?i:a)", r"\n(?!End\s)", "(?m:^#)", "a++", "(?>a+)"]
# "(?s)." is refused: its global flag is not at the start once wrapped in a group.
NATIVE_REGEXES = [p for p in RUST_REGEXES if p and p != "(?s)."] + ["(?s:.)", *PYTHON_ONLY]

separator_options = st.one_of(
    st.just({}),
    st.lists(st.sampled_from(LITERAL_SEPARATORS), min_size=1, max_size=5).map(
        lambda seps: {"separators": seps}
    ),
    st.lists(st.sampled_from(NATIVE_REGEXES), min_size=1, max_size=4).map(
        lambda seps: {"separators": [*seps, ""], "is_separator_regex": True}
    ),
)


@st.composite
def options(draw: st.DrawFn) -> dict:
    size, overlap = draw(sizes())
    return {
        "chunk_size": size,
        "chunk_overlap": overlap,
        "keep_separator": draw(st.sampled_from(["start", "end", True])),
        "strip_whitespace": draw(st.booleans()),
        **draw(separator_options),
    }


def as_tuples(chunks: list) -> list[tuple]:
    return [
        (c.text, c.start, c.end, c.byte_start, c.byte_end, c.index, dict(c.metadata))
        for c in chunks
    ]


@given(texts, options())
def test_offsets_are_exact(impl, text: str, opts: dict) -> None:
    chunks = impl.split(text, **opts)
    check_offsets(text, chunks, strip=opts["strip_whitespace"])


@given(texts, options())
def test_texts_equal_drop_in_and_langchain(impl, text: str, opts: dict) -> None:
    got = [c.text for c in impl.split(text, **opts)]
    assert got == impl.RecursiveCharacterTextSplitter(**opts).split_text(text)
    assert got == lc.RecursiveCharacterTextSplitter(**opts).split_text(text)


@given(texts | repeated_passages(), options(), st.dictionaries(st.text(max_size=3), st.integers()))
def test_native_equals_reference(text: str, opts: dict, metadata: dict) -> None:
    def run(module):
        return outcome(
            lambda: as_tuples(module.split(text, metadata=metadata, **opts)), "ferrochunk"
        )

    assert run(ferrochunk) == run(ferrochunk.reference)


@given(repeated_passages(), st.integers(1, 30))
def test_repeated_passages_get_their_own_offsets(impl, text: str, size: int) -> None:
    """Offsets are tracked, not searched for, so each copy of a passage is located exactly
    (LangChain may return the same text twice: then both chunks have the same span)."""
    chunks = impl.split(text, size, chunk_overlap=size // 3)
    check_offsets(text, chunks)
    expected = lc.RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=size // 3)
    assert [c.text for c in chunks] == expected.split_text(text)


def test_splitter_reuse_and_repr(impl) -> None:
    opts = {"separators": ["\n", " "], "keep_separator": "end"}
    splitter = impl.Splitter(20, chunk_overlap=5, **opts)
    text = "alpha beta gamma\ndelta epsilon zeta eta theta iota\nkappa"
    first = as_tuples(splitter.split(text))
    assert as_tuples(splitter.split(text[::-1])) != first
    assert as_tuples(splitter.split(text)) == first  # nothing kept from the calls before
    oracle = lc.RecursiveCharacterTextSplitter(chunk_size=20, chunk_overlap=5, **opts)
    assert [row[0] for row in first] == oracle.split_text(text)
    assert "chunk_size=20" in repr(splitter)


def test_chunk_pickles(impl) -> None:
    chunks = impl.split(
        "héllo wörld 😀 again", 8, chunk_overlap=2, metadata={"source": "a.txt", "n": [1]}
    )
    back = pickle.loads(pickle.dumps(chunks))
    assert as_tuples(back) == as_tuples(chunks)
    assert all(type(c) is type(chunks[0]) for c in back)


def test_chunk_without_metadata_pickles(impl) -> None:
    chunk = impl.Chunk("ab", 1, 3, 1, 3, 0, {})
    back = pickle.loads(pickle.dumps(chunk))
    assert back == chunk
    assert (back.text, back.start, back.end, back.index) == ("ab", 1, 3, 0)


def test_splitter_pickles(impl) -> None:
    text = "one two three four five six seven eight nine ten"
    splitter = impl.Splitter(12, chunk_overlap=4, separators=[r"\s+", ""], is_separator_regex=True)
    back = pickle.loads(pickle.dumps(splitter))
    assert type(back) is type(splitter)
    assert as_tuples(back.split(text)) == as_tuples(splitter.split(text))


def test_metadata_is_read_only_shared_and_copied(impl) -> None:
    source = {"source": "doc.md", "page": 3}
    chunks = impl.split("a b c d e f g h", 3, chunk_overlap=0, metadata=source)
    assert len(chunks) > 1
    assert all(c.metadata is chunks[0].metadata for c in chunks), "metadata not shared"
    with pytest.raises(TypeError):
        chunks[0].metadata["page"] = 4  # type: ignore[index]
    source["page"] = 99
    assert chunks[0].metadata == {"source": "doc.md", "page": 3}, "metadata not copied"
    assert dict(impl.split("x", 3, chunk_overlap=0)[0].metadata) == {}


def test_chunk_is_frozen(impl) -> None:
    chunk = impl.split("hello world", 5, chunk_overlap=0)[0]
    with pytest.raises(AttributeError):
        chunk.start = 3  # type: ignore[misc]


# -- the route: inputs the Rust core cannot reproduce exactly run on the reference engine ----
# Each test checks which engine ran (a type check and a recording of the reference engine's
# calls) and judges the output by LangChain or by hand, never by the reference itself, which
# is the code that ran.

ROUTE_TEXT = "The cat sat. the theatre, bAnana!\n# head\nEnd Sub\nEnd\tx\n## aaa b. Done. the end"


def split_and_route(splitter, text: str) -> tuple[list, list[str]]:
    """The chunks, and the texts the reference engine was asked to split meanwhile."""
    with recorded_calls(Engine) as calls:
        chunks = splitter.split(text)
    return chunks, calls


@pytest.mark.parametrize(
    ("pattern", "engine"),
    [*[(p, Engine) for p in PYTHON_ONLY], (r"\.\s", _native.Splitter), (r"\s+", _native.Splitter)],
)
def test_regex_route(pattern: str, engine: type) -> None:
    """Patterns outside the Rust subset run on Python's re (the reference engine); those
    inside it run in Rust, never touching the reference."""
    opts = {"separators": [pattern, ""], "is_separator_regex": True}
    splitter = ferrochunk.Splitter(12, chunk_overlap=3, **opts)
    assert type(splitter._engine) is engine
    chunks, calls = split_and_route(splitter, ROUTE_TEXT)
    assert calls == ([ROUTE_TEXT] if engine is Engine else [])
    check_offsets(ROUTE_TEXT, chunks)
    oracle = lc.RecursiveCharacterTextSplitter(chunk_size=12, chunk_overlap=3, **opts)
    assert [c.text for c in chunks] == oracle.split_text(ROUTE_TEXT)
    if engine is Engine:
        with pytest.raises(ValueError, match="no native core"):
            splitter.native_core()


@pytest.mark.parametrize(
    ("separators", "regex", "text"),
    [
        ([r"\w{300}", " ", ""], True, "short words " * 3 + "x" * 300 + " tail"),
        ([r"(?:a{1000}){1000}", " ", ""], True, "a b c " * 9),
        (["[\ud800-\ue000]", " ", ""], True, "ab cd\ue000ef gh"),
        (["a|\ud800", ""], True, "ab cd\ue000ef gh"),
        (["\ud800", " ", ""], False, "ab cd\ue000ef gh"),
    ],
    ids=["over-size-limit", "nested-repeat", "surrogate-range", "surrogate-branch", "literal"],
)
def test_separators_rust_cannot_compile_route(separators, regex: bool, text: str) -> None:
    """A pattern in the Rust subset whose compiled form exceeds the regex crate's size limit,
    or a separator naming a lone surrogate (no UTF-8 form), runs on Python's re: LangChain's
    chunks, where it raised before."""
    opts = {"separators": separators, "is_separator_regex": regex}
    for chunker in (
        ferrochunk.Splitter(20, chunk_overlap=0, **opts),
        ferrochunk.Splitter(4, chunk_overlap=0, **opts),
    ):
        assert type(chunker._engine) is Engine
        chunks, calls = split_and_route(chunker, text)
        assert calls == [text]
        check_offsets(text, chunks)
        size = chunker._args["chunk_size"]
        oracle = lc.RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=0, **opts)
        assert [c.text for c in chunks] == oracle.split_text(text)
    markdown = ferrochunk.MarkdownChunker(20, min_size=0, separators=separators)
    reference = ferrochunk.reference.MarkdownChunker(20, min_size=0, separators=separators)
    if regex:
        got = [(c.text, c.start) for c in markdown.split(text)]
        assert got == [(c.text, c.start) for c in reference.split(text)]


def test_python_token_lengths_fill_token_count() -> None:
    """A Python length marked ``counts_tokens`` (here tiktoken itself) gives every chunk its
    ``token_count``, as the reference does, whether Rust or Python's re splits."""
    from ferrochunk import tokens
    from ferrochunk.reference.tokens import TiktokenLength, tiktoken_encoding

    tokens.use_bundled_ranks_in_tiktoken()
    length = TiktokenLength(tiktoken_encoding("cl100k_base"), set(), "all")
    text = "# A\n\nHello world. Goodbye world, again.\n\n## B\n\nMore text here, 漢字 too.\n"
    chunkers = [
        ferrochunk.Splitter(8, chunk_overlap=0, length_function=length),
        ferrochunk.Splitter(
            8,
            chunk_overlap=0,
            length_function=length,
            separators=[r"(?<=\.) ", " ", ""],
            is_separator_regex=True,
        ),
        ferrochunk.MarkdownChunker(8, min_size=0, length_function=length),
        ferrochunk.MarkdownChunker(8, min_size=0, length_function=length, parent_size=20),
    ]
    for chunker in chunkers:
        for chunks in (chunker.split(text), *chunker.split_batch([text, "x"])[:1]):
            assert chunks and all(c.token_count == length(c.text) for c in chunks)


def _words(s: str) -> int:
    return len(s.split())


@pytest.mark.parametrize(
    ("length", "engine"),
    [
        (lambda s: len(s) / 2, Engine),
        (lambda s: -len(s), Engine),
        (lambda s: len(s) * 2**64, Engine),
        (lambda s: str(len(s)), Engine),
        (_words, _native.Splitter),
    ],
    ids=["float", "negative", "huge", "str", "int"],
)
def test_length_function_route(length, engine: type) -> None:
    """Lengths the Rust core cannot hold (not machine integers) make it give up and hand the
    text to the reference engine (as in the drop-ins); integer lengths stay in Rust."""
    text = "ab cd ef gh ij kl mn op qr st uv wx yz " * 3
    splitter = ferrochunk.Splitter(8, chunk_overlap=2, length_function=length)
    assert type(splitter._engine) is _native.Splitter  # the fallback happens per call
    with recorded_calls(Engine) as calls:
        got = outcome(lambda: splitter.split(text), "ferrochunk")
    assert calls == ([text] if engine is Engine else [])
    oracle = lc.RecursiveCharacterTextSplitter(
        chunk_size=8, chunk_overlap=2, length_function=length
    )
    want = outcome(lambda: oracle.split_text(text))
    if got[0] == "ok":
        check_offsets(text, got[1])
        got = ("ok", [c.text for c in got[1]], [])
    assert got[:-1] == want[:-1]  # the texts, or the exception's type and message


@pytest.mark.parametrize(
    ("size", "engine"), [(2**63, Engine), (2**70, Engine), (2**63 - 1, _native.Splitter)]
)
def test_huge_chunk_size_route(size: int, engine: type) -> None:
    """Sizes beyond the core's i64 run on the reference engine, whose ints are exact."""
    text = "a b c " * 50
    splitter = ferrochunk.Splitter(size, chunk_overlap=7)
    assert type(splitter._engine) is engine
    chunks, calls = split_and_route(splitter, text)
    assert calls == ([text] if engine is Engine else [])
    # By hand: it all fits one chunk, stripped of the final space (299 ASCII characters).
    assert [(c.text, c.start, c.end, c.byte_start, c.byte_end) for c in chunks] == [
        (text.strip(), 0, 299, 0, 299)
    ]
    oracle = lc.RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=7)
    assert oracle.split_text(text) == [text.strip()]
