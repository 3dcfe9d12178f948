"""One argument convention for every native chunker (issue 36): each public chunker's
signature, and its reference twin's, against the table of ``docs/arguments.md``."""

from __future__ import annotations

import ast
import inspect
import json
import re
import warnings
from pathlib import Path

import pytest

import ferrochunk
from ferrochunk import reference
from ferrochunk.cli import main

DOC = Path(__file__).resolve().parent.parent / "docs" / "arguments.md"
# The LangChain drop-ins keep LangChain's signatures (not this convention).
DROP_INS = {
    "CharacterTextSplitter",
    "MarkdownHeaderTextSplitter",
    "MarkdownTextSplitter",
    "RecursiveCharacterTextSplitter",
    "SemanticChunker",
    "TextSplitter",
    "TokenTextSplitter",
}
# Public callables that take a size but chunk nothing: ``late_chunk`` embeds chunks it is
# given, and its ``window``/``overlap`` are the model's token windows.
NOT_CHUNKERS = {"late_chunk"}
# What comes before ``chunk_size``: the thing chunked (or what embeds it).
SUBJECTS = {"text", "embedder"}
CHUNKERS = {
    "HtmlChunker",
    "CodeChunker",
    "MarkdownChunker",
    "PdfChunker",
    "SemanticSplitter",
    "Splitter",
    "TextChunker",
    "TokenSplitter",
    "split",
    "split_tokens",
}


def table() -> dict[tuple[str, str], object]:
    """``(chunker, argument) -> default`` from the rows of the documented table."""
    rows: dict[tuple[str, str], object] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        name, default = cells[0].strip("`"), ast.literal_eval(cells[1].strip("`"))
        for chunker in cells[2].split(", "):
            assert (chunker, name) not in rows, f"{chunker}.{name} has two rows"
            rows[chunker, name] = default
    return rows


def public_chunkers() -> dict[str, object]:
    """Every public callable of ``ferrochunk.__all__`` that takes a size, but the drop-ins."""
    found = {}
    for name in ferrochunk.__all__:
        obj = getattr(ferrochunk, name)
        if name in DROP_INS | NOT_CHUNKERS or not callable(obj):
            continue
        try:
            params = inspect.signature(obj).parameters
        except (TypeError, ValueError):
            continue
        if "chunk_size" in params or any(p.endswith(("_size", "overlap")) for p in params):
            found[name] = obj
    return found


def test_the_walk_finds_every_native_chunker() -> None:
    assert set(public_chunkers()) == CHUNKERS


@pytest.mark.parametrize("name", sorted(CHUNKERS))
def test_only_chunk_size_is_positional(name: str) -> None:
    params = list(inspect.signature(getattr(ferrochunk, name)).parameters.values())
    names = [p.name for p in params]
    assert "chunk_size" in names, f"{name} has no chunk_size"
    at = names.index("chunk_size")
    assert set(names[:at]) <= SUBJECTS, f"{name}: {names[:at]} before chunk_size"
    late = [p.name for p in params[at + 1 :] if p.kind not in (p.KEYWORD_ONLY, p.VAR_KEYWORD)]
    assert not late, f"{name}: {late} may be passed by position after chunk_size"


@pytest.mark.parametrize("name", sorted(CHUNKERS))
def test_every_argument_has_the_documented_default(name: str) -> None:
    rows = table()
    params = inspect.signature(getattr(ferrochunk, name)).parameters.values()
    got = {p.name: p.default for p in params if p.name not in SUBJECTS and p.default is not p.empty}
    if name == "split":  # its **options are Splitter's (test_split_options_...)
        options = inspect.signature(ferrochunk.Splitter).parameters
        got |= {k: options[k].default for k in ("separators", "is_separator_regex")}
        got |= {k: options[k].default for k in ("keep_separator", "strip_whitespace")}
        got["length_function"] = options["length_function"].default
    want = {arg: default for (chunker, arg), default in rows.items() if chunker == name}
    assert got == want, f"{name}: signature defaults differ from docs/arguments.md"


@pytest.mark.parametrize("name", sorted(set(reference.__all__) & CHUNKERS))
def test_reference_twins_have_the_same_signature(name: str) -> None:
    assert inspect.signature(getattr(reference, name)) == inspect.signature(
        getattr(ferrochunk, name)
    )


def test_split_options_are_the_splitter_keywords() -> None:
    from ferrochunk.frontend.splitter import SplitOptions

    params = inspect.signature(ferrochunk.Splitter).parameters
    keywords = set(params) - {"chunk_size", "chunk_overlap"}
    assert set(SplitOptions.__annotations__) == keywords


@pytest.mark.parametrize("impl", [ferrochunk, reference], ids=["native", "reference"])
def test_the_default_overlap_fits_every_size(impl) -> None:
    text = "word " * 60
    for size in (1, 4, 5, 100, 199, 1000):
        chunks = impl.split(text, chunk_size=size)
        assert chunks and all(len(c.text) <= size for c in chunks)
    assert "overlap=20|" in impl.Splitter(100).settings
    assert "overlap=200|" in impl.Splitter().settings  # 1000: the overlap it always had
    assert [c.text for c in impl.split(text, 100)] == [
        c.text for c in impl.split(text, 100, chunk_overlap=20)
    ]


def test_token_windows_overlap_a_fifth() -> None:
    assert ferrochunk.TokenSplitter().chunk_overlap == 102
    assert ferrochunk.TokenSplitter(10).chunk_overlap == 2
    text = "one two three four five six seven eight nine ten " * 3
    assert ferrochunk.split_tokens(text, 10) == ferrochunk.split_tokens(text, 10, chunk_overlap=2)


@pytest.mark.parametrize("impl", [ferrochunk, reference], ids=["native", "reference"])
@pytest.mark.parametrize("cls", ["MarkdownChunker", "TextChunker", "Splitter"])
def test_a_second_positional_is_refused(impl, cls: str) -> None:
    with pytest.raises(TypeError, match="positional"):
        getattr(impl, cls)(1000, 200)


def _metadata_calls() -> dict:
    return {
        "MarkdownChunker.split": lambda m, i: i.MarkdownChunker(100).split("# A\n\nb.", m),
        "TextChunker.split": lambda m, i: i.TextChunker(100).split("A.", m),
        "Splitter.split": lambda m, i: i.Splitter(100).split("a b", m),
        "split": lambda m, i: i.split("a b", 100, metadata=m),
    }


@pytest.mark.parametrize("impl", [ferrochunk, reference], ids=["native", "reference"])
@pytest.mark.parametrize("call", sorted(_metadata_calls()))
def test_metadata_that_is_no_mapping_is_a_type_error_naming_it(impl, call: str) -> None:
    run = _metadata_calls()[call]
    with pytest.raises(TypeError, match=r"metadata must be a mapping .* got list \['x'\]"):
        run(["x"], impl)
    with pytest.raises(TypeError, match=r"metadata must be a mapping .* got int"):
        run(5, impl)
    assert run([("source", "a")], impl)[0].metadata["source"] == "a"  # pairs, as dict() takes


def test_other_native_metadata_takers() -> None:
    for run in (
        lambda m: ferrochunk.split_tokens("a b", 10, metadata=m),
        lambda m: ferrochunk.TokenSplitter(10).split("a b", m),
        lambda m: ferrochunk.sentence_spans("A b. C d.", metadata=m),
    ):
        with pytest.raises(TypeError, match="metadata must be a mapping"):
            run(["x"])


def test_semantic_splitter_takes_chunk_size() -> None:
    pytest.importorskip("numpy")

    def embedder(texts):
        return [[1.0, float(len(t))] for t in texts]

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new name warns of nothing
        splitter = ferrochunk.SemanticSplitter(embedder, 50, min_size=5)
    assert splitter.chunk_size == 50
    assert all(len(c.text) <= 50 for c in splitter.split("One two. Three four. " * 10))


def test_cli_defaults_are_the_library_defaults(tmp_path: Path, capsys) -> None:
    short, long = "Alpha beta gamma delta. " * 40, "Alpha beta gamma delta. " * 800
    cases = [
        (long, [], ferrochunk.split),  # 1000 characters, overlap 200
        (short, ["--chunk-size", "100"], lambda t: ferrochunk.split(t, 100)),
        (short, ["--chunker", "text", "--chunk-size", "100"], ferrochunk.TextChunker(100).split),
        (long, ["--chunker", "tokens"], ferrochunk.split_tokens),  # 512 tokens, overlap 102
        (
            short,
            ["--chunker", "tokens", "--chunk-size", "20"],
            lambda t: ferrochunk.split_tokens(t, 20),
        ),
    ]
    path = tmp_path / "a.txt"
    for text, args, split in cases:
        path.write_text(text, encoding="utf-8")
        assert main(["chunk", str(path), "-q", *args]) == 0
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [r["text"] for r in rows] == [c.text for c in split(text)], args


def test_docs_show_no_positional_overlap() -> None:
    """The docs' examples follow the convention (no ``Splitter(1000, 200)``)."""
    docs = Path(__file__).resolve().parent.parent / "docs"
    pattern = re.compile(
        r"\b(Splitter|TokenSplitter|MarkdownChunker|TextChunker)\(\s*\w+\s*,\s*\d"
        r"|\b(split|split_tokens)\(\s*\w+\s*,\s*\w+\s*,\s*\d"
        r"|SemanticSplitter\([^)]*max_size="
    )
    bad = [
        f"{page.name}: {line.strip()}"
        for page in sorted(docs.glob("*.md"))
        for line in page.read_text(encoding="utf-8").splitlines()
        if pattern.search(line) and "raise `TypeError`" not in line
    ]
    assert not bad
