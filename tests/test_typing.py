"""The package's types as a type checker reads them (issue 36): ``split``'s options are
typed, so a misspelt one is an error, and the chunkers' ``split`` return their chunk class."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")
PYTHON = Path(__file__).resolve().parent.parent / "python"
SNIPPET = """
import ferrochunk
from ferrochunk import MarkdownChunker, Splitter, TextChunker, split

split("a b", 10, seperators=[" "])
split("a b", 10, separators=[" "], keep_separator="end")
reveal_type(MarkdownChunker().split("x"))
reveal_type(TextChunker().split_hierarchy("x"))
reveal_type(Splitter().split_batch(["x"]))
reveal_type(split("x"))
"""


def test_mypy_reads_options_and_chunk_types(tmp_path: Path) -> None:
    (tmp_path / "snippet.py").write_text(SNIPPET, encoding="utf-8")
    command = [sys.executable, "-m", "mypy", "--follow-imports=silent", "snippet.py"]
    command += ["--cache-dir", str(tmp_path / "cache"), "--python-version", "3.11"]
    env = {**os.environ, "MYPYPATH": str(PYTHON)}
    out = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True).stdout
    lines = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("snippet")]
    chunk = "ferrochunk._native.Chunk"
    assert lines == [
        'error: Unexpected keyword argument "seperators" for "split"; did you mean '
        '"separators"?  [call-arg]',
        'note: "split" defined in "ferrochunk.split.splitter"',
        f'note: Revealed type is "list[{chunk}]"',
        f'note: Revealed type is "tuple[list[{chunk}], list[{chunk}]]"',
        f'note: Revealed type is "list[list[{chunk}]]"',
        f'note: Revealed type is "list[{chunk}]"',
    ], out
