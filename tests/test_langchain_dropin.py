"""``ferrochunk.langchain`` is ``langchain_text_splitters``' namespace: the same names,
signatures and typed dicts; ``isinstance`` holds both ways; and the classes that are not
HTML or NLP wrappers (code presets, JSX, JSON, the experimental Markdown splitter, token
windows) give LangChain's output, warnings and errors on generated input and the corpus
(the recursive ones also equal the pure-Python reference with the same separators)."""

from __future__ import annotations

import copy
import inspect
from pathlib import Path

import langchain_text_splitters as lc
import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.documents import BaseDocumentTransformer

import ferrochunk
import ferrochunk.langchain as fl
from ferrochunk import reference as ref
from support import assert_genuine_langchain, sizes, staged, texts

REPO = Path(__file__).resolve().parents[1]


def test_the_namespace_is_langchains() -> None:
    assert_genuine_langchain()
    assert sorted(fl.__all__) == sorted(lc.__all__)
    for name in lc.__all__:
        assert getattr(fl, name).__module__.startswith("ferrochunk."), name


def _parameters(obj: object) -> list[tuple[str, object, object]]:
    params = inspect.signature(obj).parameters.values()  # type: ignore[arg-type]
    return [(p.name, p.kind, p.default) for p in params]


TYPED_DICTS = ["ElementType", "HeaderType", "LineType"]


@pytest.mark.parametrize("name", sorted(set(lc.__all__) - set(TYPED_DICTS)))
def test_signatures_and_methods_match(name: str) -> None:
    theirs, ours = getattr(lc, name), getattr(fl, name)
    if name == "Language":
        assert [m.value for m in theirs] == [m.value for m in ours]
        return
    assert _parameters(ours) == _parameters(theirs)
    if not inspect.isclass(theirs):
        return
    for method, value in vars(theirs).items():
        if callable(value) and (not method.startswith("_") or method == "__init__"):
            assert _parameters(getattr(ours, method)) == _parameters(value), method


@pytest.mark.parametrize("name", TYPED_DICTS)
def test_typed_dicts_match(name: str) -> None:
    theirs, ours = getattr(lc, name), getattr(fl, name)
    assert list(ours.__annotations__) == list(theirs.__annotations__)
    assert ours.__required_keys__ == theirs.__required_keys__


def test_the_top_level_keeps_the_common_drop_ins() -> None:
    for name in ("RecursiveCharacterTextSplitter", "MarkdownHeaderTextSplitter", "Language"):
        assert getattr(ferrochunk, name) is getattr(fl, name)


# -- isinstance ----------------------------------------------------------------------------

ABSTRACT = [
    n
    for n in lc.__all__
    if inspect.isclass(getattr(lc, n))
    and inspect.isabstract(lc.TextSplitter)
    and issubclass(getattr(lc, n), lc.TextSplitter)
]


@pytest.mark.parametrize("name", ABSTRACT)
def test_splitters_are_langchain_instances(name: str) -> None:
    ours = getattr(fl, name)
    assert issubclass(ours, lc.TextSplitter)
    assert issubclass(ours, getattr(lc, name))
    assert issubclass(ours, BaseDocumentTransformer)


def test_instances_of_every_ferrochunk_stack() -> None:
    for splitter in (
        ferrochunk.RecursiveCharacterTextSplitter(),
        ref.RecursiveCharacterTextSplitter(),
        ferrochunk.TokenTextSplitter(),
        fl.PythonCodeTextSplitter(),
    ):
        assert isinstance(splitter, lc.TextSplitter)
        assert isinstance(splitter, BaseDocumentTransformer)
    assert not isinstance(ferrochunk.MarkdownHeaderTextSplitter([]), lc.TextSplitter)
    assert not issubclass(fl.CharacterTextSplitter, lc.RecursiveCharacterTextSplitter)
    assert issubclass(fl.HTMLSemanticPreservingSplitter, BaseDocumentTransformer)


# -- code presets --------------------------------------------------------------------------

CODE_ATOMS = [
    "\nclass ",
    "\ndef ",
    "\n\tdef ",
    "\n\n",
    "\n",
    " ",
    "x",
    "return 1",
    "(",
    ")",
    ":",
    "\n\\chapter{",
    "\n\\section{",
    "\n\\begin{itemize}",
    "\n\\item",
    "$$",
    "\\\\",
    "\n# ",
    "\n## ",
    "```",
    "\n***\n",
    "<App>",
    "<div class='a'>",
    "</div>",
    "< span >",
    "\nconst ",
    " if ",
    "\nexport ",
    "<>",
    "&&\n",
    "||\n",
    "{",
    "}",
    "漢字",
    "😀",
    "\r\n",
]
code = st.lists(st.sampled_from(CODE_ATOMS) | texts, max_size=40).map("".join)
PRESETS = {
    "PythonCodeTextSplitter": lc.Language.PYTHON,
    "LatexTextSplitter": lc.Language.LATEX,
    "MarkdownTextSplitter": lc.Language.MARKDOWN,
}


def _code_outcomes(name: str, text: str, size: int, overlap: int, **kwargs) -> None:
    def make(module):
        return getattr(module, name)(chunk_size=size, chunk_overlap=overlap, **kwargs)

    expected = staged(make, lambda s: s.split_text(text), lc)
    assert staged(make, lambda s: s.split_text(text), fl) == expected
    if name in PRESETS:  # the same separators on the pure-Python engine (matched literally)
        seps = lc.RecursiveCharacterTextSplitter.get_separators_for_language(PRESETS[name])

        def reference(module):
            return ref.RecursiveCharacterTextSplitter(
                separators=seps, chunk_size=size, chunk_overlap=overlap, **kwargs
            )

        assert staged(reference, lambda s: s.split_text(text), ref) == expected


@given(code, sizes(), st.sampled_from([*PRESETS, "JSFrameworkTextSplitter"]), st.booleans())
def test_code_splitters_match(text, size_overlap, name, keep) -> None:
    _code_outcomes(name, text, *size_overlap, keep_separator=keep)


@pytest.mark.parametrize("name", [*PRESETS, "JSFrameworkTextSplitter"])
def test_code_splitters_on_real_files(name: str, corpus_dir: Path) -> None:
    files = sorted((REPO / "python" / "ferrochunk").rglob("*.py"))[:40]
    files += sorted((corpus_dir / "en-markdown").glob("*.md"))[::8]
    for path in files:
        _code_outcomes(name, path.read_text(encoding="utf-8"), 400, 40)


def test_jsx_separators_are_per_call_and_user_first() -> None:
    for module in (lc, fl):
        splitter = module.JSFrameworkTextSplitter(separators=["\n;"], chunk_size=30)
        first = splitter.split_text("<A>x</A>\n;<B>y</B>\nconst z = 1;" * 3)
        assert splitter._separators == ["\n;"]
        assert splitter.split_text("<C/>" * 20) is not None
        assert first == lc.JSFrameworkTextSplitter(separators=["\n;"], chunk_size=30).split_text(
            "<A>x</A>\n;<B>y</B>\nconst z = 1;" * 3
        )


# -- token windows -------------------------------------------------------------------------


@given(texts, st.integers(-2, 12), st.integers(-2, 12), st.booleans())
def test_split_text_on_tokens_matches(text, per_chunk, overlap, empty_decode) -> None:
    def make(module):
        def decode(ids):
            return "" if empty_decode and len(ids) % 2 else "".join(map(chr, ids))

        return module.Tokenizer(overlap, per_chunk, decode, lambda s: [ord(c) for c in s])

    def use(module):
        return lambda tok: module.split_text_on_tokens(text=text, tokenizer=tok)

    assert staged(make, use(fl), fl)[1:] == staged(make, use(lc), lc)[1:]
    assert fl.Tokenizer.__dataclass_params__.frozen


class _Meta(dict):
    """A dict subclass: LangChain deep-copies it (keeping the class) before validation."""


METADATA_KINDS = [
    {"source": "a.md", "page": 3, "score": 0.5, "ok": True, "none": None, "raw": b"x"},
    {"tags": ["a", "b"], "nested": {"k": [1, 2]}},  # mutable values: deep copies
    {1: "int key", (1, 2): "tuple key"},
    _Meta(source="subclass"),
    {},
]


@given(
    st.text("ab", min_size=32, max_size=40),
    st.lists(st.text("ab", max_size=4), max_size=24),
    st.text("ab", max_size=4),
    st.integers(0, 1200),
)
def test_start_index_search_is_str_find(head: str, tails: list[str], tail: str, start: int) -> None:
    """``create_documents``' search for a chunk (its first 32 characters, then the rest, then
    ``str.find`` after eight places holding only those) answers as ``str.find`` does, on text
    where the chunk's head recurs with other endings, up to 24 times before the chunk."""
    from ferrochunk.frontend.textsplitter import _find

    text = "".join(head + t for t in tails)
    for chunk in (head + tail, head[:32], head[1:] + tail):
        for at in (start, 0):
            assert _find(text, chunk, at) == text.find(chunk, at), (chunk, at)


def test_documents_made_at_once_are_those_made_one_by_one() -> None:
    """The native maker's batch (``create_documents``' plain-metadata path) gives what a loop
    of the maker over fresh copies gives, each Document with a dict of its own."""
    from ferrochunk import documents

    metadata = {"source": "a.md", "n": 1, "x": None}
    texts = ["one", "two", "漢字"]
    one_by_one = [
        documents.make_document(t, {**metadata, "start_index": k}) for k, t in enumerate(texts)
    ]
    at_once = documents.make_documents(texts, metadata, [0, 1, 2])
    assert at_once == one_by_one and [repr(d) for d in at_once] == [repr(d) for d in one_by_one]
    assert len({id(d.metadata) for d in at_once}) == 3 and metadata == {
        "source": "a.md",
        "n": 1,
        "x": None,
    }
    assert documents.make_documents(texts, metadata) == [
        documents.make_document(t, dict(metadata)) for t in texts
    ]
    many = getattr(documents.make_document, "many", None)
    if many is not None:
        with pytest.raises(ValueError, match="one start index per text"):
            many(texts, metadata, [0])


@pytest.mark.parametrize("metadata", METADATA_KINDS, ids=range(len(METADATA_KINDS)))
@pytest.mark.parametrize("start_index", [False, True])
def test_create_documents_copies_metadata_as_langchain(metadata: dict, start_index: bool) -> None:
    """Every chunk gets its own deep copy, of the same type, as LangChain's; the Documents
    equal LangChain's, and changing one chunk's metadata leaves the others and the input."""
    metadata = copy.deepcopy(metadata)  # the cases are shared: a failing run must not change them
    text = "alpha beta gamma. " * 40 + "\n\n" + "delta epsilon. " * 40
    kwargs = {"chunk_size": 120, "chunk_overlap": 30, "add_start_index": start_index}
    ours = ferrochunk.RecursiveCharacterTextSplitter(**kwargs).create_documents([text], [metadata])
    want = lc.RecursiveCharacterTextSplitter(**kwargs).create_documents([text], [metadata])
    assert ours == want
    assert [type(d.metadata) for d in ours] == [type(d.metadata) for d in want]
    assert [repr(d) for d in ours] == [repr(d) for d in want]
    assert len({id(d.metadata) for d in ours}) == len(ours) > 1
    before = repr(metadata)
    for value in ours[0].metadata.values():
        if isinstance(value, (list, dict)):
            value.clear()
    ours[0].metadata["changed"] = True
    assert repr(metadata) == before
    assert all("changed" not in d.metadata for d in ours[1:])
    assert [d.metadata for d in ours[1:]] == [d.metadata for d in want[1:]]
