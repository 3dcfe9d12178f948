"""The shared corpus: where it is, and what a test does without it. The one place for both
``tests/`` and ``benches/`` (pytest puts this folder on ``sys.path``, see ``pythonpath`` in
pyproject.toml; the benchmark scripts add it themselves).

The corpus is read in place, never copied into the repo: ``../shared/corpus`` beside the
project root, or the folder named by ``FERROCHUNK_CORPUS``. Without it, every test that needs
it skips with :data:`MISSING` (never errors, never passes on no input).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("FERROCHUNK_CORPUS") or ROOT / ".." / "shared" / "corpus").resolve()
MISSING = f"shared corpus not found at {CORPUS} (FERROCHUNK_CORPUS names another folder)"
NAMES = ("en-markdown", "zh-markdown", "en-prose")  # its three corpora
MARKDOWN = ("en-markdown", "zh-markdown")
SUFFIXES = (".md", ".txt")


def files(*names: str, suffixes: tuple[str, ...] = SUFFIXES) -> list[Path]:
    """The corpus files of the named corpora (all of them without names), in path order;
    empty when the corpus is absent (tests then skip through :func:`require`)."""
    if not CORPUS.is_dir():
        return []
    if not names:
        found = CORPUS.rglob("*")
    else:
        found = (p for name in names for p in (CORPUS / name).iterdir())
    return sorted(p for p in found if p.is_file() and p.suffix in suffixes)


def require() -> Path:
    """The corpus folder, or skip the calling test with :data:`MISSING`."""
    if not CORPUS.is_dir():
        pytest.skip(MISSING)
    return CORPUS


def paths(*names: str, suffixes: tuple[str, ...] = SUFFIXES) -> list[Path]:
    """:func:`files`, skipping the calling test when the corpus is absent."""
    require()
    return files(*names, suffixes=suffixes)


@functools.cache
def texts(name: str) -> tuple[str, ...]:
    """Every ``.md``/``.txt`` text of one corpus, in path order (skips when absent)."""
    return tuple(p.read_text(encoding="utf-8") for p in paths(name))


@functools.cache
def paragraphs() -> tuple[str, ...]:
    """Every paragraph (blank-line separated, not blank) of the three corpora: many short
    documents, for the benchmarks."""
    return tuple(p for name in NAMES for t in texts(name) for p in t.split("\n\n") if p.strip())


def megabytes(items: tuple[str, ...]) -> float:
    """UTF-8 size of the texts in MB (10^6 bytes)."""
    return sum(len(t.encode("utf-8")) for t in items) / 1e6
