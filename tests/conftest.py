"""Shared fixtures: the corpus, the two implementations, the hypothesis profile."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

import ferrochunk
import ferrochunk.reference

settings.register_profile(
    "ferrochunk",
    deadline=None,
    max_examples=int(os.environ.get("FERROCHUNK_MAX_EXAMPLES", 200)),
)
settings.load_profile("ferrochunk")

# Read in place, never copied into the repo (see the brief).
CORPUS = (Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus").resolve()
CORPUS_SUFFIXES = (".md", ".txt")

IMPLS = {"native": ferrochunk, "reference": ferrochunk.reference}


def corpus_files() -> list[Path]:
    """Every text file of the shared corpus, sorted (empty when the corpus is absent)."""
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in CORPUS_SUFFIXES)


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The shared corpus folder; tests using it skip when it is missing."""
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="session")
def corpus_paths(corpus_dir: Path) -> list[Path]:
    """All corpus files (``.md``, ``.txt``)."""
    return corpus_files()


@pytest.fixture(scope="session", params=sorted(IMPLS))
def impl(request: pytest.FixtureRequest):
    """``ferrochunk`` or ``ferrochunk.reference``: the same public surface, two engines."""
    return IMPLS[request.param]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise ``corpus_file`` with every corpus file, named by its relative path."""
    if "corpus_file" in metafunc.fixturenames:
        files = corpus_files()
        ids = [str(p.relative_to(CORPUS)) for p in files]
        if not files:
            files, ids = [None], ["no-corpus"]
        metafunc.parametrize("corpus_file", files, ids=ids)


@pytest.fixture
def corpus_text(corpus_file: Path | None) -> str:
    """The text of one corpus file."""
    if corpus_file is None:
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return corpus_file.read_text(encoding="utf-8")
