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

# LangChain tests expected to fail against ferrochunk, with why (an unexpected pass fails too).
KNOWN_FAILURES: dict[str, str] = {
    "test_merge_splits": "calls TextSplitter._merge_splits, a private LangChain method that "
    "ferrochunk's splitters do not have",
}


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
