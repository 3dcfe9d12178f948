"""Run LangChain's own unit tests for the splitters against ferrochunk's classes.

Their test file is not copied into this repository: it comes from the sdist of the installed
``langchain-text-splitters`` version, fetched from PyPI with ``pip download`` into a
temporary folder (or taken from ``$FERROCHUNK_LANGCHAIN_SDIST``, a path to that
``.tar.gz``, for offline runs), then run by pytest in a subprocess with
``langchain_plugin.py``, which swaps in ferrochunk's classes and deselects the tests of
classes ferrochunk does not provide.

    python tests/langchain_suite.py          # prints every failing LangChain test

``tests/test_langchain_suite.py`` runs the same from the test suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = "langchain-text-splitters"
TEST_FILE = "tests/unit_tests/test_text_splitters.py"

# LangChain tests of what ferrochunk does not provide, deselected by name, with why.
_CODE_SUBCLASSES = "a LangChain subclass of its own RecursiveCharacterTextSplitter"
_HTML = "HTML splitters (not provided by ferrochunk)"
_MARKDOWN = "Markdown header splitters (not provided by ferrochunk)"
_JSON = "RecursiveJsonSplitter (not provided by ferrochunk)"
_PACKAGE = "tests LangChain's package layout and lazy imports, not the splitters"

DESELECTED: dict[str, str] = {
    "test_no_heavy_imports_on_package_load": _PACKAGE,
    "test_missing_optional_dependency_raises_importerror": "NLTK, spaCy, konlpy splitters",
    "test_lazy_getattr_resolves": _PACKAGE,
    "test_lazy_getattr_raises_for_unknown": _PACKAGE,
    "test_python_text_splitter": f"PythonCodeTextSplitter, {_CODE_SUBCLASSES}",
    "test_jsx_text_splitter": f"JSFrameworkTextSplitter, {_CODE_SUBCLASSES}",
    "test_vue_text_splitter": f"JSFrameworkTextSplitter, {_CODE_SUBCLASSES}",
    "test_svelte_text_splitter": f"JSFrameworkTextSplitter, {_CODE_SUBCLASSES}",
    "test_jsx_splitter_separator_not_mutated_across_calls": "JSFrameworkTextSplitter",
    "test_md_header_text_splitter_1": _MARKDOWN,
    "test_md_header_text_splitter_2": _MARKDOWN,
    "test_md_header_text_splitter_3": _MARKDOWN,
    "test_md_header_text_splitter_preserve_headers_1": _MARKDOWN,
    "test_md_header_text_splitter_preserve_headers_2": _MARKDOWN,
    "test_md_header_text_splitter_fenced_code_block": _MARKDOWN,
    "test_md_header_text_splitter_fenced_code_block_interleaved": _MARKDOWN,
    "test_md_header_text_splitter_with_invisible_characters": _MARKDOWN,
    "test_md_header_text_splitter_with_custom_headers": _MARKDOWN,
    "test_md_header_text_splitter_mixed_headers": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_header_configuration": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_with_headers": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_split_lines": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_on_multi_files": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_split_lines_on_multi_files": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_with_header_on_multi_files": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_header_config_on_multi_files": _MARKDOWN,
    "test_html_header_text_splitter": _HTML,
    "test_additional_html_header_text_splitter": _HTML,
    "test_html_no_headers_with_multiple_splitters": _HTML,
    "test_section_aware_happy_path_splitting_based_on_header_1_2": _HTML,
    "test_happy_path_splitting_based_on_header_with_font_size": _HTML,
    "test_happy_path_splitting_based_on_header_with_whitespace_chars": _HTML,
    "test_happy_path_splitting_with_duplicate_header_tag": _HTML,
    "test_split_text_on_tokens": "token splitting (Tokenizer, split_text_on_tokens)",
    "test_decode_returns_no_chunks": "token splitting (Tokenizer, split_text_on_tokens)",
    "test_split_json": _JSON,
    "test_split_json_with_lists": _JSON,
    "test_split_json_many_calls": _JSON,
    "test_split_json_with_empty_dict_values": _JSON,
    "test_split_json_with_nested_empty_dicts": _JSON,
    "test_split_json_empty_dict_only": _JSON,
    "test_split_json_mixed_empty_and_nonempty_dicts": _JSON,
    "test_split_json_empty_dict_value_in_large_payload": _JSON,
    "test_split_json_non_dict_input_raises": _JSON,
    "test_split_json_list_without_convert_lists_error_mentions_escape_hatch": _JSON,
    "test_split_json_list_with_convert_lists_still_works": _JSON,
    "test_split_json_none_input_returns_empty_list": _JSON,
    "test_split_json_none_input_returns_empty_list_with_convert_lists": _JSON,
    "test_split_json_convert_lists_true_non_list_no_misleading_hint": _JSON,
    **{
        f"test_html_splitter_{name}": _HTML
        for name in (
            "with_custom_extractor",
            "with_href_links",
            "with_nested_elements",
            "with_preserved_elements",
            "with_nested_preserved_elements",
            "with_nested_div_preserved",
            "preserve_nested_in_paragraph",
            "with_no_further_splits",
            "with_small_chunk_size",
            "with_denylist_tags",
            "with_external_metadata",
            "with_text_normalization",
            "with_allowlist_tags",
            "with_mixed_preserve_and_filter",
            "with_no_headers",
            "with_media_preservation",
            "keep_separator_true",
            "keep_separator_false",
            "keep_separator_start",
            "keep_separator_end",
            "keep_separator_default",
            "preserved_elements_reverse_order",
            "replacement_order",
        )
    },
}

# LangChain tests expected to fail against ferrochunk, with why (an unexpected pass fails too).
KNOWN_FAILURES: dict[str, str] = {}


class Unavailable(Exception):
    """LangChain's tests cannot be had here (no network, no sdist, layout changed)."""


@dataclass
class Report:
    """What the run of LangChain's tests gave, by test id."""

    version: str
    outcomes: dict[str, str] = field(default_factory=dict)
    details: dict[str, str] = field(default_factory=dict)
    output: str = ""

    def named(self, outcome: str) -> list[str]:
        return sorted(k for k, v in self.outcomes.items() if v == outcome)


def fetch_sdist(dest: Path) -> Path:
    """The sdist of the installed version: ``$FERROCHUNK_LANGCHAIN_SDIST`` or PyPI."""
    given = os.environ.get("FERROCHUNK_LANGCHAIN_SDIST")
    if given:
        if not Path(given).is_file():
            raise Unavailable(f"FERROCHUNK_LANGCHAIN_SDIST={given} is not a file")
        return Path(given)
    wanted = f"{PACKAGE}=={version(PACKAGE)}"
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
    try:
        done = subprocess.run(
            [*cmd, "--quiet", "--disable-pip-version-check", "-d", str(dest), wanted],
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        raise Unavailable(f"pip download {wanted} failed: {err}") from None
    found = sorted(dest.glob("*.tar.gz"))
    if done.returncode or not found:
        raise Unavailable(f"pip download {wanted} failed: {done.stderr.strip()[-500:]}")
    return found[0]


def extract_tests(sdist: Path, dest: Path) -> Path:
    """Extract LangChain's splitter test module (only that file) into ``dest``."""
    with tarfile.open(sdist) as tar:
        members = [m for m in tar.getmembers() if m.isfile() and m.name.endswith(TEST_FILE)]
        if not members:
            raise Unavailable(f"{sdist.name} has no {TEST_FILE}")
        source = tar.extractfile(members[0])
        assert source is not None
        target = dest / "test_langchain_text_splitters.py"
        target.write_bytes(source.read())
    return target


def run_tests(test_file: Path) -> Report:
    """Run LangChain's tests on ferrochunk's classes in a fresh interpreter."""
    junit = test_file.with_suffix(".xml")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
    cmd = [sys.executable, "-m", "pytest", str(test_file), "-p", "langchain_plugin"]
    # -c /dev/null: none of our pytest options; no plugin autoloading surprises either.
    cmd += ["-c", os.devnull, "--rootdir", str(test_file.parent), "-p", "no:cacheprovider"]
    cmd += ["-q", "-rfE", f"--junitxml={junit}", "-W", "ignore::DeprecationWarning"]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600, check=False)
    report = Report(version(PACKAGE), output=done.stdout + done.stderr)
    if not junit.is_file():
        raise RuntimeError(f"LangChain's tests did not run:\n{report.output[-3000:]}")
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = case.get("name", "?")
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed", "error": "error"}.get(child.tag, "skipped")
                report.details[name] = (child.get("message") or "")[:500]
        report.outcomes[name] = outcome
    return report


def run(workdir: Path) -> Report:
    """Fetch, extract and run; raises :class:`Unavailable` when the tests cannot be had."""
    return run_tests(extract_tests(fetch_sdist(workdir), workdir))


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        try:
            report = run(Path(tmp))
        except Unavailable as err:
            print(f"LangChain's tests unavailable: {err}")
            return 0
    bad = report.named("failed") + report.named("error")
    print(f"langchain-text-splitters {report.version}: {len(report.named('passed'))} passed")
    for name in bad:
        print(f"FAILED {name}: {report.details.get(name, '')}")
    unexpected = sorted(set(bad) ^ set(KNOWN_FAILURES))
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
