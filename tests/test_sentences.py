"""Sentence spans: hand-written cases, Rust against the pure-Python reference on generated
text and on every corpus file, and the exactness of the offsets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ferrochunk import sentences as native
from ferrochunk.reference import sentences as reference
from support import texts

# Expected values written by hand from the rules (also read by the Rust unit tests).
CASES = json.loads((Path(__file__).parent / "data" / "sentences.json").read_text("utf-8"))
ENGINES = {"native": native, "reference": reference}

# Atoms that exercise the rules: end marks, closers, abbreviations, numbers, CJK, spaces.
SENTENCE_ATOMS = [
    *'. ? ! … ‼ 。 ｡ ... ?! ." .) 」 』 ” ( « »'.split(),
    *"\uff01 \uff1f \uff1b \uff0e \u2019 \uff09".split(),  # full-width ! ? ; . ) and ’  # noqa: RUF003
    *"Dr. Mr. e.g. i.e. etc. Fig. No. J. U.S. al. vol. 3.14 1. 12. v1.2.3".split(),
    *"the The word Word a A x.com a@b.org 中文 漢字 かな 한국 Это это é É 😀".split(),
    " ",
    "  ",
    "\n",
    "\n\n",
    "\r\n",
    "\r\n\r\n",
    "\t",
    "\u3000",
    "\xa0",
    "\x1c",
    "\u2028",
    "e\u0301",
    "5",
    # Tokenised text, JSON escapes and list markers (rules 1 and 4, the escapes).
    " . ",
    "\\n",
    "\\t",
    '\\"',
    "\\",
    "- ",
    "* ",
    "\u2022 ",
    "1) ",
    "12. ",
]
sentence_text = st.lists(st.sampled_from(SENTENCE_ATOMS), max_size=60).map("".join)


def pieces(engine, text: str) -> list[str]:
    return engine.split_sentences(text)


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_hand_written_cases(engine: str, case: dict) -> None:
    assert pieces(ENGINES[engine], case["text"]) == case["sentences"]


@given(sentence_text | texts)
def test_native_matches_reference(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return  # lone surrogates: checked in test_lone_surrogate_is_a_clear_error
    assert native.sentence_ends(text) == reference.sentence_ends(text)


@given(sentence_text | texts, st.booleans())
def test_spans_are_exact_and_cover(text: str, strip: bool) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return
    got = native.sentence_spans(text, strip=strip, metadata={"k": 1})
    assert [c.index for c in got] == list(range(len(got)))
    for c in got:
        assert text[c.start : c.end] == c.text
        assert len(text[: c.start].encode()) == c.byte_start
        assert c.byte_end - c.byte_start == len(c.text.encode())
        assert dict(c.metadata) == {"k": 1}
    if strip:
        assert all(c.text == c.text.strip() and c.text for c in got)
        bounds = [0, *(x for c in got for x in (c.start, c.end)), len(text)]
        outside = "".join(text[a:b] for a, b in zip(bounds[::2], bounds[1::2]))
        assert not outside.strip()  # only whitespace is left out
    else:
        assert "".join(c.text for c in got) == text
    expected = reference.sentence_spans(text, strip=strip, metadata={"k": 1})
    assert [fields(c) for c in got] == [fields(c) for c in expected]


def fields(c) -> tuple:
    return (c.text, c.start, c.end, c.byte_start, c.byte_end, c.index, dict(c.metadata))


def test_corpus_native_matches_reference(corpus_text: str) -> None:
    ends = native.sentence_ends(corpus_text)
    assert ends == reference.sentence_ends(corpus_text)
    assert "".join(native.split_sentences(corpus_text)) == corpus_text
    utf8 = native.sentence_ends(corpus_text, unit="byte")
    assert utf8 == [len(corpus_text[:e].encode()) for e in ends]


# One character prepended keeps a text as it is or makes CPython store it one, two or four
# bytes a character: the Rust scan reads each storage itself (no UTF-8 copy).
WIDENERS = {"as-is": "", "latin1": "\xe9 ", "ucs2": "\u0100 ", "ucs4": "\U0001f600 "}


@pytest.mark.parametrize("widen", WIDENERS.values(), ids=list(WIDENERS))
def test_every_storage_kind(widen: str) -> None:
    for case in CASES:
        text = widen + case["text"]
        assert native.sentence_ends(text) == reference.sentence_ends(text), case["name"]
        utf8 = [len(text[:e].encode()) for e in reference.sentence_ends(text)]
        assert native.sentence_ends(text, unit="byte") == utf8
        for strip in (False, True):
            got = native.sentence_spans(text, strip=strip)
            want = reference.sentence_spans(text, strip=strip)
            assert [fields(c) for c in got] == [fields(c) for c in want], case["name"]


def test_corpus_as_four_byte_storage(corpus_text: str) -> None:
    text = "\U0001f600 " + corpus_text  # every corpus file scanned as UCS-4 too
    assert native.sentence_ends(text) == reference.sentence_ends(text)


def test_byte_ends() -> None:
    # "é. " is 3 code points and 4 bytes; "漢。" 2 and 6.
    assert native.sentence_ends("é. É漢。x", unit="char") == [3, 6, 7]
    assert native.sentence_ends("é. É漢。x", unit="byte") == [4, 12, 13]


def test_empty_and_blank() -> None:
    assert native.split_sentences("") == []
    assert native.sentence_spans("") == []
    assert native.split_sentences(" \n ") == [" \n "]
    assert native.sentence_spans(" \n ", strip=True) == []


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="text must be str"):
        native.sentence_ends(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unit must be"):
        native.sentence_ends("x", unit="token")  # type: ignore[arg-type]


def test_lone_surrogate_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="lone surrogate"):
        native.sentence_spans("ok. \ud800 no")
    with pytest.raises(ValueError, match="lone surrogate"):
        native.sentence_ends("\udfff")
