"""``CodeChunker``: judged by Python's own parser (``ast``, ``tokenize``) on real code, the
standard library's ``.py`` files of the running interpreter, and by hand elsewhere.

What is held: definitions and statements that fit are never cut; chunks cover every
non-whitespace character in order; offsets are exact in code points and UTF-8; scope paths
are ``ast``'s nesting of the code each chunk holds; the Rust engine equals the reference
(py-tree-sitter on the same grammar); syntax errors are kept, by lines.
"""

from __future__ import annotations

import ast
import io
import pickle
import sysconfig
import tokenize
from bisect import bisect_left, bisect_right
from pathlib import Path
from typing import Any

import pytest

import ferrochunk
from ferrochunk import CodeChunker

STDLIB = Path(sysconfig.get_paths()["stdlib"])
SIZES = (300, 1500)


def stdlib_files(count: int, most: int = 120_000) -> list[Path]:
    """``count`` of the standard library's top-level modules, spread over the sorted list,
    that ``ast`` parses and that are at most ``most`` bytes."""
    paths = [p for p in sorted(STDLIB.glob("*.py")) if p.stat().st_size <= most]
    picked = []
    for p in paths[:: max(1, len(paths) // (count * 2))]:
        try:
            ast.parse(p.read_bytes())
        except (SyntaxError, ValueError):
            continue
        picked.append(p)
    assert len(picked) >= count // 2, f"too few standard-library files under {STDLIB}"
    return picked[:count]


FILES = stdlib_files(24)
IDS = [p.name for p in FILES]


class Judge:
    """What ``ast`` and ``tokenize`` say of one file, in UTF-8 byte offsets."""

    def __init__(self, text: str) -> None:
        self.data = text.encode("utf-8")
        self.text = text
        self.line_at = [0]  # ast and tokenize count lines by "\n" (not str.splitlines)
        for line in self.data.split(b"\n"):
            self.line_at.append(self.line_at[-1] + len(line) + 1)
        self.tree = ast.parse(text)
        self.code = self.code_tokens()

    def at(self, line: int, col: int) -> int:
        return self.line_at[line - 1] + col

    def span(self, node: Any) -> tuple[int, int]:
        """A node's bytes, decorators (from their ``@``) included."""
        start = self.at(node.lineno, node.col_offset)
        for d in getattr(node, "decorator_list", []):
            at = self.at(d.lineno, d.col_offset)
            start = min(start, self.data.rfind(b"@", self.line_at[d.lineno - 1], at))
        return start, self.at(node.end_lineno, node.end_col_offset)

    def code_tokens(self) -> list[tuple[int, int]]:
        skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT}
        skip |= {tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER}
        out = []
        for tok in tokenize.generate_tokens(io.StringIO(self.text).readline):
            if tok.type not in skip:
                out.append((self.char_at(*tok.start), self.char_at(*tok.end)))
        return out

    def char_at(self, line: int, col: int) -> int:  # tokenize's columns are code points
        if line > len(self.line_at) - 1:
            return len(self.data)
        start = self.line_at[line - 1]
        row = self.data[start : self.line_at[line]].decode("utf-8")
        return start + len(row[:col].encode("utf-8"))

    def fitting(self, size: int, kinds: tuple[type, ...]) -> list[tuple[int, int]]:
        """Spans of the ``kinds`` nodes that fit in ``size`` code points, counted from the
        start of their line when only blanks precede them there (their indentation)."""
        out = []
        for node in ast.walk(self.tree):
            if isinstance(node, kinds):
                a, b = self.span(node)
                if self.data.startswith(b"elif", a):  # ast's nesting, not a statement
                    continue
                line = self.data.rfind(b"\n", 0, a) + 1
                if not self.data[line:a].strip():
                    a = line
                if len(self.data[a:b].decode("utf-8")) <= size:
                    out.append((a, b))
        return out

    def scope_path(self, a: int, b: int) -> tuple[str, ...] | None:
        """``ast``'s definitions holding all the code tokens in bytes ``[a, b)``; ``None``
        if there are none (a chunk of comments)."""
        starts = [s for s, _ in self.code]
        lo = max(0, bisect_right(starts, a) - 1)
        toks = [(s, e) for s, e in self.code[lo : bisect_left(starts, b)] if e > a and s < b]
        if not toks:
            return None
        first, last = max(a, toks[0][0]), min(b, toks[-1][1])
        path: list[str] = []

        def visit(node: Any) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    s, e = self.span(child)
                    if s <= first and last <= e:
                        kind = "class" if isinstance(child, ast.ClassDef) else "def"
                        path.append(f"{kind} {child.name}")
                        visit(child)
                        return
                elif hasattr(child, "body") or isinstance(child, ast.match_case):
                    visit(child)

        visit(self.tree)
        return tuple(path)


def check_cover(text: str, chunks: list[Any]) -> None:
    """Offsets exact in code points and bytes; chunks in order; only whitespace left out."""
    data = text.encode("utf-8")
    prev = 0
    for i, c in enumerate(chunks):
        assert c.index == i
        assert text[c.start : c.end] == c.text
        assert data[c.byte_start : c.byte_end] == c.text.encode("utf-8")
        assert c.start >= prev and c.text.strip(), (i, c.start, prev)
        gap = text[prev : c.start]
        assert not gap or gap.isspace(), (i, gap[:80])
        prev = c.end
    assert not text[prev:] or text[prev:].isspace()


def inside(spans: list[tuple[int, int]], chunks: list[Any]) -> list[tuple[int, int]]:
    """The spans some chunk boundary cuts."""
    cuts = sorted({c.byte_start for c in chunks} | {c.byte_end for c in chunks})
    return [(a, b) for a, b in spans if bisect_right(cuts, a) < bisect_left(cuts, b)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_stdlib_judged_by_ast(path: Path, size: int) -> None:
    text = path.read_text(encoding="utf-8")
    chunks = CodeChunker(size, language="python").split(text)
    check_cover(text, chunks)
    assert all(len(c.text) <= size for c in chunks)
    judge = Judge(text)
    defs = judge.fitting(size, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    assert inside(defs, chunks) == [], "definitions that fit were cut"
    statements = judge.fitting(size, (ast.stmt,))
    assert inside(statements, chunks) == [], "statements that fit were cut"
    for c in chunks:
        want = judge.scope_path(c.byte_start, c.byte_end)
        if want is not None:
            assert c.metadata["scope_path"] == want, c.text[:200]
        assert c.metadata["language"] == "python"


def native_and_reference(text: str, size: int, **kw: Any) -> tuple[list[Any], list[Any]]:
    pytest.importorskip("tree_sitter_python", reason="the reference needs the code extra")
    native = CodeChunker(size, language="python", **kw).split(text, {"k": 1})
    ref = ferrochunk.reference.CodeChunker(size, language="python", **kw).split(text, {"k": 1})
    return native, ref


def facts(chunks: list[Any]) -> list[tuple[Any, ...]]:
    return [
        (c.text, c.start, c.end, c.byte_start, c.byte_end, c.index, dict(c.metadata))
        for c in chunks
    ]


@pytest.mark.parametrize("size", (120, 800))
@pytest.mark.parametrize("path", FILES[::4], ids=IDS[::4])
def test_native_equals_reference(path: Path, size: int) -> None:
    text = path.read_text(encoding="utf-8")
    native, ref = native_and_reference(text, size, embedding_text=True)
    assert facts(native) == facts(ref)


@pytest.mark.parametrize("size", (40, 120, 800))
@pytest.mark.parametrize("path", FILES[::4], ids=IDS[::4])
def test_cut_reasons_judged_by_ast(path: Path, size: int) -> None:
    """Rust == reference, one reason per chunk, and each true of the text by ``ast`` and
    ``tokenize``: a ``definition`` cut ends a definition or has one start after it (past
    blank and comment lines), a ``statement`` or ``line`` cut ends a line, a ``token`` cut
    does not, a ``character`` cut falls inside a line too long for a chunk."""
    pytest.importorskip("tree_sitter_python", reason="the reference needs the code extra")
    text = path.read_text(encoding="utf-8")
    chunker = CodeChunker(size, language="python")
    chunks, cuts = chunker.split(text), [c.reason for c in chunker.cuts(text)]
    assert cuts == [
        c.reason for c in ferrochunk.reference.CodeChunker(size, language="python").cuts(text)
    ]
    assert len(cuts) == len(chunks) and cuts.index("end") == len(cuts) - 1
    judge = Judge(text)
    data = judge.data
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    spans = [judge.span(n) for n in ast.walk(judge.tree) if isinstance(n, kinds)]

    def only_comments(a: int, b: int) -> bool:
        lines = data[a:b].decode("utf-8").split("\n")
        return all(not line.strip() or line.strip().startswith("#") for line in lines)

    for reason, c, after in zip(cuts, chunks, chunks[1:]):
        end = c.byte_end
        line_end = data.find(b"\n", end)
        at_line_end = not data[end : len(data) if line_end < 0 else line_end].strip()
        if reason == "definition":
            assert any(e == end for _, e in spans) or any(
                end <= s < after.byte_end and only_comments(end, s) for s, _ in spans
            ), c.text[-80:]
        elif reason in ("statement", "line"):
            assert at_line_end, c.text[-80:]
        elif reason == "token":
            assert not at_line_end, c.text[-80:]
        else:
            assert reason == "character" and not at_line_end, (reason, c.text[-80:])
            line = data[data.rfind(b"\n", 0, end) + 1 : line_end].decode("utf-8").rstrip()
            assert len(line) > size  # indentation counted, as the chunks count it


BROKEN = """import os

def good(a):
    return a + 1

def broken(:
    x = = 2
    ))) ]]
    return "ünïcode 字"

class Fine:
    def m(self):
        return 1
"""


@pytest.mark.parametrize("size", (1, 5, 20, 60, 1000))
def test_syntax_errors_are_kept_by_lines(size: int) -> None:
    chunks = CodeChunker(size, language="python").split(BROKEN)
    check_cover(BROKEN, chunks)
    assert all(len(c.text) <= size for c in chunks)
    if size == 60:
        assert any("def good(a):\n    return a + 1" in c.text for c in chunks)
        assert any("))) ]]" in c.text for c in chunks)
    native, ref = native_and_reference(BROKEN, size)
    assert facts(native) == facts(ref)


def test_comments_and_decorators_stay_with_their_definition() -> None:
    code = (
        "x = 1\n\n\n# what f does\n# in two lines\n@decorate\ndef f():\n"
        '    """Doc."""\n    return 1\n'
    )
    chunks = CodeChunker(80, language="python").split(code)
    assert [c.text for c in chunks] == ["x = 1", code[code.index("# what") :].rstrip()]
    assert chunks[1].metadata["scope_path"] == ("def f",)


def test_an_oversize_definition_is_cut_at_its_statements() -> None:
    body = "".join(f"        v{i} = {i} * {i}\n" for i in range(30))
    code = f"class Parser:\n    def parse(self, text):\n{body}        \n"
    chunks = CodeChunker(100, language="python", embedding_text=True).split(code)
    check_cover(code, chunks)
    for c in chunks[1:]:
        assert c.text.lstrip().startswith("v"), c.text  # a statement's start
        assert c.metadata["scope_path"] == ("class Parser", "def parse")
        sigs = "class Parser:\ndef parse(self, text):\n"
        assert c.metadata["embedding_text"] == sigs + c.text
    assert chunks[0].text.startswith("class Parser:\n    def parse(self, text):\n        v0")


def test_small_neighbours_merge_up_to_the_size() -> None:
    code = "import a\nimport b\n\ndef f():\n    pass\n\ndef g():\n    pass\n"
    chunks = CodeChunker(1000, language="python").split(code)
    assert [c.text for c in chunks] == [code.rstrip()]
    assert chunks[0].metadata["scope_path"] == ()
    two = CodeChunker(40, language="python").split(code)
    cut = code.index("\n\ndef g")
    assert [c.text for c in two] == [code[:cut], code[cut:].strip()]
    assert [c.metadata["scope_path"] for c in two] == [(), ("def g",)]
    three = CodeChunker(30, language="python").split(code)
    assert [c.metadata["scope_path"] for c in three] == [(), ("def f",), ("def g",)]


def test_unicode_offsets_and_long_lines() -> None:
    code = "s = '" + "字é𝄞" * 200 + "'\n# ünï " + "x" * 500 + "\n"
    for size in (1, 7, 50):
        chunks = CodeChunker(size, language="python").split(code)
        check_cover(code, chunks)
        assert all(len(c.text) <= size for c in chunks)
        native, ref = native_and_reference(code, size)
        assert facts(native) == facts(ref)


def test_token_sizes() -> None:
    enc = ferrochunk.get_encoding("cl100k_base")
    text = FILES[0].read_text(encoding="utf-8")
    chunks = CodeChunker(100, language="python", length_function=enc.length_function()).split(text)
    check_cover(text, chunks)
    assert all(enc.count(c.text) <= 100 for c in chunks)
    by_python = CodeChunker(100, language="python", length_function=lambda s: enc.count(s))
    assert facts(by_python.split(text)) == facts(chunks)


def test_a_length_that_is_no_count_runs_on_the_reference() -> None:
    pytest.importorskip("tree_sitter_python", reason="the reference needs the code extra")
    code = "def f():\n    return 1\n\ndef g():\n    return 2\n"
    chunks = CodeChunker(30, language="python", length_function=lambda s: len(s) / 1).split(code)
    assert [c.metadata["scope_path"] for c in chunks] == [("def f",), ("def g",)]


def test_batch_pickle_and_bad_input() -> None:
    chunker = CodeChunker(200, language="py")
    texts = [BROKEN, "def f():\n    pass\n", ""]
    one_by_one = [facts(chunker.split(t)) for t in texts]
    for threads in (1, 2, None):
        assert [facts(x) for x in chunker.split_batch(texts, threads=threads)] == one_by_one
    counter = ferrochunk.get_encoding("cl100k_base").length_function()
    by_tokens = CodeChunker(20, language="python", length_function=counter)
    assert [facts(x) for x in by_tokens.split_batch(texts, [{"i": 1}] * 3, threads=2)] == [
        facts(by_tokens.split(t, {"i": 1})) for t in texts
    ]
    clone = pickle.loads(pickle.dumps(chunker))
    assert facts(clone.split(BROKEN)) == facts(chunker.split(BROKEN))
    assert chunker.split("   \n\n") == []
    with pytest.raises(ValueError, match="language must be one of"):
        CodeChunker(100, language="cobol")
    with pytest.raises(ValueError, match="chunk_size"):
        CodeChunker(0, language="python")
    with pytest.raises(TypeError, match="chunk_size"):
        CodeChunker("10", language="python")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lone surrogate"):
        chunker.split("x = '\ud800'")
    with pytest.raises(ValueError, match="set by the chunker"):
        chunker.split("x = 1", {"scope_path": 1})
    with pytest.raises(TypeError, match="texts\\[1\\]"):
        chunker.split_batch(["x", 3])  # type: ignore[list-item]
