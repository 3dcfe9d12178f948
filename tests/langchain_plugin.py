"""pytest plugin that runs LangChain's own splitter tests against ferrochunk's classes.

Loaded with ``-p langchain_plugin`` by ``langchain_suite.py`` in a subprocess, so it is
imported before LangChain's test module and its ``from langchain_text_splitters import …``
lines bind ferrochunk's classes. Tests of classes ferrochunk does not provide are deselected
by name (``langchain_suite.DESELECTED``, each with the reason).

Never import this module in the main test process: importing it patches LangChain, and the
differential tests would then compare ferrochunk with itself.
"""

from __future__ import annotations

import langchain_text_splitters
import langchain_text_splitters.base
import langchain_text_splitters.character
import pytest

import ferrochunk
from langchain_suite import DESELECTED

# The names LangChain's tests import that ferrochunk replaces.
REPLACED = ("CharacterTextSplitter", "Language", "RecursiveCharacterTextSplitter", "TextSplitter")


def _patch() -> None:
    for module in (
        langchain_text_splitters,
        langchain_text_splitters.base,
        langchain_text_splitters.character,
    ):
        for name in REPLACED:
            if hasattr(module, name):
                setattr(module, name, getattr(ferrochunk, name))


_patch()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the listed tests, and check the patch reached LangChain's test module."""
    kept, dropped = [], []
    for item in items:
        name = getattr(item, "originalname", item.name)
        (dropped if name in DESELECTED else kept).append(item)
        module = getattr(item, "module", None)
        for replaced in REPLACED:
            bound = getattr(module, replaced, None)
            if bound is not None and bound is not getattr(ferrochunk, replaced):
                raise pytest.UsageError(f"{replaced} in {module} is not ferrochunk's")
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_configure(config: pytest.Config) -> None:
    """LangChain's conftest (not extracted) registers this marker."""
    config.addinivalue_line("markers", "requires(*packages): test needs optional packages")
