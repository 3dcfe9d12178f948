# ruff: noqa: RUF001 - CJK punctuation in the test text is the point
"""ferrochunk.eval data: BEIR and span-question loaders (and their errors), synthetic questions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ferrochunk.eval import load_beir, load_documents, load_span_questions, synthetic_questions
from ferrochunk.eval.synthetic import WORD, sentence_spans


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def beir(tmp_path: Path, qrels: str) -> Path:
    write_jsonl(
        tmp_path / "corpus.jsonl",
        [
            {"_id": "d1", "title": "Lamps", "text": "The keeper lit the lamp."},
            {"_id": "d2", "title": "", "text": "Fog rolled over the rocks."},
        ],
    )
    write_jsonl(
        tmp_path / "queries.jsonl",
        [
            {"_id": "q1", "text": "who lit the lamp"},
            {"_id": "q2", "text": "fog"},
            {"_id": "q3", "text": "unjudged"},
        ],
    )
    (tmp_path / "qrels").mkdir(exist_ok=True)
    (tmp_path / "qrels" / "test.tsv").write_text(qrels, encoding="utf-8")
    return tmp_path


def test_beir_folder(tmp_path: Path) -> None:
    ds = load_beir(beir(tmp_path, "query-id\tcorpus-id\tscore\nq1\td1\t2\nq2\td2\t1\nq2\td1\t0\n"))
    assert ds.kind == "beir"
    assert ds.documents == {
        "d1": "Lamps\n\nThe keeper lit the lamp.",
        "d2": "Fog rolled over the rocks.",
    }
    assert [(q.qid, q.query) for q in ds.questions] == [("q1", "who lit the lamp"), ("q2", "fog")]
    assert [(a.doc_id, a.start, a.grade) for a in ds.questions[0].answers] == [("d1", None, 2.0)]
    assert [a.doc_id for a in ds.questions[1].answers] == ["d2"]  # the 0 row is not relevant
    assert ds.notes["judgements with score <= 0 (not relevant)"] == 1
    assert ds.notes["queries with no relevant document in this split"] == 1


def test_qrels_naming_unknown_documents_are_named(tmp_path: Path) -> None:
    folder = beir(tmp_path, "q1\td1\t1\nq1\tghost-7\t1\nq2\tphantom\t1\n")
    with pytest.raises(
        ValueError, match=r"2 judgements name unknown documents: 'ghost-7' \(line 2\), 'phantom'"
    ):
        load_beir(folder)


def test_qrels_other_errors(tmp_path: Path) -> None:
    folder = beir(tmp_path, "q9\td1\t1\n")
    with pytest.raises(ValueError, match=r"test.tsv:1: query 'q9' is not in queries.jsonl"):
        load_beir(folder)
    (folder / "qrels" / "test.tsv").write_text("q1\td1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"test\.tsv:1: expected 3 tab-separated columns"):
        load_beir(folder)
    (folder / "qrels" / "test.tsv").write_text("q1\td1\t0\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no query has a relevant document"):
        load_beir(folder)
    with pytest.raises(ValueError, match=r"dev\.tsv: missing"):
        load_beir(folder, split="dev")


def test_bad_jsonl_is_located(tmp_path: Path) -> None:
    (tmp_path / "corpus.jsonl").write_text('{"_id": "a", "text": "x"}\nnot json\n', "utf-8")
    with pytest.raises(ValueError, match=r"corpus.jsonl:2: not JSON"):
        load_documents(tmp_path / "corpus.jsonl")
    write_jsonl(tmp_path / "dup.jsonl", [{"id": "a", "text": "x"}, {"id": "a", "text": "y"}])
    with pytest.raises(ValueError, match=r"dup.jsonl:2: document id 'a' appears twice"):
        load_documents(tmp_path / "dup.jsonl")
    write_jsonl(tmp_path / "notext.jsonl", [{"id": "a"}])
    with pytest.raises(ValueError, match=r"notext.jsonl:1: missing 'text'"):
        load_documents(tmp_path / "notext.jsonl")


def test_empty_corpus(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("\n", encoding="utf-8")
    with pytest.raises(ValueError, match="the corpus is empty"):
        load_documents(tmp_path / "empty.jsonl")
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "LICENSE").write_text("MIT", encoding="utf-8")
    with pytest.raises(ValueError, match="the corpus is empty"):
        load_documents(tmp_path / "folder")
    with pytest.raises(ValueError, match="no such file or folder"):
        load_documents(tmp_path / "nowhere")


def test_document_folder(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "b.md").write_text("bee", encoding="utf-8")
    (tmp_path / "sub" / "a.txt").write_text("ay", encoding="utf-8")
    (tmp_path / "LICENSE").write_text("MIT", encoding="utf-8")
    docs, notes = load_documents(tmp_path)
    assert docs == {"b.md": "bee", "sub/a.txt": "ay"}
    assert notes == {"skipped files (not text)": 1}  # counted, not silently dropped
    (tmp_path / "bad.md").write_bytes(b"caf\xe9")
    with pytest.raises(ValueError, match=r"bad.md: not UTF-8"):
        load_documents(tmp_path)


def test_span_questions(tmp_path: Path) -> None:
    docs = write_jsonl(tmp_path / "docs.jsonl", [{"id": "a", "text": "héllo wörld, 世界"}])
    qs = write_jsonl(
        tmp_path / "q.jsonl",
        [{"query": "world", "doc_id": "a", "answers": [[6, 11], [13, 15]]}],
    )
    ds = load_span_questions(qs, docs)
    assert ds.kind == "spans" and len(ds.questions) == 1
    spans = [(x.start, x.end) for x in ds.questions[0].answers]
    assert spans == [(6, 11), (13, 15)]
    assert [ds.documents["a"][a:b] for a, b in spans] == ["wörld", "世界"]  # code points


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (
            {"query": "q", "doc_id": "a", "answers": [[10, 16]]},
            r"q.jsonl:1: answer span \[10, 16\] is outside document 'a' \(15 code points\)",
        ),
        ({"query": "q", "doc_id": "a", "answers": [[3, 3]]}, r"outside document 'a' .* or empty"),
        ({"query": "q", "doc_id": "a", "answers": [[-1, 2]]}, "outside document"),
        ({"query": "q", "doc_id": "a", "answers": []}, "non-empty list"),
        (
            {"query": "q", "doc_id": "a", "answers": [[1.5, 2]]},
            "not a \\[start, end\\] pair of ints",
        ),
        (
            {"query": "q", "doc_id": "zz", "answers": [[0, 1]]},
            "doc_id 'zz' is not among the 1 documents",
        ),
        ({"doc_id": "a", "answers": [[0, 1]]}, "missing 'query'"),
    ],
)
def test_bad_span_questions(tmp_path: Path, row: dict, message: str) -> None:
    docs = write_jsonl(tmp_path / "docs.jsonl", [{"id": "a", "text": "héllo wörld, 世界"}])
    qs = write_jsonl(tmp_path / "q.jsonl", [row])
    with pytest.raises(ValueError, match=message):
        load_span_questions(qs, docs)


TEXT = """# Title

The lighthouse keeper climbed the stairs before dusk every evening. He trimmed the wick, e.g. with
care, and polished the great lens until it shone! Did the ships see it?

```python
print("This line is code and never a question at all, not even once here.")
```

| a table row | that is long enough to count as a sentence if it were prose at all |

灯塔看守人每天黄昏前爬上楼梯。他修剪灯芯，擦亮巨大的透镜，直到它闪闪发光！
"""


def test_sentences_are_prose_spans() -> None:
    spans = sentence_spans(TEXT)
    got = [TEXT[a:b] for a, b in spans]
    assert "The lighthouse keeper climbed the stairs before dusk every evening." in got
    assert "Did the ships see it?" in got
    assert "灯塔看守人每天黄昏前爬上楼梯。" in got
    assert "他修剪灯芯，擦亮巨大的透镜，直到它闪闪发光！" in got
    assert not any("print" in s or "table row" in s or "Title" in s for s in got)
    assert all(s == s.strip() and s for s in got)


def test_synthetic_questions_from_a_given_splitter() -> None:
    docs = {
        "a.md": TEXT,
        "b.md": TEXT.replace("lighthouse", "harbour")
        + "\nA fresh unique sentence appears only in this second file here.",
    }
    one = synthetic_questions(docs, 50, seed=3, sentences=sentence_spans)
    again = synthetic_questions(docs, 50, seed=3, sentences=sentence_spans)
    other = synthetic_questions(docs, 50, seed=4, sentences=sentence_spans)
    assert one.kind == "synthetic" and "synthetic" in one.notes
    assert one.questions == again.questions
    assert [q.query for q in one.questions] != [q.query for q in other.questions]
    sentences = {(d, a, b) for d, t in docs.items() for a, b in sentence_spans(t)}
    for q in one.questions:
        (ans,) = q.answers
        assert (ans.doc_id, ans.start, ans.end) in sentences
        sentence = docs[ans.doc_id][ans.start : ans.end]
        words, kept = WORD.findall(sentence), WORD.findall(q.query)
        assert 0 < len(kept) < len(words)  # some words held out, the rest in order
        it = iter(words)
        assert all(w in it for w in kept)
    # sentences found in both files (the Chinese ones, "Did the ships see it?") are ambiguous
    texts = [
        docs[q.answers[0].doc_id][q.answers[0].start : q.answers[0].end] for q in one.questions
    ]
    assert not any(re.search("[\u4e00-\u9fff]", t) for t in texts)
    assert one.notes["repeated sentences left out"] > 0
    assert "A fresh unique sentence appears only in this second file here." in texts


def test_synthetic_needs_prose() -> None:
    with pytest.raises(ValueError, match="no prose sentence"):
        synthetic_questions({"a": "```\ncode only here and nothing else at all today\n```\n"})
    with pytest.raises(ValueError, match="the corpus is empty"):
        synthetic_questions({})
