"""LangChain's own unit tests for the splitters pass with ferrochunk's classes swapped in
(see ``langchain_suite.py``; skipped when the sdist cannot be downloaded)."""

from __future__ import annotations

from pathlib import Path

import pytest

import langchain_suite


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> langchain_suite.Report:
    try:
        return langchain_suite.run(tmp_path_factory.mktemp("langchain"))
    except langchain_suite.Unavailable as err:
        pytest.skip(f"LangChain's unit tests unavailable: {err}")


def test_langchain_unit_tests_pass(report: langchain_suite.Report) -> None:
    failed = report.named("failed") + report.named("error")
    unexpected = [name for name in failed if name not in langchain_suite.KNOWN_FAILURES]
    lines = [f"{name}: {report.details.get(name, '')}" for name in unexpected]
    assert not unexpected, "LangChain tests failing on ferrochunk:\n" + "\n".join(lines)


def test_known_failures_still_fail(report: langchain_suite.Report) -> None:
    fixed = [n for n in langchain_suite.KNOWN_FAILURES if report.outcomes.get(n) == "passed"]
    assert not fixed, f"now passing, remove from KNOWN_FAILURES: {fixed}"


def test_suite_is_not_vacuous(report: langchain_suite.Report) -> None:
    """The run executed LangChain's splitter tests, not just deselected them."""
    ran = report.named("passed")
    assert len(ran) >= 50, report.output[-2000:]
    for expected in ("test_iterative_text_splitter", "test_character_text_splitter"):
        assert expected in ran
    assert not set(ran) & set(langchain_suite.DESELECTED)


def test_langchain_is_not_patched_here() -> None:
    """The patch lives only in the subprocess: here LangChain must stay the oracle."""
    import langchain_text_splitters

    assert langchain_text_splitters.RecursiveCharacterTextSplitter.__module__ == (
        "langchain_text_splitters.character"
    )


def test_sdist_override_must_exist(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("FERROCHUNK_LANGCHAIN_SDIST", str(tmp_path / "missing.tar.gz"))
    with pytest.raises(langchain_suite.Unavailable, match="is not a file"):
        langchain_suite.fetch_sdist(tmp_path)
