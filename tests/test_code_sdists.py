"""``CodeChunker`` on real C and C++ from PyPI source distributions (markupsafe's C
speedups, ujson's C and its vendored double-conversion C++), fetched by pip into a cache
(``~/.cache/ferrochunk-code-sdists``), never committed; skipped, saying why, offline.
Held: coverage of every non-whitespace character, exact offsets, sizes, and the Rust
engine equal to the reference (py-tree-sitter, the same grammars)."""

from __future__ import annotations

import importlib.util
import tarfile
from pathlib import Path

import pytest

import ferrochunk
from ferrochunk import CodeChunker
from sdists import Unavailable, fetch_sdist

CACHE = Path.home() / ".cache" / "ferrochunk-code-sdists"
SDISTS = ("markupsafe==3.0.2", "ujson==5.10.0")
LANGUAGES = {".c": "c", ".h": "c", ".cc": "cpp"}


def sources() -> list[tuple[str, str, str]]:
    """``(name, language, text)`` of every C and C++ file of the sdists."""
    try:
        archives = [fetch_sdist(spec, CACHE) for spec in SDISTS]
    except Unavailable as err:
        pytest.skip(f"the C sources cannot be had (offline?): {err}")
    out = []
    for archive in archives:
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                language = LANGUAGES.get(Path(member.name).suffix)
                file = tar.extractfile(member) if member.isfile() else None
                # ujson's three test tables of 6 MB each are data, not code: left out.
                if language and file is not None and member.size <= 1_000_000:
                    text = file.read().decode("utf-8", errors="replace")
                    out.append((member.name, language, text))
    return out


@pytest.fixture(scope="module")
def files() -> list[tuple[str, str, str]]:
    for module in ("tree_sitter_c", "tree_sitter_cpp"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (the code extra)")
    found = sources()
    assert len(found) >= 20, [name for name, _, _ in found]
    return found


@pytest.mark.parametrize("size", (200, 1000))
def test_real_c_and_cpp(files: list[tuple[str, str, str]], size: int) -> None:
    for name, language, text in files:
        native = CodeChunker(size, language=language).split(text)
        data, prev = text.encode(), 0
        for c in native:
            assert text[c.start : c.end] == c.text and len(c.text) <= size, name
            assert data[c.byte_start : c.byte_end] == c.text.encode(), name
            gap = text[prev : c.start]
            assert not gap or gap.isspace(), name
            prev = c.end
        assert not text[prev:] or text[prev:].isspace(), name
        if size == 1000 and len(text) <= 12_000:  # the reference is slow on big files
            ref = ferrochunk.reference.CodeChunker(size, language=language).split(text)
            got = [(c.text, c.start, dict(c.metadata)) for c in native]
            assert got == [(c.text, c.start, dict(c.metadata)) for c in ref], name
