"""MarkdownHeaderTextSplitter: Rust == pure-Python reference == LangChain 1.1 (mirrors
``rust/markdown/header.rs``), on the shared corpus and on generated Markdown-ish text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_text_splitters import MarkdownHeaderTextSplitter as LangChainSplitter
from langchain_text_splitters import MarkdownTextSplitter as LangChainMarkdownText

import ferrochunk
from ferrochunk import reference as ref
from ferrochunk.markdown.header import NativeHeaderEngine
from ferrochunk.reference.markdown.header import HeaderEngine
from support import recorded_calls

HEADERS = [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3")]
OPTIONS = [
    {},
    {"strip_headers": False},
    {"return_each_line": True},
    {"return_each_line": True, "strip_headers": False},
]


def docs(splitter, text: str) -> list[tuple[str, dict]]:
    return [(d.page_content, d.metadata) for d in splitter.split_text(text)]


def outcome(splitter, text: str):
    """The documents, or the exception type and message (LangChain fails on some input)."""
    try:
        return docs(splitter, text)
    except Exception as err:
        return type(err), str(err)


def check_all(text: str, headers, **options) -> None:
    expected = outcome(LangChainSplitter(headers, **options), text)
    assert outcome(ref.MarkdownHeaderTextSplitter(headers, **options), text) == expected
    assert outcome(ferrochunk.MarkdownHeaderTextSplitter(headers, **options), text) == expected


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_corpus(options, markdown_paths) -> None:
    for path in markdown_paths:
        check_all(path.read_text(encoding="utf-8"), HEADERS, **options)


def test_corpus_custom_patterns(markdown_paths) -> None:
    headers = [*HEADERS, ("**", "Bold"), ("***", "Bolder")]
    custom = {"**": 1, "***": 2}
    for path in markdown_paths[::7]:
        text = path.read_text(encoding="utf-8")
        check_all(text, headers, custom_header_patterns=custom)
        check_all(text, headers, custom_header_patterns=custom, strip_headers=False)


LINE_PARTS = [
    "# ",
    "## ",
    "### ",
    "#",
    "##x",
    "```",
    "```py",
    "~~~",
    "``` ```",
    "**",
    "***",
    "*",
    "Title",
    "text",
    "漢字。",
    "😀",
    "e\u0301",
    " ",
    "\t",
    "\r",
    "\x00",
    "\u200b",
    "\u2028",
    "\xa0",
    "\x85",
    "\ufeff",
    "-",
    "|",
]
line = st.lists(st.sampled_from(LINE_PARTS), max_size=5).map("".join)
markdown = st.lists(line, max_size=25).map("\n".join)
header_sets = st.sampled_from(
    [
        HEADERS,
        [("#", "A"), ("##", "A")],
        [("##", "H2"), ("#", None)],
        [("#", "H"), ("**", "B"), ("*", "I")],
        [("", "E"), ("#", "H")],
    ]
)


@given(markdown, header_sets, st.booleans(), st.booleans(), st.booleans())
def test_generated(text, headers, each_line, strip, custom) -> None:
    patterns = {"**": 1, "*": 3, "": 2} if custom else None
    check_all(
        text,
        headers,
        return_each_line=each_line,
        strip_headers=strip,
        custom_header_patterns=patterns,
    )


# Custom header patterns: markers that are prefixes of each other (``*``/``**``/``***``,
# ``=``/``==``), regex metacharacters, the empty marker, markers shared with ``#`` rules;
# lines that open and close with them, with spaces, only marker characters, or headings
# that end with the marker (``"** a**"`` is a standard and a custom header at once).
MARKERS = ["*", "**", "***", "#", "##", "==", "=", "+", "__", "$.", "", "x*"]
INNER = [" ", "a", "x^2", "Title", "漢", "*", "#", "=", "\t", "\ufeff", "  b "]


@st.composite
def custom_case(draw):
    """Markers for one example, then rules, levels and lines that all use them (so that
    lines framed by a marker meet rules and patterns for the same marker)."""
    markers = draw(st.lists(st.sampled_from(MARKERS), min_size=1, max_size=3, unique=True))
    marker = st.sampled_from(markers)
    names = st.sampled_from(["A", "B", "Bold", None])
    headers = draw(st.lists(st.tuples(marker, names), min_size=1, max_size=4))
    levels = st.integers(min_value=-2, max_value=7)
    patterns = draw(st.dictionaries(st.sampled_from([*markers, "***"]), levels, max_size=4))
    inner = st.lists(st.sampled_from(INNER), max_size=4).map("".join)
    framed = st.tuples(marker, inner, marker).map("".join)
    lines = st.lists(st.one_of(framed, framed, line), max_size=15).map("\n".join)
    return draw(lines), headers, patterns


def hooked(base: type, hook: str) -> type:
    """A subclass of ``base`` overriding one of the hooks LangChain's ``split_text`` calls,
    visibly: lines aggregated upper-cased, or ``*X*`` lines taken as headers for any marker
    whether or not ``custom_header_patterns`` names it."""

    class Hooked(base):  # type: ignore[valid-type,misc]
        if hook == "aggregate_lines_to_chunks":

            def aggregate_lines_to_chunks(self, lines):
                lines = [{**x, "content": x["content"].upper()} for x in lines]
                return super().aggregate_lines_to_chunks(lines)

        else:

            def _is_custom_header(self, line, sep):
                inner = line[len(sep) : len(line) - len(sep)]
                return len(line) > 2 * len(sep) and line.startswith(sep + "*") and bool(inner)

    return Hooked


@given(
    custom_case(),
    st.sampled_from(["aggregate_lines_to_chunks", "_is_custom_header"]),
    st.booleans(),
    st.booleans(),
)
def test_subclass_hooks_are_called_where_langchain_calls_them(case, hook, each_line, strip):
    text, headers, patterns = case
    options = {"return_each_line": each_line, "strip_headers": strip}
    options["custom_header_patterns"] = patterns

    def run(base: type):
        return outcome(hooked(base, hook)(headers, **options), text)

    expected = run(LangChainSplitter)
    assert run(ref.MarkdownHeaderTextSplitter) == expected
    assert run(ferrochunk.MarkdownHeaderTextSplitter) == expected


@given(custom_case(), st.booleans(), st.booleans())
def test_generated_custom_patterns(case, each_line, strip) -> None:
    text, headers, patterns = case
    check_all(
        text,
        headers,
        return_each_line=each_line,
        strip_headers=strip,
        custom_header_patterns=patterns,
    )


@pytest.mark.parametrize(
    ("text", "headers", "patterns", "options"),
    [
        # A heading ending with its marker: the custom reading wins (title "a", not "a**").
        ("** a**\na", [("**", "Bold")], {"**": 1, "***": 2}, {}),
        # Both lines are level-2 custom headers titled "x^2": one document, not two.
        ("** x^2**\n*\n**x^2**\n*", [("**", "Bold")], {"**": 2, "***": 3}, {}),
        (
            "***a***\n**b**\n*c*\nz",
            [("*", "I"), ("**", "B"), ("***", "BI")],
            {"*": 3, "**": 2, "***": 1},
            {"strip_headers": False},
        ),
        (
            "## T ##\n==x==\ny",
            [("##", "H2"), ("==", "Eq"), ("=", "E")],
            {"==": 1, "=": 2},
            {"return_each_line": True},
        ),
    ],
)
def test_custom_pattern_cases(text, headers, patterns, options) -> None:
    check_all(text, headers, custom_header_patterns=patterns, **options)


def test_custom_header_title_is_between_markers() -> None:
    """The issue's example, against LangChain's documented reading (not our own output)."""
    splitter = ferrochunk.MarkdownHeaderTextSplitter(
        headers_to_split_on=[("**", "Bold")], custom_header_patterns={"**": 1, "***": 2}
    )
    [doc] = splitter.split_text("** a**\na")
    assert (doc.page_content, doc.metadata) == ("a", {"Bold": "a"})


def test_aggregate_lines_to_chunks_is_public() -> None:
    lines = [
        {"content": "# A", "metadata": {"h": "A"}},
        {"content": "x", "metadata": {"h": "A"}},
        {"content": "y", "metadata": {"h": "A", "i": "B"}},
    ]
    ours = ferrochunk.MarkdownHeaderTextSplitter(HEADERS).aggregate_lines_to_chunks(
        [dict(x) for x in lines]
    )
    theirs = LangChainSplitter(HEADERS).aggregate_lines_to_chunks([dict(x) for x in lines])
    assert ours == theirs


@pytest.mark.parametrize("text", [None, b"# a\nb", 5, bytearray(b"x")], ids=repr)
def test_text_that_is_no_str_fails_as_langchains(text) -> None:
    check_all(text, HEADERS)


def test_langchain_index_error_is_reproduced() -> None:
    # LangChain indexes the first character of an empty line here and raises IndexError.
    check_all("\n# ", [("", "E"), ("#", "H")], strip_headers=False)
    assert isinstance(
        outcome(LangChainSplitter([("", "E"), ("#", "H")], strip_headers=False), "\n# "), tuple
    )


def test_lone_surrogates_fall_back() -> None:
    """Text with no UTF-8 encoding runs on the reference line scan; LangChain judges."""
    text = "# A\ud800\nx\n## B\ny"
    splitter = ferrochunk.MarkdownHeaderTextSplitter(HEADERS)
    with recorded_calls(NativeHeaderEngine) as tried, recorded_calls(HeaderEngine) as calls:
        got = docs(splitter, text)
    assert (tried, calls) == ([text], [text]), "Rust first, then the reference line scan"
    assert got == docs(LangChainSplitter(HEADERS), text)
    # by hand: LangChain keeps only the printable characters of a header's text
    assert got == [("x", {"Header 1": "A"}), ("y", {"Header 1": "A", "Header 2": "B"})]
    check_all(text, HEADERS)


def test_markdown_text_splitter_matches(markdown_paths) -> None:
    for path in markdown_paths[::10]:
        text = path.read_text(encoding="utf-8")
        ours = ferrochunk.MarkdownTextSplitter(chunk_size=300, chunk_overlap=30).split_text(text)
        theirs = LangChainMarkdownText(chunk_size=300, chunk_overlap=30).split_text(text)
        assert ours == theirs


def test_threads_share_the_printability_cache() -> None:
    """Eight threads splitting at once (each first to meet some pages) agree with LangChain."""
    from concurrent.futures import ThreadPoolExecutor

    chars = [chr(c) for c in range(0x2000, 0x2100)] + ["\u3000", "\xad", "\U000e0001", "漢"]
    texts = [f"# T{k}\n" + " ".join(chars[k::8]) + "\nx\u200by\n## S\nz" for k in range(8)]
    expected = [docs(LangChainSplitter(HEADERS), t) for t in texts]
    splitter = ferrochunk.MarkdownHeaderTextSplitter(HEADERS)
    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(lambda t: docs(splitter, t), texts)) == expected


def test_pickles_and_copies_after_use() -> None:
    import copy
    import pickle

    splitter = ferrochunk.MarkdownHeaderTextSplitter(HEADERS, strip_headers=False)
    text = "# A\nx\n## B\ny"
    before = docs(splitter, text)
    for clone in (pickle.loads(pickle.dumps(splitter)), copy.deepcopy(splitter)):
        assert (
            docs(clone, text)
            == before
            == docs(LangChainSplitter(HEADERS, strip_headers=False), text)
        )
    splitter.strip_headers = True  # public attributes: a change is seen
    assert docs(splitter, text) == docs(LangChainSplitter(HEADERS), text)


# The Rust scan reads the str's own storage: one byte per character (ASCII, Latin-1), two
# (CJK) or four (emoji). Each kind gets texts of its own alphabet, with \r\n line ends,
# fences, characters Python does not print (dropped from lines), and repeated passages.
KIND_PARTS = {
    "latin1": ["é", "Ü", "\xa0", "\xad", "\x85", "\xff"],
    "ucs2": ["漢字。", "\u2028", "\u200b", "\ufeff", "\u3000", "Ā"],
    "ucs4": ["😀", "\U000e0001", "\U0001d518", "\U0010fffd"],
}
STORAGE_HEADERS = [("#", "h1"), ("##", "h2"), ("###", "h3"), ("####", "h4")]


@st.composite
def stored_text(draw):
    kind = draw(st.sampled_from(list(KIND_PARTS)))
    parts = [p for k in KIND_PARTS for p in KIND_PARTS[k] if k <= kind or k == "latin1"]
    parts += ["# ", "## ", "#### ", "```", "~~~", "text", " ", "\t", "\r", "x"]
    line = st.lists(st.sampled_from(parts), max_size=5).map("".join)
    lines = draw(st.lists(line, max_size=20))
    text = draw(st.sampled_from(["\n", "\r\n"])).join(lines)
    return text * draw(st.integers(1, 3))  # repeated passages: equal headers and blocks


@given(stored_text(), st.booleans(), st.booleans())
def test_generated_storage_kinds(text, each_line, strip) -> None:
    options = {"return_each_line": each_line, "strip_headers": strip}
    check_all(text, STORAGE_HEADERS, **options)
    ours = ferrochunk.MarkdownHeaderTextSplitter(STORAGE_HEADERS, **options).split_text(text)
    theirs = LangChainSplitter(STORAGE_HEADERS, **options).split_text(text)
    assert [documents_state(d) for d in ours] == [documents_state(d) for d in theirs]


def documents_state(doc) -> tuple:
    """Everything a caller can see of a Document, beyond page_content and metadata."""
    return type(doc), doc.__getstate__(), doc.model_fields_set, repr(doc), doc.model_dump()


def test_native_documents_are_constructed_ones() -> None:
    """Documents made in Rust are indistinguishable from LangChain's, and own their dicts."""
    from langchain_core.documents import Document

    from ferrochunk import _native
    from ferrochunk.documents import make_document

    assert isinstance(make_document, _native.DocumentMaker), "the native maker passed its check"
    made = make_document("漢字", {"h": "v"})
    built = Document(page_content="漢字", metadata={"h": "v"})
    assert made == built and documents_state(made) == documents_state(built)
    made.page_content = "changed"  # pydantic's own __setattr__ still runs on them
    assert made.model_fields_set == {"page_content", "metadata"}
    text = "# A\nx\n\ny\n\nz"
    docs_ = ferrochunk.MarkdownHeaderTextSplitter(HEADERS, return_each_line=True).split_text(text)
    assert len({id(d.metadata) for d in docs_}) == len(docs_) == 3
    docs_[0].metadata["new"] = 1
    assert docs_[1].metadata == {"Header 1": "A"}


def test_document_maker_refuses_other_layouts() -> None:
    from ferrochunk import _native

    class NotPlain(dict):
        pass

    with pytest.raises(TypeError, match="plain"):
        _native.DocumentMaker(NotPlain, "Document")
    with pytest.raises(TypeError, match="plain"):
        _native.DocumentMaker(int, "Document")


def test_names_that_run_python_code_see_the_collector_on() -> None:
    """The Documents are built with the cyclic collector paused when every header name is a
    plain ``str``; a name whose hash is Python code runs with it on, as anywhere else."""
    import gc

    seen: list[bool] = []

    class Name(str):
        def __hash__(self) -> int:
            seen.append(gc.isenabled())
            return str.__hash__(self)

    headers = [("#", Name("Header 1")), ("##", Name("Header 2"))]
    text = "# A\nx\n## B\ny\n" * 3
    was_enabled = gc.isenabled()
    gc.enable()
    try:
        for options in OPTIONS:
            check_all(text, headers, **options)
    finally:
        (gc.enable if was_enabled else gc.disable)()
    assert seen and all(seen)


# Changes a caller can make to a splitter's public attributes between calls; each is made
# to LangChain's splitter and to ours alike, and every call after one must agree.
def _set_headers(s, h):
    s.headers_to_split_on = h


def _edit_entry(s, h):  # an entry given as a list, changed in place (another marker)
    if s.headers_to_split_on and isinstance(s.headers_to_split_on[0], list):
        entry = s.headers_to_split_on[0]
        entry[0] = "##" if entry[0] != "##" else "#"


def _append(s, h):  # the list itself grown, not replaced
    if isinstance(s.headers_to_split_on, list):
        s.headers_to_split_on.append(("####", "Header 4"))


ATTRIBUTE_CHANGES = {
    "headers": _set_headers,
    "headers as lists": lambda s, h: _set_headers(s, [list(e) for e in h]),
    "edit a list entry": _edit_entry,
    "append": lambda s, h: _set_headers(s, [*s.headers_to_split_on, ("####", "Header 4")]),
    "append in place": _append,
    "headers as a tuple": lambda s, h: _set_headers(s, tuple(h)),
    "malformed": lambda s, h: _set_headers(s, [("#",), *h]),
    "custom": lambda s, h: s.custom_header_patterns.update({"**": 1}),
    "custom replaced": lambda s, h: setattr(s, "custom_header_patterns", {"==": 2}),
    "each line": lambda s, h: setattr(s, "return_each_line", not s.return_each_line),
    "strip": lambda s, h: setattr(s, "strip_headers", not s.strip_headers),
}
HEADER_SETS = st.sampled_from([HEADERS, HEADERS[:1], [("##", "B"), ("#", "A"), ("####", "A")]])


@given(
    st.lists(st.tuples(st.sampled_from(list(ATTRIBUTE_CHANGES)), HEADER_SETS), max_size=6),
    st.sampled_from(["# A\nx\n## B\ny\n**C**\nz", "#### D\n==E==\nw\n\n# F\nv"]),
)
def test_attributes_changed_between_calls_are_seen(changes, text) -> None:
    classes = (
        LangChainSplitter,
        ref.MarkdownHeaderTextSplitter,
        ferrochunk.MarkdownHeaderTextSplitter,
    )
    splitters = [cls(HEADERS) for cls in classes]
    for name, headers in [(None, HEADERS), *changes]:
        if name is not None:
            for s in splitters:
                ATTRIBUTE_CHANGES[name](s, headers)
        expected, *others = (outcome(s, text) for s in splitters)
        assert others == [expected, expected], name
