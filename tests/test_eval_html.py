"""``ferrochunk eval --html``: one offline page with the tables, the chart and, per
configuration, the questions missed, each answer with a marker at every chunk boundary
inside it (judged by lxml and by the chunks themselves)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("matplotlib")
from lxml import html as lxml_html

from ferrochunk.cli import main
from ferrochunk.eval.html import answer_html


def test_eval_html_shows_missed_answers_and_their_cuts(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["eval", "-q", "--questions", "40", "--sizes", "120", "--overlaps", "0", "--html"]
    assert main([*args, "--chunkers", "splitter"]) == 0
    out = tmp_path / "ferrochunk-eval"
    report = json.loads((out / "eval.json").read_text("utf-8"))
    assert "missed" not in report  # the JSON keeps its form
    tree = lxml_html.fromstring((out / "eval.html").read_bytes())
    (img,) = tree.xpath("//img")
    assert img.get("src").startswith("data:image/png;base64,")
    assert not [v for v in tree.xpath("//@href|//@src") if not v.startswith("data:")]
    items = tree.xpath("//li[@data-qid]")
    assert items, "no missed question shown"
    for li in items:
        (answer,) = li.xpath('.//div[@class="answer"]')
        assert len(answer.xpath('.//span[@class="cut"]')) == int(li.get("data-cuts"))
    # Synthetic questions have one answer span each: every one not found is shown (25 at most).
    recall = report["results"][0]["recall_strict"]
    assert len(items) == min(25, round(40 * (1 - recall)))


def test_answer_markers_sit_at_the_boundaries():
    text = "alpha beta gamma delta"
    assert (
        answer_html(text, 6, 16, [11])
        == 'beta <span class="cut" title="chunk boundary">|</span>gamma'
    )
    assert answer_html(text, 0, 5, []) == "alpha"
    assert answer_html("a<b", 0, 3, []) == "a&lt;b"
