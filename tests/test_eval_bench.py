"""benches/answers_whole.py runs on a small synthetic set of the shared corpus and its JSON
agrees with its table (no network: the synthetic set needs no fetching)."""

from __future__ import annotations

import json
import subprocess
import sys

from corpus import ROOT, require


def test_answers_whole_script_table_and_json() -> None:
    require()
    args = ["--sets", "synthetic", "--chunkers", "markdown,tokens", "--sizes", "64"]
    done = subprocess.run(
        [sys.executable, "benches/answers_whole.py", *args, "--questions", "30", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("`python benches/answers_whole.py --sets synthetic") and "commit" in out
    data = json.loads(out[out.index("\n{") :])
    rows = data["results"]["synthetic"]
    assert [(r["chunker"], r["size"]) for r in rows] == [("markdown", 64), ("tokens", 64)]
    for r in rows:
        assert 0 <= r["answers_whole_pct"] <= 100 and r["chunks"] > 0
        assert f"| {r['chunker']} | 64 tok | {r['answers_whole_pct']:.1f} | " in out
        assert f" | {r['chunks']} | {r['tokens_per_chunk']:.0f} |" in out
        # a third of the answers cross a seam: the whole share lies between the two parts
        parts = sorted([r["one_span_whole_pct"], r["several_spans_whole_pct"]])
        assert parts[0] <= r["answers_whole_pct"] <= parts[1]
    # token windows cut sentences wherever the count falls: fewer answers whole
    assert rows[1]["answers_whole_pct"] < rows[0]["answers_whole_pct"]
    bad = subprocess.run(
        [sys.executable, "benches/answers_whole.py", "--sets", "nosuch"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0 and "choose from" in bad.stderr
