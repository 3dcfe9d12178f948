"""Stable chunk ids (``reference/chunk_id.py``, ``rust/chunk_id.rs``): users store them, so they
must never change silently. For a few documents and settings, on both engines, the ids are
derived here from the documented formula, the first 32 hex digits of SHA-256 over
``document_id \\0 settings \\0 sha256(text) \\0 start:end`` (the default document id: the first
32 hex digits of the text's SHA-256), with each settings string written out, and they are also
pinned as hex strings (computed once with that formula, not by the chunker). A change to the
formula, to the settings strings (``frontend/markdown.py`` ``_settings``, the parent suffix
in ``rust/markdown/ids.rs``, ``frontend/splitter.py`` ``settings`` for the ids the CLI and
``chunk_arrow`` give recursive-splitter chunks) or to the spans fails here. (``markdown-v2``:
cuts inside blocks became sentence-first with even sizes, issue 14; the pins were recomputed
then.)"""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple, Optional

import pytest


def words(text: str) -> int:
    """A length function; its ``__qualname__`` (``words``) goes into the settings."""
    return len(text.split())


def formula(document_id: str, settings: str, text: str, start: int, end: int) -> str:
    """The documented id, written out again here (the code under test is not used)."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    key = f"{document_id}\0{settings}\0{digest}\0{start}:{end}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def default_document_id(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


DOC = "# A\n\none two three\n\n# B\n\nfour five six\n"
# By hand: section A is "# A\n\none two three" (3 + 2 + 13 characters: 0..18, 5 words), B
# is "# B\n\nfour five six" (20..38, 5 words); together they exceed 20 characters (or 5
# words), so each is a chunk.
TWO = [(0, 18), (20, 38)]
ONE = [(0, 38)]  # the whole document, without its final newline
CJK_DOC = "# 标题\n\n中文。😀 e\u0301\n"  # 13 code points before the final newline

# The separators as the settings string spells them (JSON, ASCII only).
DEFAULT = r"""["[.!?]+[\"'\u201d\u2019)\\]]*[ \\t\\n]+", "\\n", "[;:,][ \\t\\n]+", " ", ""]"""
CJK = (
    r"""["[\u3002\uff01\uff1f\uff1b\u2026]+[\u201d\u2019\u300d\u300f\uff09)]*[ \\t\\n]*"""
    r"""|[.!?]+[\"'\u201d\u2019)\\]]*[ \\t\\n]+", "\\n", """
    r'"[\uff0c\u3001,\uff1a:][ \\t\\n]*", " ", ""]'
)


class Case(NamedTuple):
    options: dict[str, Any]
    text: str
    document_id: Optional[str]
    settings: str
    spans: list[tuple[int, int]]
    ids: list[str]


CASES = {
    "default": Case(
        {},
        DOC,
        None,
        f"markdown-v2|size=1000|min=250|seps={DEFAULT}|len=chars",
        ONE,
        ["614393248effc4f5f69917049280cdbe"],
    ),
    "size-20": Case(
        {"chunk_size": 20, "min_size": 0},
        DOC,
        None,
        f"markdown-v2|size=20|min=0|seps={DEFAULT}|len=chars",
        TWO,
        ["d104130821266d09811c8a62f133e291", "f8022970916b4a1ec1a889daf7b3a26b"],
    ),
    "document-id": Case(
        {"chunk_size": 20, "min_size": 0},
        DOC,
        "doc-1",
        f"markdown-v2|size=20|min=0|seps={DEFAULT}|len=chars",
        TWO,
        ["e76cdb38e6b9a1726081f6f31ddae141", "89bd55e2d960d7c83ad9b57da910bb64"],
    ),
    "custom-separators": Case(
        {"chunk_size": 20, "min_size": 0, "separators": ["\\n", " ", ""]},
        DOC,
        None,
        r'markdown-v2|size=20|min=0|seps=["\\n", " ", ""]|len=chars',
        TWO,
        ["caa584226416abf9932de3dd3089978a", "013eb25ac79e24dd36fdece212047568"],
    ),
    "length-function": Case(
        {"chunk_size": 5, "min_size": 0, "length_function": words},
        DOC,
        None,
        f"markdown-v2|size=5|min=0|seps={DEFAULT}|len=words",
        TWO,
        ["77fea2a84327d7e519a75b18a2a723f0", "afb961d0945389f69a2900557d667bff"],
    ),
    "overlap": Case(
        {"chunk_size": 20, "min_size": 0, "chunk_overlap": 5},
        DOC,  # a tail never crosses a heading: B keeps its start
        None,
        f"markdown-v2|size=20|min=0|seps={DEFAULT}|len=chars|overlap=5",
        TWO,
        ["d6b59a5204073700b92912aa3427f05c", "3e7e43d32ef36f07476524f0734d898e"],
    ),
    "cjk": Case(
        {"separators": "cjk"},
        CJK_DOC,
        None,
        f"markdown-v2|size=1000|min=250|seps={CJK}|len=chars",
        [(0, 13)],
        ["763d9468ee5b65b92f222fe3c9aae983"],
    ),
}

# The parent of both chunks of "size-20" with parent_size=1000: the child settings plus
# "|parent=1000" (children keep the "size-20" ids: parent_size is not in their settings).
PARENT_SETTINGS = f"markdown-v2|size=20|min=0|seps={DEFAULT}|len=chars|parent=1000"
PARENT_ID = "f4f84416879d851ba994282dd8eb80e4"


@pytest.fixture(params=["native", "reference"])
def chunker_class(request: pytest.FixtureRequest) -> type:
    import ferrochunk
    import ferrochunk.reference

    return {"native": ferrochunk, "reference": ferrochunk.reference}[request.param].MarkdownChunker


@pytest.mark.parametrize("name", sorted(CASES))
def test_known_ids(chunker_class, name: str) -> None:
    case = CASES[name]
    chunker = chunker_class(**case.options)
    assert chunker.settings == case.settings, "the settings string (so every chunk id) changed"
    chunks = chunker.split(case.text, document_id=case.document_id)
    assert [(c.start, c.end) for c in chunks] == case.spans
    doc = case.document_id or default_document_id(case.text)
    derived = [formula(doc, case.settings, case.text, c.start, c.end) for c in chunks]
    assert derived == case.ids, "the pinned ids no longer follow the documented formula"
    ids = [c.metadata["chunk_id"] for c in chunks]
    assert ids == case.ids, "stored chunk ids would change"
    assert all(c.metadata["document_id"] == doc for c in chunks)
    assert [c.metadata["prev_id"] for c in chunks] == [None, *ids[:-1]]
    assert [c.metadata["next_id"] for c in chunks] == [*ids[1:], None]


def test_known_parent_ids(chunker_class) -> None:
    case = CASES["size-20"]
    chunker = chunker_class(**case.options, parent_size=1000)
    parents, children = chunker.split_hierarchy(case.text)
    assert formula(default_document_id(case.text), PARENT_SETTINGS, case.text, 0, 38) == PARENT_ID
    assert [(p.start, p.end, p.metadata["chunk_id"]) for p in parents] == [(0, 38, PARENT_ID)]
    assert [c.metadata["chunk_id"] for c in children] == case.ids
    assert [c.metadata["parent_id"] for c in children] == [PARENT_ID, PARENT_ID]


# ``Splitter.settings``: the one definition behind the ids the CLI and ``chunk_arrow`` write
# for recursive-splitter chunks (``frontend/splitter.py``); a token counter is named by its
# encoding in both stacks, so the ids agree.
SPLITTER_SETTINGS = {
    "default": (
        {},
        r'recursive-v1|size=1000|overlap=200|seps=["\n\n", "\n", " ", ""]|regex=0|keep=start'
        "|strip=1|len=chars",
    ),
    "custom": (
        {"chunk_size": 20, "chunk_overlap": 0, "separators": ["。", "x+"]},
        r'recursive-v1|size=20|overlap=0|seps=["\u3002", "x+"]|regex=0|keep=start|strip=1'
        "|len=chars",
    ),
    "words": (
        {"chunk_size": 5, "chunk_overlap": 1, "length_function": words},
        r'recursive-v1|size=5|overlap=1|seps=["\n\n", "\n", " ", ""]|regex=0|keep=start'
        "|strip=1|len=words",
    ),
    "tokens": (
        {"chunk_size": 8, "chunk_overlap": 2, "length_function": "o200k_base"},
        r'recursive-v1|size=8|overlap=2|seps=["\n\n", "\n", " ", ""]|regex=0|keep=start'
        "|strip=1|len=o200k_base",
    ),
}


def _splitter(stack: str, options: dict[str, Any]) -> Any:
    import ferrochunk
    import ferrochunk.reference
    from ferrochunk.reference.tokens import tiktoken_length

    options = dict(options)
    if options.get("length_function") == "o200k_base":
        options["length_function"] = (
            ferrochunk.get_encoding("o200k_base").length_function()
            if stack == "native"
            else tiktoken_length(ferrochunk.tiktoken_encoding("o200k_base"))
        )
    module = {"native": ferrochunk, "reference": ferrochunk.reference}[stack]
    return module.Splitter(**options)


@pytest.mark.parametrize("stack", ["native", "reference"])
@pytest.mark.parametrize("name", sorted(SPLITTER_SETTINGS))
def test_splitter_settings_and_arrow_ids(stack: str, name: str) -> None:
    options, settings = SPLITTER_SETTINGS[name]
    splitter = _splitter(stack, options)
    assert splitter.settings == settings, "the settings string (so every chunk id) changed"
    pa = pytest.importorskip("pyarrow")
    from ferrochunk.arrow import chunk_arrow

    text = "one two three。four five six xx seven eight nine ten " * 3
    out = chunk_arrow(pa.table({"text": [text], "doc": ["d"]}), chunker=splitter, id_column="doc")
    rows = out.to_pylist()
    assert rows and [(r["start"], r["end"]) for r in rows] == [
        (c.start, c.end) for c in splitter.split(text)
    ]
    assert [r["chunk_id"] for r in rows] == [
        formula("d", settings, text, r["start"], r["end"]) for r in rows
    ]
