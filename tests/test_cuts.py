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
from markdown_it import MarkdownIt

import corpus
import ferrochunk
import ferrochunk.reference as reference
from ferrochunk.frontend.cuts import REASONS
from support import LITERAL_SEPARATORS, RUST_REGEXES, texts
from test_markdown import markdown as markdown_texts

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


# -- the structure-aware chunkers ------------------------------------------------------------

PARSER = MarkdownIt("commonmark").enable("table")
# Sentence punctuation (ASCII, the ideographic full stop, CJK full-width marks), then
# closing quotes or brackets.
SENTENCE_END = re.compile(
    "[.!?\u3002\uff01\uff1f\u2026;\uff1b]['\"\u201d\u2019)\\]\u300d\u300f\uff09]*$"
)


def markdown_pair(cls, size, **options):
    return getattr(ferrochunk, cls)(size, **options), getattr(reference, cls)(size, **options)


def heading_lines(text):
    """The lines markdown-it (not our scanner) reads as headings, by their first line."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    return {starts[t.map[0]] for t in PARSER.parse(text) if t.type == "heading_open"}


def assert_markdown_cuts_hold(text, chunker):
    chunks, cuts = chunker.split(text), chunker.cuts(text)
    assert len(cuts) == len(chunks)
    heads = heading_lines(text)
    for i, (chunk, cut) in enumerate(zip(chunks, cuts)):
        assert cut.reason in REASONS
        assert (cut.reason == "end") == (i == len(chunks) - 1)
        if cut.reason == "heading":  # the next line with text opens a heading
            rest = text[chunk.end :]
            at = chunk.end + len(rest) - len(rest.lstrip())
            assert text.rfind("\n", 0, at) + 1 in heads, text[chunk.end : chunk.end + 40]
        if cut.reason == "sentence":  # after sentence punctuation, or at a line's end
            after = text[chunk.end : chunk.end + 2]
            assert SENTENCE_END.search(chunk.text) or after[:1] in ("\n", "\r"), chunk.text[-40:]
        if cut.reason in ("line", "block", "atomic", "paragraph", "statement"):
            assert text[chunk.end : chunk.end + 1] in ("", "\n", "\r") or text[chunk.end].isspace()


@given(
    text=markdown_texts(),
    size=st.integers(8, 300),
    preset=st.sampled_from(["default", "cjk", ["\n\n", "\n", " ", ""]]),
    cls=st.sampled_from(["MarkdownChunker", "TextChunker"]),
)
def test_markdown_native_equals_reference(text, size, preset, cls):
    native, ref = markdown_pair(cls, size, separators=preset)
    assert native.cuts(text) == ref.cuts(text)
    assert len(native.cuts(text)) == len(native.split(text))


@given(text=markdown_texts(), size=st.integers(8, 300))
def test_markdown_reasons_hold_in_the_text(text, size):
    assert_markdown_cuts_hold(text, ferrochunk.MarkdownChunker(size))


def test_known_markdown_cuts():
    text = "# A\n\nOne. Two.\n\n# B\n\nThree.\n\n```\ncode\n```\n\nFour five six seven."
    chunker = ferrochunk.MarkdownChunker(16, min_size=0)
    reasons = [c.reason for c in chunker.cuts(text)]
    assert reasons[0] == "heading" and reasons[-1] == "end"
    assert "atomic" in reasons
    assert ferrochunk.MarkdownChunker(100).cuts("") == []
    with pytest.raises(TypeError):
        chunker.cuts(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [200, 1000])
@pytest.mark.parametrize("cls", ["MarkdownChunker", "TextChunker"])
def test_markdown_corpus(size, cls):
    for name in corpus.NAMES:
        for text in corpus.texts(name)[:5]:
            native, ref = markdown_pair(cls, size)
            assert native.cuts(text) == ref.cuts(text)
            if cls == "MarkdownChunker":
                assert_markdown_cuts_hold(text, native)
