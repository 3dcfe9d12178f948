"""``ferrochunk chunk --incremental`` (``cli/incremental.py``) and ``ferrochunk.incremental``:
after any mix of changes the output is byte for byte a fresh full run's, the delta lists
exactly the chunk ids that differ (found here by parsing both full outputs, not from the
state), changed settings re-chunk everything, an unreadable source keeps its previous rows,
and chunk ids are pinned across runs, thread counts and machines."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import random
from collections import defaultdict
from pathlib import Path

import pytest

import ferrochunk.incremental
from ferrochunk import _native
from ferrochunk.cli import main

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()


def text(seed: int, paragraphs: int = 12) -> str:
    rng = random.Random(seed)
    return "\n\n".join(" ".join(rng.choices(WORDS, k=40)) + "." for _ in range(paragraphs))


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """Markdown, plain text, a gzipped text, JSON Lines, in nested folders."""
    root = tmp_path / "src"
    (root / "sub").mkdir(parents=True)
    for k in range(8):
        (root / f"doc{k}.md").write_text(f"# Doc {k}\n\n{text(k)}", "utf-8")
    (root / "sub" / "notes.txt").write_text(text(100), "utf-8")
    (root / "sub" / "packed.txt.gz").write_bytes(gzip.compress(text(101).encode()))
    rows = [json.dumps({"text": text(200 + k, 3), "id": f"r{k}"}) for k in range(5)]
    (root / "sub" / "rows.jsonl").write_text("\n".join(rows) + "\n", "utf-8")
    return root


def chunk(*args: str) -> int:
    return main(["chunk", *args, "-q"])


def fresh(src: Path, tmp_path: Path, *options: str) -> bytes:
    """A full run's output, without --incremental, in a folder of its own."""
    out = tmp_path / "fresh" / "out.jsonl"
    out.parent.mkdir(exist_ok=True)
    assert chunk(str(src), "--out", str(out), *options) in (0, 1)
    return out.read_bytes()


def ids_by_source(rows: bytes) -> dict[str, list[str]]:
    found = defaultdict(list)
    for line in rows.splitlines():
        row = json.loads(line)
        found[row["source"]].append(row["chunk_id"])
    return found


def delta(path: Path) -> tuple[dict, set, set, set]:
    """The delta's head and its (source, id) adds and removes, and the sources deleted."""
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    head, body = lines[0], lines[1:]
    adds = {(d["source"], d["chunk_id"]) for d in body if d["op"] == "add"}
    removes = {(d["source"], d["chunk_id"]) for d in body if d["op"] == "remove"}
    gone = {d["source"] for d in body if d["op"] == "delete_source"}
    return head, adds, removes, gone


def expected(old: bytes, new: bytes) -> tuple[set, set, set]:
    a, b = ids_by_source(old), ids_by_source(new)
    adds = {(s, i) for s, ids in b.items() for i in ids if i not in set(a.get(s, ()))}
    removes = {(s, i) for s, ids in a.items() for i in ids if i not in set(b.get(s, ()))}
    return adds, removes, set(a) - set(b)


def change(src: Path) -> None:
    """Edits, an addition, a deletion, a touch with the same bytes, a JSON Lines edit."""
    doc = src / "doc3.md"
    doc.write_text(doc.read_text("utf-8") + "\n\nA new closing paragraph.", "utf-8")
    (src / "doc5.md").unlink()
    (src / "sub" / "new.md").write_text(f"# New\n\n{text(300)}", "utf-8")
    same = src / "doc1.md"
    os.utime(same, ns=(same.stat().st_atime_ns, same.stat().st_mtime_ns + 10**10))
    rows = (src / "sub" / "rows.jsonl").read_text("utf-8").splitlines()
    rows[2] = json.dumps({"text": "Row two, rewritten.", "id": "r2"})
    (src / "sub" / "rows.jsonl").write_text("\n".join(rows) + "\n", "utf-8")


@pytest.mark.parametrize("threads", ["1", "2"])
def test_rerun_after_changes_equals_a_fresh_full_run(
    corpus: Path, tmp_path: Path, threads: str
) -> None:
    out, dl = tmp_path / "out.jsonl", tmp_path / "out.delta.jsonl"
    assert chunk(str(corpus), "--out", str(out), "--incremental", "--threads", threads) == 0
    first = fresh(corpus, tmp_path)
    assert out.read_bytes() == first
    head, adds, removes, gone = delta(dl)
    assert head["full"] == "no previous run" and not removes and not gone
    assert adds == expected(b"", first)[0] and head["added"] == len(adds)

    change(corpus)
    report = ferrochunk.incremental.update([corpus], out, threads=int(threads))
    second = fresh(corpus, tmp_path)
    assert out.read_bytes() == second
    head, adds, removes, gone = delta(dl)
    assert (adds, removes, gone) == expected(first, second)
    assert adds and removes and gone == {str(corpus / "doc5.md")}
    assert head["full"] is None and (head["added"], head["removed"]) == (len(adds), len(removes))
    # doc3, new.md, rows.jsonl chunked; doc1 only touched: hashed, not chunked.
    assert (report.chunked, report.new, report.deleted) == (3, 1, 1)
    assert report.unchanged == report.sources - 3

    # Nothing changed: nothing chunked, an empty delta, the same bytes.
    report = ferrochunk.incremental.update([corpus], out)
    assert out.read_bytes() == second and report.chunked == 0
    assert delta(dl)[1:] == (set(), set(), set())


def test_every_row_lands_where_the_delta_says(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    ferrochunk.incremental.update([corpus], out)
    change(corpus)
    ferrochunk.incremental.update([corpus], out)
    lines = out.read_bytes().splitlines()
    body = (tmp_path / "out.delta.jsonl").read_text("utf-8").splitlines()[1:]
    for d in map(json.loads, body):
        if d["op"] == "add":
            assert json.loads(lines[d["row"]])["chunk_id"] == d["chunk_id"]


def test_changed_settings_chunk_everything_again(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    ferrochunk.incremental.update([corpus], out)
    first = out.read_bytes()
    report = ferrochunk.incremental.update([corpus], out, chunk_size=300)
    assert report.full and "settings changed" in report.full
    assert report.chunked == report.sources and report.unchanged == 0
    second = fresh(corpus, tmp_path, "--chunk-size", "300")
    assert out.read_bytes() == second
    _, adds, removes, _ = delta(tmp_path / "out.delta.jsonl")
    assert (adds, removes, set()) == expected(first, second)
    assert len(removes) == first.count(b"\n")


def test_a_source_that_no_longer_decodes_keeps_its_previous_chunks(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    ferrochunk.incremental.update([corpus], out)
    first = out.read_bytes()
    bad = corpus / "doc2.md"
    good = bad.read_bytes()
    bad.write_bytes(good + b"\xff broken")
    assert main(["chunk", str(corpus), "--out", str(out), "--incremental"]) == 1
    err = capsys.readouterr().err
    assert "doc2.md: not valid UTF-8" in err and "previous chunks kept" in err
    assert out.read_bytes() == first
    assert delta(tmp_path / "out.delta.jsonl")[1:] == (set(), set(), set())
    # Mended with other text: chunked again (the failed run kept the old size and mtime).
    bad.write_bytes(good + b" mended")
    report = ferrochunk.incremental.update([corpus], out)
    assert report.chunked == 1 and out.read_bytes() == fresh(corpus, tmp_path)


def test_an_output_changed_behind_its_back_means_a_full_rerun(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    ferrochunk.incremental.update([corpus], out)
    out.write_bytes(out.read_bytes()[:-10])  # an edit: another size, mtime and content
    report = ferrochunk.incremental.update([corpus], out)
    assert report.full and "output changed" in report.full
    assert report.chunked == report.sources
    assert out.read_bytes() == fresh(corpus, tmp_path)


def test_the_delta_and_state_are_never_inputs(corpus: Path) -> None:
    """Output, delta and state inside the folder chunked: none is read back."""
    out = corpus / "out.jsonl"
    first = ferrochunk.incremental.update([corpus], out)
    again = ferrochunk.incremental.update([corpus], out)
    assert again.sources == first.sources and again.chunked == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--incremental"], "give --out FILE.jsonl"),
        (["--incremental", "--out", "x.parquet"], "writes JSON Lines"),
        (["-", "--incremental", "--out", "x.jsonl"], "not standard input"),
        (["--delta", "d.jsonl", "--out", "x.jsonl"], "add --incremental"),
    ],
)
def test_options_that_do_not_apply_are_refused(
    args: list[str], message: str, corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [] if args[0] == "-" else [str(corpus)]
    assert main(["chunk", *paths, *args]) == 2
    assert message in capsys.readouterr().err


def test_python_api_refuses_unknown_options(corpus: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="min-size does nothing"):
        ferrochunk.incremental.update([corpus], tmp_path / "o.jsonl", min_size=3)


def test_native_parts_cover_each_sources_rows(corpus: Path) -> None:
    """``CorpusJob(parts=True)``: every part's bytes are exactly its source's rows, and its
    ids their ``chunk_id`` fields."""
    from ferrochunk.split.splitter import Splitter

    splitter = Splitter(200, chunk_overlap=20)
    inputs = [("text", str(p), p.name, p.stat().st_size) for p in sorted(corpus.glob("*.md"))]
    inputs.append(("jsonl", str(corpus / "sub/rows.jsonl"), "rows", 1))
    job = _native.CorpusJob(
        splitter.native_core(), inputs, settings=splitter.settings, threads=2, parts=True
    )
    names = []
    for payload, *_, (parts, ids) in job:
        at = chunks = 0
        for name, end, upto, docs, nbytes in parts:
            rows = [json.loads(line) for line in payload[at:end].splitlines()]
            assert {r["source"] for r in rows} <= {name} and len(rows) == upto - chunks
            assert [r["chunk_id"] for r in rows] == [
                ids[32 * k : 32 * k + 32].decode() for k in range(chunks, upto)
            ]
            assert docs == (5 if name == "rows" else 1) and nbytes > 0
            names.append(name)
            at, chunks = end, upto
        assert at == len(payload)
    assert names == [name for _, _, name, _ in inputs]
    with pytest.raises(ValueError, match="parts=True"):
        _native.CorpusJob(splitter.native_core(), [], settings="s", output="x", parts=True)


# Pinned: a change to these ids changes every id a user has stored. They are recomputed below
# from the documented formula (rust/chunk_id.rs) with hashlib too, so the pin is not only
# what the code printed once.
PINNED_TEXT = (
    "The first paragraph of the pinned text.\n\nA second one, a little longer than it.\n\n"
)
PINNED_SETTINGS = (
    'recursive-v1|size=60|overlap=12|seps=["\\n\\n", "\\n", " ", ""]|regex=0|keep=start|strip=1'
    "|len=chars"
)
PINNED_IDS = [
    ("8ee38d7c10f89ef54033d046b4343bc5", 0, 39),
    ("2c84486949a3ef7b6d6e3f7323a03c6a", 41, 79),
    ("68a285ccfc2b1ff215b4307b80825859", 81, 120),
    ("7c4daa8104e9f16df5873bf50639f7f7", 122, 160),
    ("9c3f4da562b85a9228efbb3bc0c24f12", 162, 201),
    ("264c0c5043f8be93b6cb5dbdc4b69aed", 203, 241),
]


def test_pinned_ids_follow_the_documented_formula() -> None:
    digest = hashlib.sha256((PINNED_TEXT * 3).encode()).hexdigest()
    for chunk_id, start, end in PINNED_IDS:
        key = f"pinned.md\0{PINNED_SETTINGS}\0{digest}\0{start}:{end}"
        assert hashlib.sha256(key.encode()).hexdigest()[:32] == chunk_id


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("incremental", [False, True])
def test_chunk_ids_are_pinned_across_runs_and_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, threads: str, incremental: bool
) -> None:
    (tmp_path / "pinned.md").write_text(PINNED_TEXT * 3, "utf-8")
    monkeypatch.chdir(tmp_path)  # the document id is the path as given
    more = ["--incremental"] if incremental else []
    for _ in range(2):
        assert (
            chunk("pinned.md", "-o", "out.jsonl", "--chunk-size", "60", "--threads", threads, *more)
            == 0
        )
        rows = [json.loads(line) for line in Path("out.jsonl").read_text("utf-8").splitlines()]
        assert [(r["chunk_id"], r["start"], r["end"]) for r in rows] == PINNED_IDS
