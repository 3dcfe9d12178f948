"""``CodeChunker`` beyond Python: hand-written files in each language, whose definitions,
nesting and sizes are known by hand (tree-sitter would judge itself); every language's
Rust engine against the reference on them, at many sizes."""

# ruff: noqa: E501  (the sources below are literals, wrapped where their lines end)
from __future__ import annotations

import importlib.util
from typing import Any

import pytest

import ferrochunk
from ferrochunk import CodeChunker

# (language, source, {definition text: its scope path}): each definition is written out
# whole in the source, so a chunk holding it whole is checked by plain text search.
CASES: dict[str, tuple[str, dict[str, tuple[str, ...]]]] = {
    "javascript": (
        "import x from 'x';\n\n// Parses.\nclass Parser {\n  parse(text) {\n    return text;\n  }\n\n"
        "  other() {\n    return 1;\n  }\n}\n\nexport function run(a, b) {\n  return a + b;\n}\n",
        {
            "  parse(text) {\n    return text;\n  }": ("class Parser", "parse"),
            "export function run(a, b) {\n  return a + b;\n}": ("function run",),
        },
    ),
    "typescript": (
        "interface Shape {\n  area(): number;\n}\n\nclass Square implements Shape {\n"
        "  constructor(private s: number) {}\n  area(): number {\n    return this.s * this.s;\n  }\n}\n",
        {
            "interface Shape {\n  area(): number;\n}": ("interface Shape",),
            "  area(): number {\n    return this.s * this.s;\n  }": ("class Square", "area"),
        },
    ),
    "rust": (
        "use std::fmt;\n\n/// A point.\n#[derive(Debug)]\nstruct Point {\n    x: i32,\n}\n\nimpl Point {\n"
        "    fn new(x: i32) -> Self {\n        Point { x }\n    }\n\n    fn x(&self) -> i32 {\n"
        "        self.x\n    }\n}\n",
        {
            "/// A point.\n#[derive(Debug)]\nstruct Point {\n    x: i32,\n}": ("struct Point",),
            "    fn new(x: i32) -> Self {\n        Point { x }\n    }": ("impl Point", "fn new"),
        },
    ),
    "go": (
        'package main\n\nimport "fmt"\n\n// Point is a point.\ntype Point struct {\n\tX int\n}\n\n'
        "func (p Point) Show() {\n\tfmt.Println(p.X)\n}\n\nfunc main() {\n\tPoint{1}.Show()\n}\n",
        {
            "func (p Point) Show() {\n\tfmt.Println(p.X)\n}": ("func Show",),
            "func main() {\n\tPoint{1}.Show()\n}": ("func main",),
        },
    ),
    "java": (
        "package a;\n\npublic class Greeter {\n    /** Says hello. */\n    public String hello(String n) {\n"
        '        return "hi " + n;\n    }\n\n    @Override\n    public String toString() {\n'
        '        return "G";\n    }\n}\n',
        {
            '    /** Says hello. */\n    public String hello(String n) {\n        return "hi " + n;\n'
            "    }": ("class Greeter", "hello"),
            '    @Override\n    public String toString() {\n        return "G";\n    }': (
                "class Greeter",
                "toString",
            ),
        },
    ),
    "c": (
        "#include <stdio.h>\n\n/* Adds. */\nstatic int add(int a, int b) {\n    return a + b;\n}\n\n"
        "int *find(int *xs, int n) {\n    return xs + n;\n}\n",
        {
            "/* Adds. */\nstatic int add(int a, int b) {\n    return a + b;\n}": ("add",),
            "int *find(int *xs, int n) {\n    return xs + n;\n}": ("find",),
        },
    ),
    "cpp": (
        "namespace geo {\nclass Box {\n public:\n  int area() const {\n    return w * h;\n  }\n"
        "  int w, h;\n};\n}  // namespace geo\n\ntemplate <typename T>\nT twice(T x) {\n  return x + x;\n}\n",
        {
            "  int area() const {\n    return w * h;\n  }": ("namespace geo", "class Box", "area"),
            "template <typename T>\nT twice(T x) {\n  return x + x;\n}": ("twice",),
        },
    ),
}


def covered(text: str, chunks: list[Any]) -> None:
    prev = 0
    for c in chunks:
        assert text[c.start : c.end] == c.text
        assert text.encode()[c.byte_start : c.byte_end] == c.text.encode()
        gap = text[prev : c.start]
        assert not gap or gap.isspace()
        prev = c.end
    assert not text[prev:] or text[prev:].isspace()


@pytest.mark.parametrize("language", sorted(CASES))
def test_definitions_that_fit_are_whole_with_their_scope(language: str) -> None:
    text, definitions = CASES[language]
    for size in (60, 70, 90, 120):
        chunks = CodeChunker(size, language=language).split(text)
        covered(text, chunks)
        assert all(len(c.text) <= size for c in chunks)
        for body, path in definitions.items():
            assert body in text, body
            if len(body) > size:
                continue
            holding = [c for c in chunks if body in c.text]
            assert holding, f"{language} {size}: cut {body!r}"
            if holding[0].text.strip() == body.strip():
                assert holding[0].metadata["scope_path"] == path


@pytest.mark.parametrize("language", sorted(CASES))
def test_native_equals_reference(language: str) -> None:
    module = {"typescript": "tree_sitter_typescript"}.get(language, f"tree_sitter_{language}")
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (the code extra)")
    text, _ = CASES[language]
    text = text + "\n}}} broken ((( \n" + text  # a syntax error in the middle
    for size in (1, 9, 30, 70, 200, 2000):
        native = CodeChunker(size, language=language, embedding_text=True).split(text)
        ref = ferrochunk.reference.CodeChunker(size, language=language, embedding_text=True)
        want = ref.split(text)
        assert [(c.text, c.start, c.byte_start, dict(c.metadata)) for c in native] == [
            (c.text, c.start, c.byte_start, dict(c.metadata)) for c in want
        ]
        cuts = CodeChunker(size, language=language).cuts(text)
        assert cuts == ref.cuts(text) and len(cuts) == len(native)
        covered(text, native)


def test_every_language_is_listed() -> None:
    assert set(CodeChunker.languages) == {*CASES, "python", "tsx"}
