"""LangChain's own tests of the splitters pass with ``langchain_text_splitters`` aliased to
``ferrochunk.langchain`` (see ``langchain_suite.py``; skipped only when the sdist is neither
cached nor downloadable)."""

from __future__ import annotations

from pathlib import Path

import pytest

import langchain_suite

# One test per class of LangChain's __all__ (or more), which must have run and passed.
EXPECTED = (
    "test_character_text_splitter",
    "test_iterative_text_splitter",
    "test_md_header_text_splitter_with_custom_headers",
    "test_md_header_text_splitter_fenced_code_block",
    "test_markdown_code_splitter",
    "test_experimental_markdown_syntax_text_splitter",
    "test_python_text_splitter",
    "test_latex_code_splitter",
    "test_jsx_text_splitter",
    "test_split_json",
    "test_html_header_text_splitter",
    "test_section_aware_happy_path_splitting_based_on_header_1_2",
    "test_html_splitter_with_custom_extractor",
    "test_split_text_on_tokens",
    "test_token_text_splitter",
    "test_nltk_text_splitter",
    "test_missing_optional_dependency_raises_importerror",
    "test_no_heavy_imports_on_package_load",
    "test_lazy_getattr_resolves",
)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> langchain_suite.Report:
    try:
        return langchain_suite.run(tmp_path_factory.mktemp("langchain"))
    except langchain_suite.Unavailable as err:
        pytest.skip(f"LangChain's unit tests unavailable: {err}")


def _base(name: str) -> str:
    """``module::test_x[param]`` -> ``test_x``."""
    return name.split("::")[-1].split("[")[0]


def test_langchain_unit_tests_pass(report: langchain_suite.Report) -> None:
    failed = report.named("failed") + report.named("error")
    unexpected = [n for n in failed if _base(n) not in langchain_suite.KNOWN_FAILURES]
    lines = [f"{name}: {report.details.get(name, '')}" for name in unexpected]
    assert not unexpected, "LangChain tests failing on ferrochunk:\n" + "\n".join(lines)


def test_known_failures_still_fail(report: langchain_suite.Report) -> None:
    passed = {_base(n) for n in report.named("passed")}
    fixed = [n for n in langchain_suite.KNOWN_FAILURES if n in passed]
    assert not fixed, f"now passing, remove from KNOWN_FAILURES: {fixed}"


def test_suite_is_not_vacuous(report: langchain_suite.Report) -> None:
    """The run executed LangChain's tests of every class, none skipped, none of the
    deselected ones."""
    ran = {_base(n) for n in report.named("passed")}
    assert len(report.named("passed")) >= 160, report.output[-2000:]
    assert not [n for n in EXPECTED if n not in ran], report.output[-2000:]
    assert not report.named("skipped"), report.details
    assert not ran & set(langchain_suite.DESELECTED)


def test_langchain_is_not_patched_here() -> None:
    """The alias lives only in the subprocess: here LangChain must stay the oracle."""
    import langchain_text_splitters

    assert langchain_text_splitters.RecursiveCharacterTextSplitter.__module__ == (
        "langchain_text_splitters.character"
    )


def test_sdist_override_must_exist(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("FERROCHUNK_LANGCHAIN_SDIST", str(tmp_path / "missing.tar.gz"))
    with pytest.raises(langchain_suite.Unavailable, match="is not a file"):
        langchain_suite.fetch_sdist(tmp_path)


def test_cached_sdist_is_used_without_pip(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Once the sdist is in the cache, no download is attempted (CI reuses it)."""
    monkeypatch.delenv("FERROCHUNK_LANGCHAIN_SDIST", raising=False)
    cached = (
        tmp_path
        / f"langchain_text_splitters-{langchain_suite.version('langchain-text-splitters')}.tar.gz"
    )
    cached.write_bytes(b"")

    def no_pip(*args: object, **kwargs: object) -> None:
        raise AssertionError("pip download ran although the sdist was cached")

    monkeypatch.setattr(langchain_suite.subprocess, "run", no_pip)
    assert langchain_suite.fetch_sdist(tmp_path) == cached
