"""``ferrochunk chunk``'s inputs (``ferrochunk/cli/inputs.py``): the lazy folder walk gives
the same sources, in the same order, as a plain sorted walk; it walks only as far as it is
asked; the glob matcher equals ``fnmatch``; problems found late are still reported."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ferrochunk.cli import UsageError, inputs, main
from ferrochunk.cli.inputs import DEFAULT_GLOBS, Walk, matches


def sorted_walk(folder: str) -> list[str]:
    """The walk as specified, written the obvious way: in each folder its matching files in
    name order, then its subfolders, each walked the same way, in name order."""
    names = sorted(os.listdir(folder))
    files = [n for n in names if os.path.isfile(os.path.join(folder, n))]
    out = [os.path.join(folder, n) for n in files if matches(n, DEFAULT_GLOBS)]
    for name in names:
        if os.path.isdir(os.path.join(folder, name)):
            out += sorted_walk(os.path.join(folder, name))
    return out


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """Nested folders with matching and other files, names that sort in awkward ways."""
    names = ["b.md", "A.txt", "a.md", "10.md", "2.md", "é.rst", "x.png", "notes.TXT", "d.md.gz"]
    for folder in ["", "sub", "sub/deeper", "Sub2", "sub/deeper/z", "a-folder", "a_folder"]:
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        for k, name in enumerate(names):
            data = b"some text"
            (tmp_path / folder / f"{k % 3}{name}").write_bytes(
                gzip.compress(data) if name.endswith(".gz") else data
            )
    return tmp_path


def test_lazy_walk_is_the_sorted_walk(tree: Path) -> None:
    want = sorted_walk(str(tree))
    assert len(want) > 30
    lazy = [s.path for s in Walk([str(tree)], DEFAULT_GLOBS, "auto")]
    eager = [s.path for s in Walk([str(tree)], DEFAULT_GLOBS, "auto").eager()]
    assert lazy == want and eager == want


def test_walk_goes_only_as_far_as_asked(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    scandir = os.scandir

    def counting(path):  # type: ignore[no-untyped-def]
        read.append(path)
        return scandir(path)

    monkeypatch.setattr(inputs.os, "scandir", counting)
    walk = Walk([str(tree)], DEFAULT_GLOBS, "auto")
    first = next(iter(walk))
    assert first.path == sorted_walk(str(tree))[0]
    assert read == [str(tree)]  # the first folder only: the job starts before the rest
    total = walk.total_bytes
    list(walk)
    assert len(read) == 7 and walk.total_bytes > total


def test_totals_grow_as_the_walk_goes(tree: Path) -> None:
    walk = Walk([str(tree)], DEFAULT_GLOBS, "auto")
    seen = 0
    for source in walk:
        seen += source.size
        assert walk.total_bytes >= seen
    assert walk.total_bytes == seen == Walk([str(tree)], DEFAULT_GLOBS, "auto").eager().total_bytes


NAME = st.text(alphabet="aAbB.-_*?[]!mdtxgzr10é", max_size=14)
GLOBS = st.lists(
    st.sampled_from([*DEFAULT_GLOBS, "*", "?.md", "[ab]*", "[!a]*.txt", "a*b", "*.MD", "[]"]),
    min_size=1,
    max_size=5,
)


@given(NAME, GLOBS)
def test_compiled_globs_equal_fnmatch(name: str, globs: list[str]) -> None:
    assert inputs._matcher(globs)(name) == matches(name, globs)
    assert inputs._matcher(globs)(name + ".gz") == matches(name + ".gz", globs)


def test_empty_folder_after_a_file_writes_nothing(tmp_path: Path, capsys) -> None:
    """A folder with no match is an error before any output, even after other inputs."""
    (tmp_path / "doc.md").write_text("some text", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "image.png").write_bytes(b"\x89PNG")
    out = tmp_path / "out.jsonl"
    code = main(["chunk", str(tmp_path / "doc.md"), str(tmp_path / "empty"), "-o", str(out)])
    assert code == 2 and not out.exists()
    assert "no files matching" in capsys.readouterr().err
    with pytest.raises(UsageError):
        Walk([str(tmp_path / "doc.md"), str(tmp_path / "empty")], DEFAULT_GLOBS, "auto")


def test_late_problems_are_reported(tree: Path, capsys) -> None:
    """Problems deep in the walk (found while the job runs) still reach stderr and the exit
    code, and the rows keep the walk's order."""
    deep = tree / "sub" / "deeper" / "z"
    (deep / "latin.txt").write_bytes(b"caf\xe9")
    (deep / "gone.md").symlink_to(deep / "missing.md")
    if hasattr(os, "mkfifo"):
        os.mkfifo(deep / "pipe.md")
    code = main(["chunk", str(tree), "--threads", "2"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "latin.txt" in err and "UTF-8" in err
    assert "gone.md" in err and "broken symlink" in err
    assert not hasattr(os, "mkfifo") or ("pipe.md" in err and "FIFO" in err)
    sources = [json.loads(line)["source"] for line in out.splitlines()]
    order = [p for p in sorted_walk(str(tree)) if not p.endswith(("latin.txt", "gone.md"))]
    assert list(dict.fromkeys(sources)) == order


@pytest.mark.parametrize("suffix", ["jsonl", "parquet"])
def test_output_inside_an_input_folder_is_not_read_back(
    tmp_path: Path, capsys, suffix: str
) -> None:
    """``-o`` inside a folder being walked: the output is never an input (it was, and grew
    without end), whether it exists already or is created by the run (it then appears only
    when the run ends, renamed from its temporary file), named or found; nor are the run's
    temporary and lock files, found by a glob that takes every name."""
    docs = {f"doc{k}.txt": f"text number {k}" for k in range(3)}
    for name, text in docs.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "zsub").mkdir()
    out = tmp_path / "zsub" / f"out.{suffix}"
    runs = (("created", []), ("existing, also named", [str(out)]), ("any name", ["--glob", "*"]))
    for run, named in runs:
        code = main(["chunk", str(tmp_path), *named, "-q", "-o", str(out)])
        err = capsys.readouterr().err
        assert code == 0, (run, err)
        assert (f"{out}: the output file itself: skipped" in err) == (run != "created"), run
        own = "a temporary or lock file of ferrochunk chunk: skipped"
        assert (own in err) == (run == "any name"), (run, err)
        if suffix == "jsonl":
            rows = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
        else:
            rows = pq_rows(out)
        assert {r["source"]: r["text"] for r in rows} == {
            str(tmp_path / n): t for n, t in docs.items()
        }, run


def pq_rows(path: Path) -> list[dict]:
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pylist()


@pytest.mark.skipif(os.name != "posix" or os.uname().sysname == "Darwin", reason="byte names")
def test_names_that_are_not_utf8_are_chunked(tmp_path: Path, capsys) -> None:
    """A file name that is not UTF-8 (lone surrogates in Python) no longer stops the run:
    the file is read by its real name, and ``source`` shows the bad bytes as ``\\xNN``."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a_good.txt").write_text("good file", encoding="utf-8")
    bad = os.path.join(os.fsencode(folder), b"bad\xffname.txt")
    with open(bad, "wb") as f:
        f.write(b"x y")
    shown = str(folder / "bad\\xffname.txt")
    out = tmp_path / "out.jsonl"
    assert main(["chunk", str(folder), "-q", "-o", str(out)]) == 0, capsys.readouterr().err
    rows = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert [(r["source"], r["document_id"], r["text"]) for r in rows] == [
        (str(folder / "a_good.txt"), str(folder / "a_good.txt"), "good file"),
        (shown, shown, "x y"),
    ]
    assert main(["chunk", os.fsdecode(bad), "-q"]) == 0  # named on the command line
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["source"], r["text"]) for r in rows] == [(shown, "x y")]
