"""Cut reasons: why each chunk ends where it does, as the chunkers record it.

Native == reference cut for cut, on generated text and the corpus; and each reason judged
against the text itself: a chunk cut at a separator is followed (kept at the start) or ended
(kept at the end) by that separator in the source, a chunk cut at ``end`` reaches the end.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import corpus
import ferrochunk
import ferrochunk.reference as reference
from ferrochunk.frontend.cuts import REASONS
from support import LITERAL_SEPARATORS, RUST_REGEXES, texts

SEPARATOR_LISTS = st.none() | st.lists(st.sampled_from(LITERAL_SEPARATORS), max_size=5)


def _accepted(pattern: str) -> bool:
    try:
        ferrochunk.Splitter(10, separators=[pattern], is_separator_regex=True)
    except ValueError:
        return False
    return True


# The native API's patterns: no capture groups, none matching the empty string.
PATTERNS = [p for p in RUST_REGEXES if _accepted(p)]


def both(size, overlap, **options):
    return (
        ferrochunk.Splitter(size, chunk_overlap=overlap, **options),
        reference.Splitter(size, chunk_overlap=overlap, **options),
    )


def assert_cuts_hold(text, splitter, regex=False):
    """Each cut judged by the source text alone (separators kept, nothing stripped)."""
    chunks, cuts = splitter.split(text), splitter.cuts(text)
    assert len(cuts) == len(chunks)
    keep = splitter._args["keep_separator"]
    for chunk, cut in zip(chunks, cuts):
        assert cut.reason in REASONS
        if cut.reason == "end":
            assert chunk.end == len(text)
            continue
        sep = cut.separator
        assert sep is not None and chunk.end < len(text)
        if regex:  # the pattern matches at the gap
            at = chunk.end if keep == "start" else None
            if at is not None:
                assert re.compile(sep).match(text, at), (sep, text[at:])
        elif keep == "start":
            assert text.startswith(sep, chunk.end), (sep, text[chunk.end :])
        else:
            assert text[: chunk.end].endswith(sep), (sep, text[: chunk.end])


@given(
    text=texts,
    size=st.integers(1, 60),
    overlap=st.integers(0, 10),
    seps=SEPARATOR_LISTS,
    keep=st.sampled_from(["start", "end"]),
    strip=st.booleans(),
)
def test_native_equals_reference(text, size, overlap, seps, keep, strip):
    options = {"separators": seps, "keep_separator": keep, "strip_whitespace": strip}
    native, ref = both(size, min(overlap, size), **options)
    assert native.cuts(text) == ref.cuts(text)
    assert len(native.cuts(text)) == len(native.split(text))


@given(text=texts, size=st.integers(1, 60), seps=st.lists(st.sampled_from(PATTERNS), max_size=4))
def test_native_equals_reference_on_patterns(text, size, seps):
    options = {"separators": seps or None, "is_separator_regex": True}
    native, ref = both(size, 0, **options)
    assert isinstance(native._engine, ferrochunk._native.Splitter)
    assert native.cuts(text) == ref.cuts(text)


@given(
    text=texts,
    size=st.integers(1, 60),
    seps=SEPARATOR_LISTS,
    keep=st.sampled_from(["start", "end"]),
)
def test_reasons_hold_in_the_text(text, size, seps, keep):
    for splitter in both(size, 0, separators=seps, keep_separator=keep, strip_whitespace=False):
        assert_cuts_hold(text, splitter)


def test_known_cuts():
    splitter = ferrochunk.Splitter(10, chunk_overlap=0)
    text = "aaa bbb ccc\n\ndd\nee"
    assert [c.text for c in splitter.split(text)] == ["aaa bbb", "ccc", "dd\nee"]
    assert [c.reason for c in splitter.cuts(text)] == ["word", "paragraph", "end"]
    long = ferrochunk.Splitter(4, chunk_overlap=0).cuts("abcdefgh\nx")
    assert [c.reason for c in long] == ["character", "line", "end"]
    custom = ferrochunk.Splitter(3, chunk_overlap=0, separators=["|"]).cuts("ab|cd|ef")
    assert custom == [("separator", "|"), ("separator", "|"), ("end", None)]
    pattern = ferrochunk.Splitter(3, chunk_overlap=0, separators=[r"\d"], is_separator_regex=True)
    assert [c.reason for c in pattern.cuts("ab1cd2ef")] == ["pattern", "pattern", "end"]


def test_python_length_and_fallback_engines():
    """A Python length function (measured holding the GIL) and one the core cannot hold
    (the reference engine runs) report the same cuts as the reference."""
    text = "one two three four five six\n\nseven eight nine ten " * 20
    for length in (lambda s: len(s.split()) + 1, lambda s: len(s) / 2):
        native, ref = both(6, 0, length_function=length)
        assert native.cuts(text) == ref.cuts(text)
        assert len(native.cuts(text)) == len(native.split(text))


def test_bad_input():
    splitter = ferrochunk.Splitter(10, chunk_overlap=0)
    with pytest.raises(TypeError):
        splitter.cuts(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lone surrogate"):
        splitter.cuts("ab \ud800 cd" * 5)


@pytest.mark.parametrize("size", [200, 1000])
def test_corpus(size):
    for name in corpus.NAMES:
        for text in corpus.texts(name)[:6]:
            native, ref = both(size, size // 5)
            cuts = native.cuts(text)
            assert cuts == ref.cuts(text)
            assert len(cuts) == len(native.split(text))
            assert_cuts_hold(
                text, ferrochunk.Splitter(size, chunk_overlap=0, strip_whitespace=False)
            )
