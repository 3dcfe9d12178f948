"""The README says what the code does: its Python examples run, the options, names and
counts it states are the code's, and its links lead somewhere."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from ferrochunk import _native

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SAMPLE = ROOT / "python" / "ferrochunk" / "sample" / "chunking-guide.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def help_of(*command: str) -> str:
    cmd = [sys.executable, "-m", "ferrochunk", *command, "--help"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_it_starts_with_the_two_commands() -> None:
    first = blocks("bash")[0].splitlines()
    assert [line.split()[0] for line in first] == ["./scripts/chunk.sh", "./scripts/test.sh"]
    for line in first:
        assert (ROOT / line.split()[0]).stat().st_mode & 0o111, line


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_python_examples_run(index: int) -> None:
    """Each example runs as written, on the bundled sample as its `text`."""
    code = blocks("python")[index]
    exec(compile(code, f"README.md python block {index}", "exec"), {"text": SAMPLE.read_text()})


def test_chunk_options_it_names_exist() -> None:
    usage = re.search(r"`\./scripts/chunk\.sh PATH… \[(.*?)\]`", README, flags=re.S)
    assert usage, "the chunk.sh usage line moved"
    text = help_of("chunk")
    for option in re.findall(r"--[a-z-]+", usage.group(1)):
        assert option in text, option
    chunkers = re.search(r"--chunker\s+([a-z|]+)", usage.group(1))
    assert chunkers
    for name in chunkers.group(1).split("|"):
        assert re.search(rf"\b{name}\b", text.split("--chunker", 1)[1][:400]), name


def test_bench_options_it_names_exist() -> None:
    text = help_of("bench")
    for option in set(re.findall(r"`ferrochunk bench ([^`]*)`", README)):
        for flag in re.findall(r"--[a-z-]+", option):
            assert flag in text, flag


def test_encodings_it_lists_are_the_bundled_ones() -> None:
    listed = re.search(r'`get_encoding\("cl100k_base"\)` \(([^)]*)\)', README)
    assert listed, "the encodings sentence moved"
    names = {n.strip() for n in listed.group(1).replace("\n", " ").split(",")}
    assert names == set(_native.encoding_names())
    words = {7: "seven", 5: "five", 6: "six", 8: "eight"}
    assert f"only the {words[len(names)]} bundled tiktoken encodings" in README


def test_runtime_dependencies_are_as_stated() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = [re.split(r"[<>=!~ \[]", d)[0] for d in deps]
    assert names == ["tqdm"], names
    assert "one runtime dependency: tqdm" in README


def test_links_lead_to_files_and_headings() -> None:
    for target in re.findall(r"\]\(((?:docs/)?[\w./-]+\.md)(#[\w-]+)?\)", README):
        path, anchor = target
        path = path if path.startswith("docs/") else f"docs/{path}"
        doc = ROOT / path
        assert doc.exists(), path
        if anchor:
            headings = re.findall(r"^#+ (.*)$", doc.read_text(encoding="utf-8"), flags=re.M)
            slugs = {re.sub(r"[^\w -]", "", h).strip().lower().replace(" ", "-") for h in headings}
            assert anchor[1:] in slugs, (path, anchor)


def test_it_stays_short() -> None:
    assert len(README.splitlines()) <= 200
