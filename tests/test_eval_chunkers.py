"""ferrochunk.eval chunker adapters: exact spans from every chunker, the grid, registration."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import ferrochunk
from ferrochunk.eval import (
    CHUNKERS,
    PEERS,
    Config,
    Skip,
    build,
    expand,
    load_grid,
    locate,
    register,
    to_spans,
)

SAMPLE = Path(ferrochunk.__file__).parent / "sample"
TEXTS = [p.read_text(encoding="utf-8") for p in sorted(SAMPLE.iterdir())]
MODULES = {
    "langchain": "langchain_text_splitters",
    "semantic-text-splitter": "semantic_text_splitter",
    "chonkie-recursive": "chonkie",
    "chonkie-token": "chonkie",
    "semchunk": "semchunk",
}


def runnable(name: str) -> bool:
    return name not in MODULES or importlib.util.find_spec(MODULES[name]) is not None


@pytest.mark.parametrize("unit", ["chars", "tokens"])
@pytest.mark.parametrize("name", list(CHUNKERS))
def test_spans_are_exact_and_cover_the_text(name: str, unit: str) -> None:
    if not runnable(name):
        pytest.skip(f"{MODULES[name]} is not installed")
    size = 300 if unit == "chars" else 80
    try:
        split = build(Config(name, size, 0, unit))
    except Skip as why:
        assert name == "tokens" and unit == "chars" and "sized in tokens" in str(why)
        return
    for text in TEXTS:
        spans = split(text)
        assert spans and all(0 <= a < b <= len(text) for a, b in spans)
        covered = set()
        for a, b in spans:
            covered.update(range(a, b))
        lost = [text[i] for i in range(len(text)) if i not in covered and not text[i].isspace()]
        if name == "chonkie-token" and unit == "tokens":  # cuts CJK characters in two
            assert len(lost) < len(spans)
        else:
            assert lost == []


@pytest.mark.parametrize("unit", ["chars", "tokens"])
@pytest.mark.parametrize("overlap", [0, 30])
def test_dropin_spans_equal_native_offsets(unit: str, overlap: int) -> None:
    # the drop-in returns strings (located here); Splitter tracks offsets while splitting
    native = build(Config("splitter", 120, overlap, unit))
    dropin = build(Config("recursive", 120, overlap, unit))
    for text in TEXTS:
        assert dropin(text) == native(text)


def test_locate_follows_the_order_of_repeats() -> None:
    text = "ab ab ab"
    assert locate(text, ["ab", "ab", "ab"]) == [(0, 2), (3, 5), (6, 8)]
    assert locate(text, ["ab ab", "ab ab"], overlap=2) == [(0, 5), (3, 8)]
    with pytest.raises(ValueError, match="not found"):
        locate(text, ["zz"])


def test_to_spans_reads_every_form() -> None:
    class Obj:
        def __init__(self, a: int, b: int, chonkie: bool = False) -> None:
            if chonkie:
                self.start_index, self.end_index = a, b
            else:
                self.start, self.end = a, b

    text = "hello world"
    assert to_spans([(0, 5), (6, 11)], text) == [(0, 5), (6, 11)]
    assert to_spans([Obj(0, 5), Obj(6, 11, chonkie=True)], text) == [(0, 5), (6, 11)]
    assert to_spans(["hello", "world"], text) == [(0, 5), (6, 11)]
    assert to_spans([], text) == []
    with pytest.raises(ValueError, match="outside the text"):
        to_spans([(6, 12)], text)


def test_to_spans_locates_chunks_whose_offsets_are_wrong() -> None:
    class Window:  # a token window that cut 界 (three UTF-8 bytes) in two, offsets drifting
        def __init__(self, a: int, b: int, text: str) -> None:
            self.start_index, self.end_index, self.text = a, b, text

    text = "世界和平"
    got = to_spans([Window(0, 2, "世\ufffd"), Window(2, 5, "\ufffd和平")], text)
    assert got == [(0, 1), (2, 4)]  # 界 is in neither chunk
    with pytest.raises(ValueError, match="not in the text"):
        to_spans([Window(0, 1, "天")], text)


def test_register_a_chunker() -> None:
    register("halves", lambda c: lambda t: [t[: len(t) // 2], t[len(t) // 2 :]])
    try:
        assert build(Config("halves", 10))("abcd") == [(0, 2), (2, 4)]
    finally:
        del CHUNKERS["halves"]


def test_config_and_grid_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="need size > overlap"):
        Config("splitter", 10, 10)
    with pytest.raises(ValueError, match="unit must be"):
        Config("splitter", 10, 0, "words")
    with pytest.raises(ValueError, match="unknown chunker 'nope'"):
        build(Config("nope", 10))
    configs, left_out = expand(["splitter", "markdown"], [50, 100], [0, 50], "tokens")
    assert [c.label for c in configs] == [
        "splitter 50t/0",
        "splitter 100t/0",
        "splitter 100t/50",
        "markdown 50t/0",
        "markdown 100t/0",
        "markdown 100t/50",
    ]
    assert left_out == [
        "splitter size 50 overlap 50 (overlap >= size)",
        "markdown size 50 overlap 50 (overlap >= size)",
    ]
    if "chonkie-recursive" in PEERS and not runnable("chonkie-recursive"):
        with pytest.raises(Skip, match="not installed"):
            build(Config("chonkie-recursive", 10))


def test_grid_files(tmp_path: Path) -> None:
    toml = tmp_path / "grid.toml"
    toml.write_text(
        'unit = "tokens"\nchunkers = ["markdown"]\nsizes = [100, 200]\n'
        '[[configs]]\nchunker = "splitter"\nsize = 500\nunit = "chars"\n',
        encoding="utf-8",
    )
    configs, _ = load_grid(toml)
    assert configs == [
        Config("markdown", 100, 0, "tokens"),
        Config("markdown", 200, 0, "tokens"),
        Config("splitter", 500, 0, "chars"),
    ]
    js = tmp_path / "grid.json"
    js.write_text(
        json.dumps({"chunkers": ["tokens"], "sizes": [64], "overlaps": [8], "unit": "tokens"}),
        "utf-8",
    )
    assert load_grid(js)[0] == [Config("tokens", 64, 8, "tokens")]
    js.write_text(json.dumps({"chunkers": ["tokens"], "size": [64]}), "utf-8")
    with pytest.raises(ValueError, match="unknown key 'size'"):
        load_grid(js)
    toml.write_text("chunkers = [", encoding="utf-8")
    with pytest.raises(ValueError, match=r"grid\.toml"):
        load_grid(toml)
    with pytest.raises(ValueError, match="no such grid file"):
        load_grid(tmp_path / "missing.toml")
