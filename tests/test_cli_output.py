"""``ferrochunk chunk -o FILE``: the pool threads write the JSON Lines file themselves, in
input order (``rust/corpus/write.rs``). The file must hold exactly what standard output gets
(rows handed to Python and written there), whatever the thread count, with streamed files
(written a step at a time by the calling thread) among the grouped ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ferrochunk import _native
from ferrochunk.cli import chunk, main


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """Small files around larger ones that a low ``stream_above`` streams."""
    folder = tmp_path / "in"
    for k in range(40):
        sub = folder / f"d{k // 10}"
        sub.mkdir(parents=True, exist_ok=True)
        words = " ".join(f"w{k}x{i}" + ("\n\n" if i % 17 == 0 else "") for i in range(40 + 90 * k))
        (sub / f"{k:02d}.md").write_text(f"# Doc {k}\n\n" + words, encoding="utf-8")
    return folder


def streaming(monkeypatch: pytest.MonkeyPatch, above: int) -> None:
    def job(args: Any, **kwargs: Any) -> Any:
        return _native.CorpusJob(stream_above=above, **kwargs)

    monkeypatch.setattr(chunk, "_job", job)


@pytest.mark.parametrize("above", [2_000, 32 << 20])
def test_file_written_by_the_pool_equals_stdout(
    mixed: Path, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch, above: int
) -> None:
    streaming(monkeypatch, above)
    assert main(["chunk", str(mixed), "-q", "--threads", "1"]) == 0
    want = capsys.readouterr().out.encode()
    assert want.count(b"\n") > 100
    for threads in ("1", "2", "3"):
        out = tmp_path / f"out-{threads}.jsonl"
        assert main(["chunk", str(mixed), "-q", "-o", str(out), "--threads", threads]) == 0
        assert out.read_bytes() == want, threads


def test_streamed_files_give_the_same_rows(
    mixed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outs = []
    for above in (2_000, 32 << 20):
        streaming(monkeypatch, above)
        out = tmp_path / f"out-{above}.jsonl"
        assert main(["chunk", str(mixed), "-q", "-o", str(out), "--threads", "2"]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_unwritable_output_is_a_usage_error(mixed: Path, tmp_path: Path, capsys) -> None:
    code = main(["chunk", str(mixed), "-o", str(tmp_path / "no" / "such" / "dir.jsonl")])
    assert code == 2 and "cannot write" in capsys.readouterr().err
