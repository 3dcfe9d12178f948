"""Drop-in splitters on generated inputs: ferrochunk (Rust) == reference == LangChain.

Each test builds the same splitter from ``langchain_text_splitters`` and from one of our two
implementations (the ``impl`` fixture) and compares outcomes: the output, or the exception
and the stage (construction or call) that raised it, plus the size warnings logged.
"""

from __future__ import annotations

import langchain_text_splitters as lc
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from support import (
    INVALID_REGEXES,
    LITERAL_SEPARATORS,
    docs,
    keep_modes,
    length_functions,
    literal_separator_lists,
    regex_pool,
    regex_separator_lists,
    sizes,
    staged,
    texts,
)


def assert_same(impl, make, use) -> None:
    expected = staged(make, use, lc)
    assert staged(make, use, impl) == expected


def recursive(sz, keep, seps, strip, length, regex=False):
    size, overlap = sz
    return lambda m: m.RecursiveCharacterTextSplitter(
        separators=seps,
        keep_separator=keep,
        is_separator_regex=regex,
        chunk_size=size,
        chunk_overlap=overlap,
        strip_whitespace=strip,
        length_function=length,
    )


def character(sz, keep, sep, strip, length, regex=False):
    size, overlap = sz
    return lambda m: m.CharacterTextSplitter(
        separator=sep,
        keep_separator=keep,
        is_separator_regex=regex,
        chunk_size=size,
        chunk_overlap=overlap,
        strip_whitespace=strip,
        length_function=length,
    )


def split(text: str):
    return lambda splitter: splitter.split_text(text)


@given(texts, sizes(), keep_modes, literal_separator_lists, st.booleans())
@example("a\n\nb", (1, 0), True, None, True)
@example("\x1c a \x1f", (2, 1), "end", [" "], True)
def test_recursive_literal(impl, text, sz, keep, seps, strip) -> None:
    assert_same(impl, recursive(sz, keep, seps, strip, len), split(text))


@given(texts, sizes(), keep_modes, regex_separator_lists, st.booleans())
def test_recursive_regex(impl, text, sz, keep, seps, strip) -> None:
    assert_same(impl, recursive(sz, keep, seps, strip, len, regex=True), split(text))


@given(texts, sizes(), keep_modes, literal_separator_lists, st.booleans(), length_functions)
def test_recursive_length_function(impl, text, sz, keep, seps, strip, length) -> None:
    assert_same(impl, recursive(sz, keep, seps, strip, length), split(text))


@given(texts, sizes(), keep_modes, st.sampled_from(LITERAL_SEPARATORS), st.booleans())
@example("foo.bar.baz", (1, 0), False, ".", True)
def test_character_literal(impl, text, sz, keep, sep, strip) -> None:
    assert_same(impl, character(sz, keep, sep, strip, len), split(text))


@given(texts, sizes(), keep_modes, st.sampled_from(regex_pool), st.booleans(), length_functions)
@example("SCE191 a. SCE103 b.", (200, 0), False, r"(?=SCE\d{3})", True, len)
def test_character_regex(impl, text, sz, keep, sep, strip, length) -> None:
    assert_same(impl, character(sz, keep, sep, strip, length, regex=True), split(text))


@given(
    texts,
    st.integers(-1, 1),
    st.integers(0, 5),
    keep_modes,
    literal_separator_lists,
    st.sampled_from(LITERAL_SEPARATORS),
    st.booleans(),
)
# One piece exactly the size with no separator left after it: LangChain keeps it unstripped.
@example("  ab", 0, 0, True, ["\n\n"], "\n\n", True)
@example(" \n\n ", 1, 0, "end", None, "\n\n", True)
def test_text_near_chunk_size(impl, text, delta, overlap, keep, seps, sep, strip) -> None:
    """Chunk sizes one below, at and one above the text's length: a text shorter than the
    size is one chunk, which the native engine takes without cutting it."""
    size = max(1, len(text) + delta)
    sz = (size, min(overlap, size))
    assert_same(impl, recursive(sz, keep, seps, strip, len), split(text))
    assert_same(impl, character(sz, keep, sep, strip, len), split(text))


@pytest.mark.parametrize("recursive_", [True, False])
def test_non_ascii_pattern_joins_ascii_text(recursive_: bool) -> None:
    import ferrochunk

    def make(m):
        kw = {"is_separator_regex": True, "keep_separator": False, "chunk_overlap": 0}
        if recursive_:
            return m.RecursiveCharacterTextSplitter(separators=["x|é"], chunk_size=5, **kw)
        return m.CharacterTextSplitter(separator="x|é", chunk_size=5, **kw)

    assert staged(make, split("axbxc"), ferrochunk) == staged(make, split("axbxc"), lc)


@given(texts, sizes(), keep_modes, st.sampled_from(INVALID_REGEXES), st.booleans())
def test_invalid_regex_raises_where_langchain_raises(impl, text, sz, keep, bad, rec) -> None:
    if rec:
        make = recursive(sz, keep, [r"\n", bad, ""], True, len, regex=True)
    else:
        make = character(sz, keep, bad, True, len, regex=True)
    assert_same(impl, make, split(text))


@given(
    st.lists(texts, max_size=3),
    sizes(),
    keep_modes,
    literal_separator_lists,
    st.booleans(),
    st.booleans(),
)
def test_create_documents_start_index(impl, batch, sz, keep, seps, strip, start) -> None:
    size, overlap = sz
    metadatas = [{"doc": i, "nested": {"tags": [i]}} for i in range(len(batch))]

    def make(m):
        return m.RecursiveCharacterTextSplitter(
            separators=seps,
            keep_separator=keep,
            chunk_size=size,
            chunk_overlap=overlap,
            strip_whitespace=strip,
            add_start_index=start,
        )

    assert_same(impl, make, lambda s: docs(s.create_documents(batch, metadatas)))
    assert_same(impl, make, lambda s: docs(s.create_documents(batch)))


atomic = st.one_of(
    st.text(max_size=3), st.integers(), st.floats(allow_nan=False), st.booleans(), st.none()
) | st.binary(max_size=3)
plain_metadata = st.dictionaries(st.text(max_size=3) | st.integers(), atomic, max_size=3)
any_metadata = plain_metadata | st.dictionaries(st.text(max_size=2), st.lists(atomic), max_size=2)


@given(
    st.lists(texts, max_size=4),
    st.lists(any_metadata, max_size=5),
    sizes(),
    st.booleans(),
)
def test_create_documents_with_metadata(impl, batch, metadatas, sz, start) -> None:
    """Several texts with their metadata (plain dicts, made in one native call; any other,
    or fewer than the texts, take the loop and raise where LangChain raises), each chunk's
    metadata its own copy."""
    size, overlap = sz

    def make(m):
        return m.RecursiveCharacterTextSplitter(
            chunk_size=size, chunk_overlap=overlap, add_start_index=start
        )

    def use(splitter):
        documents = splitter.create_documents(batch, metadatas)
        assert len({id(d.metadata) for d in documents}) == len(documents)
        return docs(documents)

    assert_same(impl, make, use)


@given(st.lists(texts, max_size=4), st.lists(plain_metadata, max_size=5), sizes())
def test_create_documents_reads_an_iterator_once(impl, batch, metadatas, sz) -> None:
    """Texts as a one-shot iterator (LangChain's loop reads them once): the same documents,
    or the same error (fewer metadatas than texts; none at all, where ``len`` fails)."""
    size, overlap = sz

    def make(m):
        return m.RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)

    assert_same(impl, make, lambda s: docs(s.create_documents(iter(batch), metadatas)))


def hooked(module, kind: str, hook: str):
    """A subclass of ``module``'s ``kind`` splitter overriding one of LangChain's hooks in a
    way that shows in the output (not idempotent: a hook called once too often shows too)."""

    class Hooked(getattr(module, kind)):
        if hook == "_merge_splits":

            def _merge_splits(self, splits, separator):
                return [f"<{c}>" for c in super()._merge_splits(list(splits), separator)]

        elif hook == "_join_docs":

            def _join_docs(self, docs, separator):
                text = super()._join_docs(docs, separator)
                return None if text is None else f"{len(docs)}:{text}"

        else:

            def _split_text(self, text, separators):
                return [f"{len(separators)}!{c}" for c in super()._split_text(text, separators)]

    return Hooked


@given(
    st.lists(texts, min_size=1, max_size=3),
    sizes(),
    st.sampled_from(
        [
            ("CharacterTextSplitter", "_merge_splits"),
            ("CharacterTextSplitter", "_join_docs"),
            ("RecursiveCharacterTextSplitter", "_merge_splits"),
            ("RecursiveCharacterTextSplitter", "_join_docs"),
            ("RecursiveCharacterTextSplitter", "_split_text"),
        ]
    ),
    keep_modes,
    st.booleans(),
)
def test_subclass_hooks_are_called_where_langchain_calls_them(
    impl, batch, sz, kind_hook, keep, strip
) -> None:
    """A subclass overriding ``_merge_splits``, ``_join_docs`` or ``_split_text`` (the
    recursion into long pieces goes through it) gets LangChain's output from ``split_text``
    and from ``create_documents`` (which splits several texts at once when no hook is
    overridden)."""
    size, overlap = sz
    kind, hook = kind_hook

    def make(m):
        cls = hooked(m, kind, hook)
        return cls(
            chunk_size=size, chunk_overlap=overlap, keep_separator=keep, strip_whitespace=strip
        )

    assert_same(impl, make, lambda s: s.split_text(batch[0]))
    assert_same(impl, make, lambda s: docs(s.create_documents(batch)))


@given(
    st.lists(texts, max_size=3),
    st.lists(st.sampled_from(["ab", "b", b"ab", 5, None, "\ud800"]), max_size=3),
    st.lists(plain_metadata | any_metadata, max_size=3),
    st.booleans(),
)
def test_create_documents_takes_a_subclass_chunks_as_langchain(
    impl, batch, chunks, metadatas, start
) -> None:
    """A subclass whose ``split_text`` returns things that are no ``str`` (``bytes``, which
    LangChain's ``Document`` takes, ints, ``None``): LangChain's documents or its error."""

    def make(m):
        class Chunks(m.RecursiveCharacterTextSplitter):
            def split_text(self, text):
                return list(chunks)

        return Chunks(chunk_size=5, chunk_overlap=0, add_start_index=start)

    assert_same(impl, make, lambda s: docs(s.create_documents(batch, metadatas or None)))


@given(st.lists(texts, max_size=3), sizes(), st.sampled_from(LITERAL_SEPARATORS))
def test_split_and_transform_documents(impl, batch, sz, sep) -> None:
    from langchain_core.documents import Document

    size, overlap = sz
    documents = [Document(page_content=t, metadata={"i": i}) for i, t in enumerate(batch)]

    def make(m):
        return m.CharacterTextSplitter(
            separator=sep, chunk_size=size, chunk_overlap=overlap, add_start_index=True
        )

    assert_same(impl, make, lambda s: docs(s.split_documents(documents)))
    assert_same(impl, make, lambda s: docs(s.transform_documents(documents)))


@given(texts, sizes())
def test_defaults_and_reuse(impl, text, sz) -> None:
    """One splitter reused across calls, and attributes changed between calls."""
    size, overlap = sz

    def use(splitter):
        first = splitter.split_text(text)
        splitter._chunk_size = max(1, size // 2)
        splitter._chunk_overlap = min(overlap, splitter._chunk_size)
        splitter._keep_separator = "end"
        return first, splitter.split_text(text), splitter.split_text(text[::-1])

    assert_same(
        impl,
        lambda m: m.RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap),
        use,
    )
    assert_same(
        impl, lambda m: m.CharacterTextSplitter(chunk_size=size, chunk_overlap=overlap), use
    )
