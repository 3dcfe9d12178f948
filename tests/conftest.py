"""Shared fixtures: the corpus (located by ``corpus.py``), the two implementations, and the
hypothesis profile every ``@given`` test runs with (no test sets its own)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

import corpus
import ferrochunk
import ferrochunk.reference

settings.register_profile(
    "ferrochunk",
    deadline=None,
    max_examples=int(os.environ.get("FERROCHUNK_MAX_EXAMPLES", 200)),
)
settings.load_profile("ferrochunk")

IMPLS = {"native": ferrochunk, "reference": ferrochunk.reference}


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The shared corpus folder; tests using it skip when it is missing."""
    return corpus.require()


@pytest.fixture(scope="session")
def markdown_paths(corpus_dir: Path) -> list[Path]:
    """The ``.md`` files of the two Markdown corpora (English, then Chinese)."""
    return corpus.files(*corpus.MARKDOWN, suffixes=(".md",))


@pytest.fixture(scope="session", params=sorted(IMPLS))
def impl(request: pytest.FixtureRequest):
    """``ferrochunk`` or ``ferrochunk.reference``: the same public surface, two engines."""
    return IMPLS[request.param]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise ``corpus_file`` with every corpus file, named by its relative path (one
    ``no-corpus`` case, which skips, when the corpus is absent)."""
    if "corpus_file" in metafunc.fixturenames:
        files = corpus.files()
        ids = [str(p.relative_to(corpus.CORPUS)) for p in files]
        if not files:
            files, ids = [None], ["no-corpus"]
        metafunc.parametrize("corpus_file", files, ids=ids)


@pytest.fixture
def corpus_text(corpus_file: Path | None) -> str:
    """The text of one corpus file."""
    if corpus_file is None:
        pytest.skip(corpus.MISSING)
    return corpus_file.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def nltk_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """NLTK data made offline (a Punkt model and stopwords, see ``nlp_data.py``), on
    ``nltk.data.path`` for the session."""
    pytest.importorskip("nltk")
    from nlp_data import make_nltk_data

    return make_nltk_data(tmp_path_factory.mktemp("nltk_data"))
