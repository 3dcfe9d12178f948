"""Synthetic answers drawn by pysbd: runs of 1-3 sentences, a third across a seam."""

from __future__ import annotations

import sys

import pytest

from ferrochunk.cli import main
from ferrochunk.eval import synthetic_questions
from ferrochunk.eval.synthetic import WORD

# six paragraphs of three sentences; every sentence is hard-wrapped across a line break
# (pysbd alone would end a sentence there) and has an abbreviation-free full stop
SENTENCES = [
    [
        f"Paragraph {p} sentence {s} tells of the {w} keeper\nwho climbed the {w} tower today."
        for s, w in zip(("one", "two", "three"), ("old", "young", "tired"))
    ]
    for p in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")
]
TEXT = "# Title\n\n" + "\n\n".join(" ".join(p) for p in SENTENCES) + "\n"


def test_answers_are_runs_of_pysbd_sentences() -> None:
    data = synthetic_questions({"a.md": TEXT}, 200, seed=5)
    assert data.notes["segmenter"].startswith("pysbd ")
    # one in-block answer per paragraph (6); seams: a third of all, i.e. half of 6 = 3
    assert len(data.questions) == 9
    seams = [q for q in data.questions if len(q.answers) == 2]
    assert len(seams) == 3 == data.notes["answers crossing a paragraph seam"]
    runs = {" ".join(p[i : i + n]) for p in SENTENCES for n in (1, 2, 3) for i in range(4 - n)}
    for q in data.questions:
        got = [TEXT[a.start : a.end] for a in q.answers]
        if len(got) == 1:
            assert got[0] in runs
        else:  # the last sentence of one paragraph, then the first of the next
            i = next(i for i, p in enumerate(SENTENCES) if p[-1] == got[0])
            assert got[1] == SENTENCES[i + 1][0]
        words, kept = WORD.findall(" ".join(got)), WORD.findall(q.query)
        it = iter(words)
        assert 0 < len(kept) < len(words) and all(w in it for w in kept)
    assert data.questions == synthetic_questions({"a.md": TEXT}, 200, seed=5).questions


def test_missing_pysbd_is_one_clear_error(monkeypatch, capsys, tmp_path) -> None:
    monkeypatch.setitem(sys.modules, "pysbd", None)
    with pytest.raises(ImportError, match=r"pysbd.*ferrochunk\[eval\]"):
        synthetic_questions({"a.md": TEXT}, 5)
    (tmp_path / "a.md").write_text(TEXT, encoding="utf-8")
    assert main(["eval", "-q", "--data", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pysbd" in err[0] and "ferrochunk[eval]" in err[0]
