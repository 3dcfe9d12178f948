"""The shared corpus, read by relative path (``../shared/corpus`` beside the project root)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"
NAMES = ("en-markdown", "zh-markdown", "en-prose")


@functools.cache
def texts(name: str) -> tuple[str, ...]:
    """Every .md/.txt file of one corpus, in path order; skips the test if it is absent."""
    folder = ROOT / name
    if not folder.is_dir():
        pytest.skip(f"corpus {folder} not found")
    files = sorted(p for p in folder.iterdir() if p.suffix in (".md", ".txt"))
    return tuple(p.read_text(encoding="utf-8") for p in files)


def megabytes(items: tuple[str, ...]) -> float:
    """UTF-8 size of the texts in MB (10^6 bytes)."""
    return sum(len(t.encode("utf-8")) for t in items) / 1e6
