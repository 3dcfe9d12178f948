"""Every file of ``../shared/corpus``: drop-ins == LangChain (output and warnings), and the
native API's offset promises, in a few representative settings."""

from __future__ import annotations

from pathlib import Path

import langchain_text_splitters as lc
import pytest

import corpus
from support import check_offsets, docs, staged

SETTINGS = {
    "recursive-1000-200": lambda m: m.RecursiveCharacterTextSplitter(
        chunk_size=1000, chunk_overlap=200
    ),
    "recursive-end-nostrip": lambda m: m.RecursiveCharacterTextSplitter(
        chunk_size=120, chunk_overlap=40, keep_separator="end", strip_whitespace=False
    ),
    "recursive-regex-drop": lambda m: m.RecursiveCharacterTextSplitter(
        separators=[r"\n#{1,6} ", r"\n\n", r"[.!?]\s*", r"\s+", ""],
        is_separator_regex=True,
        keep_separator=False,
        chunk_size=100,
        chunk_overlap=0,
    ),
    "character-paragraphs": lambda m: m.CharacterTextSplitter(
        separator="\n\n", chunk_size=500, chunk_overlap=50
    ),
    "markdown-preset": lambda m: m.RecursiveCharacterTextSplitter.from_language(
        m.Language.MARKDOWN, chunk_size=300, chunk_overlap=30
    ),
}


def test_corpus_is_complete(corpus_dir: Path) -> None:
    """When the corpus is there, it is all there: its three corpora, none cut short."""
    assert [len(corpus.files(name)) >= 100 for name in corpus.MARKDOWN] == [True, True]
    assert [p.name for p in corpus.files("en-prose")] == ["tinyshakespeare.txt"]


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_split_text_matches_langchain(impl, corpus_text: str, setting: str) -> None:
    make = SETTINGS[setting]
    expected = staged(make, lambda s: s.split_text(corpus_text), lc)
    assert expected[1] == "ok"
    assert staged(make, lambda s: s.split_text(corpus_text), impl) == expected


def test_start_index_matches_langchain(impl, corpus_text: str) -> None:
    def make(m):
        return m.RecursiveCharacterTextSplitter(
            chunk_size=400, chunk_overlap=100, add_start_index=True
        )

    def use(s):
        return docs(s.create_documents([corpus_text], [{"source": "corpus"}]))

    assert staged(make, use, impl) == staged(make, use, lc)


@pytest.mark.parametrize(("size", "overlap", "keep"), [(1000, 200, "start"), (64, 16, "end")])
def test_native_api_offsets(impl, corpus_text: str, size: int, overlap: int, keep: str) -> None:
    chunks = impl.split(corpus_text, size, chunk_overlap=overlap, keep_separator=keep)
    check_offsets(corpus_text, chunks)
    drop_in = impl.RecursiveCharacterTextSplitter(
        chunk_size=size, chunk_overlap=overlap, keep_separator=keep
    )
    assert [c.text for c in chunks] == drop_in.split_text(corpus_text)


def test_non_ascii_pattern_on_ascii_corpus_file(corpus_dir) -> None:
    import ferrochunk

    text = (corpus_dir / "en-prose" / "tinyshakespeare.txt").read_text(encoding="utf-8")
    assert text.isascii()

    def make(m):
        return m.RecursiveCharacterTextSplitter(
            separators=[r"\n\n", r"[.。!?]\s*", r"\s+", ""],
            is_separator_regex=True,
            keep_separator=False,
            chunk_size=100,
            chunk_overlap=0,
        )

    use = lambda s: s.split_text(text)  # noqa: E731
    assert staged(make, use, ferrochunk) == staged(make, use, lc)
