"""Run tiktoken's own test suite against ``ferrochunk.tiktoken``.

Its test files are not copied into this repository: they come from the sdist of tiktoken
:data:`VERSION`, fetched from PyPI with ``pip download`` once and kept in
``~/.cache/ferrochunk/`` (``$XDG_CACHE_HOME/ferrochunk``; or taken from
``$FERROCHUNK_TIKTOKEN_SDIST``, a path to that ``.tar.gz``), so later runs need no network.
They run in a subprocess whose ``tiktoken`` IS ``ferrochunk.tiktoken`` (a stand-in package
first on ``PYTHONPATH``, so the test that starts a fresh interpreter gets it too); a
generated ``conftest.py`` checks the alias before any test runs.

    python tests/tiktoken_suite.py          # prints the count and every failing test

``tests/test_tiktoken_suite.py`` runs the same from the test suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import sdists

VERSION = "0.14.0"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ferrochunk"
TEST_FILES = (
    "tests/__init__.py",
    "tests/test_encoding.py",
    "tests/test_helpers.py",
    "tests/test_misc.py",
    "tests/test_offsets.py",
    "tests/test_pickle.py",
    "tests/test_simple_public.py",
)
# The stand-in package: ``import tiktoken`` gives ferrochunk.tiktoken.
SHIM = '''"""tiktoken aliased to ferrochunk.tiktoken (tests/tiktoken_suite.py)."""
import sys

import ferrochunk.tiktoken

sys.modules[__name__] = ferrochunk.tiktoken
'''
CONFTEST = '''"""Checks that the tests get ferrochunk's tiktoken (tests/tiktoken_suite.py)."""
import ferrochunk.tiktoken
import tiktoken

assert tiktoken is ferrochunk.tiktoken, tiktoken
'''


Unavailable = sdists.Unavailable  # the suite cannot be had here (no sdist, bad layout)


@dataclass
class Report:
    """What the run of tiktoken's tests gave, by test id."""

    outcomes: dict[str, str] = field(default_factory=dict)
    details: dict[str, str] = field(default_factory=dict)
    output: str = ""

    def named(self, outcome: str) -> list[str]:
        return sorted(k for k, v in self.outcomes.items() if v == outcome)


def fetch_sdist(cache: Path = CACHE) -> Path:
    """``$FERROCHUNK_TIKTOKEN_SDIST``, the cached sdist, or PyPI's (into the cache)."""
    return sdists.fetch_sdist(f"tiktoken=={VERSION}", cache, env="FERROCHUNK_TIKTOKEN_SDIST")


def extract_tests(sdist: Path, dest: Path) -> Path:
    """:data:`TEST_FILES` extracted into ``dest/tests``; returns that folder."""
    with tarfile.open(sdist) as tar:
        members = {m.name.split("/", 1)[-1]: m for m in tar.getmembers() if m.isfile()}
        for wanted in TEST_FILES:
            member = members.get(wanted)
            source = None if member is None else tar.extractfile(member)
            if source is None:
                raise Unavailable(f"{sdist.name} has no {wanted}")
            target = dest / wanted
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read())
    return dest / "tests"


def run_tests(workdir: Path, tests: Path) -> Report:
    """Run tiktoken's tests on ferrochunk's ``Encoding`` in a fresh interpreter."""
    junit = workdir / "junit.xml"
    shim = workdir / "shim" / "tiktoken"
    shim.mkdir(parents=True, exist_ok=True)
    (shim / "__init__.py").write_text(SHIM, encoding="utf-8")
    (workdir / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(shim.parent), env.get("PYTHONPATH")]))
    cmd = [sys.executable, "-m", "pytest", str(tests), "-c", os.devnull]
    cmd += ["--rootdir", str(workdir), "-p", "no:cacheprovider", "-q", "-rfEs"]
    cmd += [f"--junitxml={junit}"]
    done = subprocess.run(
        cmd, capture_output=True, text=True, env=env, cwd=workdir, timeout=600, check=False
    )
    report = Report(output=done.stdout + done.stderr)
    if not junit.is_file():
        raise RuntimeError(f"tiktoken's tests did not run:\n{report.output[-3000:]}")
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = f"{case.get('classname', '?').rsplit('.', 1)[-1]}::{case.get('name', '?')}"
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed", "error": "error"}.get(child.tag, "skipped")
                report.details[name] = (child.get("message") or "")[:500]
        report.outcomes[name] = outcome
    return report


def run(workdir: Path) -> Report:
    """Fetch (or reuse), extract and run; :class:`Unavailable` when the tests cannot be had."""
    return run_tests(workdir, extract_tests(fetch_sdist(), workdir))


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        try:
            report = run(Path(tmp))
        except Unavailable as err:
            print(f"tiktoken's tests unavailable: {err}")
            return 0
    bad = report.named("failed") + report.named("error") + report.named("skipped")
    print(f"tiktoken {VERSION}: {len(report.named('passed'))} of {len(report.outcomes)} passed")
    for name in bad:
        print(f"{report.outcomes[name].upper()} {name}: {report.details.get(name, '')}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
