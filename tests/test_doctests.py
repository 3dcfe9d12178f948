"""The ``>>>`` examples in ferrochunk's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ferrochunk

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(ferrochunk.__path__, "ferrochunk.")
    if not info.name.endswith("__main__")
)


def test_modules_found() -> None:
    assert (
        "ferrochunk.split.splitter" in MODULES
        and "ferrochunk.reference.split.textsplitter" in MODULES
    )


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
