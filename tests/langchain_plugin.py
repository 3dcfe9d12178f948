"""pytest plugin for LangChain's own splitter tests run against ``ferrochunk.langchain``.

Loaded with ``-p langchain_plugin`` by ``langchain_suite.py`` in a subprocess whose
``langchain_text_splitters`` is the stand-in that aliases ``ferrochunk.langchain``. It checks
that every object LangChain's test modules took from ``langchain_text_splitters`` is
ferrochunk's, deselects the tests of ``langchain_suite.DESELECTED`` (model downloads) and
makes ``nltk.download`` refuse to reach the network.

Never import this module in the main test process: there LangChain must stay the oracle.
"""

from __future__ import annotations

import sys

import langchain_text_splitters
import nltk
import pytest

import ferrochunk.langchain
from langchain_suite import DESELECTED, SUBMODULES
from nlp_data import offline_download

if langchain_text_splitters is not ferrochunk.langchain:
    raise pytest.UsageError("langchain_text_splitters is not aliased to ferrochunk.langchain")
for _name in SUBMODULES:
    if sys.modules[f"langchain_text_splitters.{_name}"].__name__ != f"ferrochunk.langchain.{_name}":
        raise pytest.UsageError(f"langchain_text_splitters.{_name} is not ferrochunk's")
nltk.download = offline_download  # LangChain's NLTK test module downloads punkt_tab first


def _borrowed(module: object) -> list[tuple[str, object]]:
    """Classes and functions a test module bound that claim to come from LangChain's
    package (their ``__module__`` names it) instead of ferrochunk's."""
    out = []
    for name, value in vars(module).items():
        origin = getattr(value, "__module__", "") or ""
        if callable(value) and origin.startswith("langchain_text_splitters"):
            out.append((name, value))
    return out


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the listed tests, and check LangChain's test modules bound ferrochunk's."""
    kept, dropped = [], []
    for item in items:
        name = getattr(item, "originalname", item.name)
        (dropped if name in DESELECTED else kept).append(item)
        borrowed = _borrowed(getattr(item, "module", None))
        if borrowed:
            raise pytest.UsageError(f"{item.module} uses LangChain's own {borrowed}")
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_configure(config: pytest.Config) -> None:
    """Markers LangChain's pyproject registers (its pytest options are not read)."""
    config.addinivalue_line("markers", "requires(*packages): test needs optional packages")
    config.addinivalue_line("markers", "compile: compile-only placeholder")
