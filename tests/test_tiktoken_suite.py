"""tiktoken 0.14.0's own test suite passes with ``tiktoken`` aliased to
``ferrochunk.tiktoken`` (see ``tiktoken_suite.py``; skipped only when the sdist is neither
cached nor downloadable)."""

from __future__ import annotations

import pytest

import tiktoken_suite

EXPECTED = 33  # every test of tiktoken 0.14.0's suite, parametrised cases counted


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tiktoken_suite.Report:
    try:
        return tiktoken_suite.run(tmp_path_factory.mktemp("tiktoken"))
    except tiktoken_suite.Unavailable as err:
        pytest.skip(f"tiktoken's tests unavailable: {err}")


def test_tiktoken_suite_passes(report: tiktoken_suite.Report) -> None:
    bad = [n for n, outcome in report.outcomes.items() if outcome != "passed"]
    lines = [f"{report.outcomes[n]} {n}: {report.details.get(n, '')}" for n in bad]
    assert not bad, "tiktoken tests not passing on ferrochunk:\n" + "\n".join(lines)
    assert len(report.named("passed")) == EXPECTED, report.output[-2000:]


def test_tiktoken_is_not_patched_here() -> None:
    """The alias lives only in the subprocess: here tiktoken stays the oracle."""
    import tiktoken

    assert tiktoken.Encoding.__module__ == "tiktoken.core"
