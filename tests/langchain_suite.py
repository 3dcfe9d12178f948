"""Run LangChain's own tests of the splitters against ``ferrochunk.langchain``.

Their test files are not copied into this repository: they come from the sdist of the
installed ``langchain-text-splitters`` version, fetched from PyPI with ``pip download`` once
and kept in ``<venv>/ferrochunk-cache/`` (or taken from ``$FERROCHUNK_LANGCHAIN_SDIST``, a
path to that ``.tar.gz``), so later runs need no network at all. They run in a subprocess
whose ``langchain_text_splitters`` IS ``ferrochunk.langchain`` (a stand-in package first on
``PYTHONPATH`` aliases it and every submodule), so every class and function they test is
ours, including the tests that start a fresh interpreter. ``langchain_plugin.py`` checks
that, deselects the tests that need a model download (listed below with why) and keeps NLTK
offline (its Punkt model is trained here, see ``nlp_data.py``).

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

import sdists
from nlp_data import make_nltk_data

HERE = Path(__file__).resolve().parent
PACKAGE = "langchain-text-splitters"
CACHE = Path(sys.prefix) / "ferrochunk-cache"
# LangChain's unit tests, and the integration tests of the classes that have no unit tests
# (NLTK, spaCy, token and sentence-transformers splitters).
TEST_FILES = (
    "tests/unit_tests/conftest.py",
    "tests/unit_tests/test_text_splitters.py",
    "tests/unit_tests/test_html_security.py",
    "tests/integration_tests/test_nlp_text_splitters.py",
    "tests/integration_tests/test_text_splitter.py",
)
SUBMODULES = (
    "base",
    "character",
    "html",
    "json",
    "jsx",
    "konlpy",
    "latex",
    "markdown",
    "nltk",
    "python",
    "sentence_transformers",
    "spacy",
)

# The only tests not run, each needing a model from the Hugging Face hub or spaCy's
# releases (a download; none is reachable here). What they exercise is covered offline by
# tests/test_langchain_dropin.py with the same libraries and local models or stand-ins.
_HUB = "downloads a model from the Hugging Face hub"
_SPACY = "its `spacy` fixture loads the en_core_web_sm model (a download)"
DESELECTED: dict[str, str] = {
    "test_huggingface_tokenizer": f"AutoTokenizer.from_pretrained('gpt2') {_HUB}",
    "test_sentence_transformers_count_tokens": f"SentenceTransformer {_HUB}",
    "test_sentence_transformers_split_text": f"SentenceTransformer {_HUB}",
    "test_sentence_transformers_multiple_tokens": f"SentenceTransformer {_HUB}",
    "test_sentence_transformers_with_additional_model_kwargs": f"SentenceTransformer {_HUB}",
    "test_spacy_text_splitting_args": _SPACY,
    "test_spacy_text_splitter": _SPACY,
    "test_spacy_text_splitter_strip_whitespace": _SPACY,
}

# LangChain tests expected to fail against ferrochunk, with why (an unexpected pass fails too).
KNOWN_FAILURES: dict[str, str] = {}

# The stand-in package: ``import langchain_text_splitters`` gives ferrochunk.langchain.
SHIM = f'''"""langchain_text_splitters aliased to ferrochunk.langchain (langchain_suite.py)."""
import importlib
import sys

import ferrochunk.langchain

for _name in {SUBMODULES!r}:
    _module = importlib.import_module("ferrochunk.langchain." + _name)
    sys.modules["langchain_text_splitters." + _name] = _module
sys.modules[__name__] = ferrochunk.langchain
'''


Unavailable = sdists.Unavailable  # the suite cannot be had here (no sdist, bad layout)


@dataclass
class Report:
    """What the run of LangChain's tests gave, by test id."""

    version: str
    outcomes: dict[str, str] = field(default_factory=dict)
    details: dict[str, str] = field(default_factory=dict)
    output: str = ""

    def named(self, outcome: str) -> list[str]:
        return sorted(k for k, v in self.outcomes.items() if v == outcome)


def fetch_sdist(cache: Path = CACHE) -> Path:
    """The sdist of the installed version: ``$FERROCHUNK_LANGCHAIN_SDIST``, the cached copy,
    or PyPI (``pip download``, into the cache)."""
    wanted = f"{PACKAGE}=={version(PACKAGE)}"
    return sdists.fetch_sdist(wanted, cache, env="FERROCHUNK_LANGCHAIN_SDIST")


def extract_tests(sdist: Path, dest: Path) -> list[Path]:
    """Extract :data:`TEST_FILES` into ``dest`` (as ``unit_tests/...``, ...)."""
    out = []
    with tarfile.open(sdist) as tar:
        members = {m.name.split("/", 1)[-1]: m for m in tar.getmembers() if m.isfile()}
        for wanted in TEST_FILES:
            member = members.get(wanted)
            source = None if member is None else tar.extractfile(member)
            if source is None:
                raise Unavailable(f"{sdist.name} has no {wanted}")
            target = dest / wanted.removeprefix("tests/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read())
            out.append(target)
    return [p for p in out if p.name != "conftest.py"]


def write_shim(dest: Path) -> Path:
    """The stand-in ``langchain_text_splitters`` package under ``dest/shim``."""
    package = dest / "shim" / "langchain_text_splitters"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text(SHIM, encoding="utf-8")
    return package.parent


def run_tests(workdir: Path, test_files: list[Path]) -> Report:
    """Run LangChain's tests on ferrochunk's classes in a fresh interpreter."""
    junit = workdir / "junit.xml"
    env = dict(os.environ)
    path = [str(write_shim(workdir)), str(HERE), env.get("PYTHONPATH")]
    env["PYTHONPATH"] = os.pathsep.join(filter(None, path))
    env["NLTK_DATA"] = str(make_nltk_data(workdir / "nltk_data"))
    cmd = [sys.executable, "-m", "pytest", *map(str, test_files), "-p", "langchain_plugin"]
    # -c /dev/null: none of our pytest options; no plugin autoloading surprises either.
    cmd += ["-c", os.devnull, "--rootdir", str(workdir), "-p", "no:cacheprovider"]
    cmd += ["-q", "-rfEs", f"--junitxml={junit}", "-W", "ignore::DeprecationWarning"]
    done = subprocess.run(
        cmd, capture_output=True, text=True, env=env, cwd=workdir, timeout=600, check=False
    )
    report = Report(version(PACKAGE), output=done.stdout + done.stderr)
    if not junit.is_file():
        raise RuntimeError(f"LangChain's tests did not run:\n{report.output[-3000:]}")
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
    """Fetch (or reuse), extract and run; raises :class:`Unavailable` when the tests cannot
    be had."""
    return run_tests(workdir, extract_tests(fetch_sdist(), workdir))


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
    for name in report.named("skipped"):
        print(f"SKIPPED {name}: {report.details.get(name, '')}")
    unexpected = sorted({n.split("::")[-1].split("[")[0] for n in bad} ^ set(KNOWN_FAILURES))
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
