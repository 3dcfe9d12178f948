"""The CLI with only the core installed: every ``--help`` works, and a missing extra is one
line naming the extra to install (exit 2), never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support import WITHOUT_MODULES

# Everything an extra installs (and the test tools that would stand in for one).
EXTRAS = (
    "numpy",
    "markdown_it",
    "matplotlib",
    "pyarrow",
    "langchain_core",
    "langchain_text_splitters",
    "tiktoken",
    "tokenizers",
    "transformers",
    "semantic_text_splitter",
)


def without(modules: tuple[str, ...], *args: str, cwd: Path | None = None):
    cmd = [sys.executable, "-c", WITHOUT_MODULES, ",".join(modules), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=cwd)


@pytest.mark.parametrize("args", [[], ["eval"], ["chunk"], ["bench"]])
def test_help_works_with_only_the_core(args: list[str]) -> None:
    result = without(EXTRAS, *args, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: ferrochunk") and result.stderr == ""


@pytest.mark.parametrize(
    ("missing", "package"),
    [(EXTRAS, "numpy"), (("markdown_it",), "markdown-it-py"), (("matplotlib",), "matplotlib")],
)
def test_eval_without_its_extra_is_one_line(
    missing: tuple[str, ...], package: str, tmp_path: Path
) -> None:
    """Checked before any work: without markdown-it-py or matplotlib the run used to end in
    an ImportError traceback after scoring."""
    result = without(missing, "eval", "--questions", "5", "--sizes", "100", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert package in result.stderr and 'pip install "ferrochunk[eval]"' in result.stderr


def test_parquet_without_pyarrow_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "rows.parquet").write_bytes(b"PAR1")
    for args in (["rows.parquet"], ["--out", "chunks.parquet"]):
        result = without(EXTRAS, "chunk", *args, cwd=tmp_path)
        assert result.returncode == 2 and result.stdout == "", result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert 'pip install "ferrochunk[arrow]"' in result.stderr
