"""``from_language`` presets: every LangChain ``Language``, same separators, same output."""

from __future__ import annotations

import functools

import langchain_text_splitters as lc
import pytest
from hypothesis import given
from hypothesis import strategies as st

from support import ATOMS, keep_modes, outcome, sizes, staged

LANGUAGES = list(lc.Language)


def test_language_enum_has_langchains_members(impl) -> None:
    assert [(m.name, m.value) for m in impl.Language] == [(m.name, m.value) for m in LANGUAGES]


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda m: m.value)
def test_separators_for_language(impl, language) -> None:
    ours = impl.Language(language.value)
    expected = outcome(
        lambda: lc.RecursiveCharacterTextSplitter.get_separators_for_language(language)
    )
    got = outcome(lambda: impl.RecursiveCharacterTextSplitter.get_separators_for_language(ours))
    assert got == expected
    # LangChain's own enum member works with our class too (str enums with equal values).
    assert (
        outcome(lambda: impl.RecursiveCharacterTextSplitter.get_separators_for_language(language))
        == expected
    )


@pytest.mark.parametrize("bad", ["klingon", "", None, 3])
def test_unknown_language_raises_like_langchain(impl, bad) -> None:
    expected = staged(lambda m: m.RecursiveCharacterTextSplitter.from_language(bad), str, lc)
    assert staged(lambda m: m.RecursiveCharacterTextSplitter.from_language(bad), str, impl) == (
        expected
    )


@functools.cache
def _code(language: lc.Language) -> st.SearchStrategy[str]:
    """Text made of strings matching the language's separators, words and whitespace."""
    try:
        separators = lc.RecursiveCharacterTextSplitter.get_separators_for_language(language)
    except ValueError:
        separators = ["\n"]
    parts = [st.from_regex(p, fullmatch=True) for p in separators if p]
    atom = st.one_of(*parts, st.sampled_from(ATOMS), st.sampled_from(["foo()", "{", "}", ";"]))
    return st.lists(atom, max_size=120).map("".join)


@st.composite
def language_and_code(draw: st.DrawFn) -> tuple[lc.Language, str]:
    language = draw(st.sampled_from(LANGUAGES))
    return language, draw(_code(language))


@given(language_and_code(), sizes(), keep_modes, st.booleans())
def test_from_language(impl, case, sz, keep, strip) -> None:
    language, text = case
    size, overlap = sz

    def make(module, lang):
        return lambda m: m.RecursiveCharacterTextSplitter.from_language(
            lang,
            chunk_size=size,
            chunk_overlap=overlap,
            keep_separator=keep,
            strip_whitespace=strip,
        )

    expected = staged(make(lc, language), lambda s: s.split_text(text), lc)
    ours = impl.Language(language.value)
    assert staged(make(impl, ours), lambda s: s.split_text(text), impl) == expected
