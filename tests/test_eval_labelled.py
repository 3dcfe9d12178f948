"""Labelled sets from parsed blocks and prose variants: every answer span is exact."""

from __future__ import annotations

import json
import random
import re

from ferrochunk.eval import labelled_questions, load_span_questions, prose_variants, write_spans
from ferrochunk.eval.parsed import markdown_blocks, rst_blocks
from ferrochunk.eval.variants import chat, pdf, wikitext

MARKDOWN = """# Guide

The keeper lit the lamp at dusk
and trimmed the wick before the night came.

- a list item that runs over
  two indented lines of text
- short

> A quoted paragraph, its second line
> marked again.

| tool | use |
|------|-----|
| lens | focus the light |

```
code is not a block we read
```
"""

RST = """Guide
=====

A paragraph that spans
two lines of text here.

- a bullet item that
  continues here

term
   its definition
   goes on.

=====  ================
name   what
=====  ================
lens   focus the light
=====  ================
"""


def test_markdown_blocks_map_exactly() -> None:
    blocks, lost = markdown_blocks(MARKDOWN)
    got = {(b.kind, MARKDOWN[b.start : b.end]) for b in blocks}
    assert got == {
        (
            "paragraph",
            "The keeper lit the lamp at dusk\nand trimmed the wick before the night came.",
        ),
        ("list item", "a list item that runs over\n  two indented lines of text"),
        ("list item", "short"),
        ("quote paragraph", "A quoted paragraph, its second line\n> marked again."),
        ("table row", "| lens | focus the light |"),
    }
    assert not lost


def test_rst_blocks_map_exactly() -> None:
    blocks, lost = rst_blocks(RST)
    got = {(b.kind, RST[b.start : b.end]) for b in blocks}
    assert got == {
        ("paragraph", "A paragraph that spans\ntwo lines of text here."),
        ("list item", "a bullet item that\n  continues here"),
        ("definition-list item", "term\n   its definition\n   goes on."),
        ("definition", "its definition\n   goes on."),
        ("table row", "name   what"),
        ("table row", "lens   focus the light"),
    }
    assert not lost


def test_a_block_found_twice_is_skipped_and_counted() -> None:
    text = "Twice said words here.\n\n- Twice said words here.\n"
    blocks, lost = markdown_blocks(text)
    assert blocks == [] and sum(lost.values()) == 2


def test_labelled_set_round_trips_through_span_jsonl(tmp_path) -> None:
    docs = {"g.md": MARKDOWN, "g.rst": RST}
    data = labelled_questions(docs, 50, seed=1, min_words=2)
    answers = {
        docs[q.answers[0].doc_id][q.answers[0].start : q.answers[0].end] for q in data.questions
    }
    assert "a list item that runs over\n  two indented lines of text" in answers
    assert "| lens | focus the light |" in answers and "name   what" in answers
    pairs = [q.answers for q in data.questions if len(q.answers) == 2]
    assert pairs  # two adjacent blocks: only blank lines or a marker between
    for first, second in pairs:
        gap = docs[first.doc_id][first.end : second.start]
        assert re.fullmatch(r"\s*(?:[-*+>]|\d+[.)])?\s*", gap) and "\n" in gap
    loaded = load_span_questions(*write_spans(data, tmp_path))
    assert [q.answers for q in loaded.questions] == [q.answers for q in data.questions]


PARAGRAPHS = [
    "The keeper (an old sailor) lit the lamp; it burned well-trimmed all night. "
    "Ships passed the rocks safely, one by one, until dawn came grey and cold.",
    'She wrote "calm sea" in the log. The relief boat arrived at noon with letters, '
    "bread and a new wick for the long winter nights ahead of them all.",
    "Nothing else happened that week worth writing down in either of the two logs. "
    "The fog came back on Sunday and stayed for three whole days and nights.",
]


def test_rewrites_carry_spans_exactly() -> None:
    source = "\n\n".join(PARAGRAPHS)
    a = source.index("The keeper")
    b = source.index("night.") + len("night.")
    w = wikitext(source, random.Random(0))
    lo, hi = w.span(a, b)
    assert w.text()[lo:hi] == (
        "The keeper ( an old sailor ) lit the lamp ; it burned well @-@ trimmed all night ."
    )
    c = chat(source, random.Random(0))
    messages = json.loads(c.text())
    assert "\n" not in c.text() and {m["role"] for m in messages} <= {"user", "assistant"}
    assert "\n\n".join(m["content"] for m in messages) == source
    a2 = source.index('She wrote "calm')
    lo, hi = c.span(a2, a2 + 20)
    assert json.loads(f'"{c.text()[lo:hi]}"') == source[a2 : a2 + 20]
    p = pdf(source, random.Random(0))
    lines = p.text().split("\n")
    assert max(len(line) for line in lines) <= 80 and len(lines) > 3
    lo, hi = p.span(a, b)
    unwrapped = re.sub(r"-\n", "", p.text()[lo:hi]).replace("\n", " ")
    assert unwrapped == source[a:b]
    assert w.span(a, len(source) + 1) is None  # past the end: not mapped


def test_prose_variants_share_answers() -> None:
    sets = prose_variants({"log.md": PARAGRAPHS}, 20, seed=2)
    assert set(sets) == {"plain", "wikitext", "chat", "pdf"}
    plain = sets["plain"]
    assert any(len(q.answers) == 2 for q in plain.questions)  # some cross a seam
    source = next(iter(plain.documents.values()))
    for name, data in sets.items():
        assert [q.query for q in data.questions] == [q.query for q in plain.questions]
        text = next(iter(data.documents.values()))
        for q, base in zip(data.questions, plain.questions):
            for got, want in zip(q.answers, base.answers):
                piece, orig = text[got.start : got.end], source[want.start : want.end]
                squashed = re.sub(r" @-@ ", "-", piece)
                squashed = re.sub(r"-\n", "", squashed).replace("\n", " ")
                squashed = re.sub(r" ([.,;:!?)])", r"\1", squashed).replace("( ", "(")
                if name == "chat":
                    squashed = json.loads(f'"{piece}"')
                assert squashed == orig, (name, piece, orig)
