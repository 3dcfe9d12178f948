"""``ferrochunk.split``, the one-off front door, keeps the splitters it built: every call
must still behave as ``Splitter(...).split`` made afresh, errors included."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ferrochunk
from ferrochunk import Splitter, split

TEXT = st.text(alphabet=st.sampled_from(list("ab \n.,é漢")), max_size=200)
SEPARATORS = st.one_of(
    st.none(), st.lists(st.sampled_from(["\n\n", "\n", " ", ".", ""]), max_size=4)
)


def fields(chunks) -> list[tuple]:
    return [(c.text, c.start, c.end, c.byte_start, c.byte_end, c.index) for c in chunks]


@given(
    text=TEXT,
    size=st.integers(1, 40),
    overlap=st.one_of(st.none(), st.integers(0, 10)),
    separators=SEPARATORS,
    keep=st.sampled_from(["start", "end"]),
)
def test_split_equals_a_fresh_splitter(text, size, overlap, separators, keep) -> None:
    if overlap is not None and overlap > size:
        overlap = size
    options = {"separators": separators, "keep_separator": keep}
    want = Splitter(size, chunk_overlap=overlap, **options).split(text)
    assert fields(split(text, size, chunk_overlap=overlap, **options)) == fields(want)
    assert fields(split(text, size, chunk_overlap=overlap, **options)) == fields(want)


def test_bad_arguments_raise_on_every_call() -> None:
    assert split("a b", 2, chunk_overlap=1)
    for _ in range(2):  # `True == 1`: the splitter of 1 must not answer for True
        with pytest.raises(TypeError):
            split("a b", 2, chunk_overlap=True)
        with pytest.raises(ValueError):
            split("a b", 2, chunk_overlap=3)


def test_a_changed_separator_list_is_a_new_splitter() -> None:
    seps = [" "]
    assert [c.text for c in split("a-b c", 3, chunk_overlap=0, separators=seps)] == ["a-b", "c"]
    seps[0] = "-"
    fresh = Splitter(3, chunk_overlap=0, separators=["-"]).split("a-b c")
    got = split("a-b c", 3, chunk_overlap=0, separators=seps)
    assert fields(got) == fields(fresh) != [("a-b", 0, 3, 0, 3, 0), ("c", 4, 5, 4, 5, 1)]


def test_unhashable_options_still_split() -> None:
    class Length:  # an unhashable callable: built afresh each call
        __hash__ = None  # type: ignore[assignment]

        def __call__(self, s: str) -> int:
            return len(s)

    got = split("ab cd", 3, chunk_overlap=0, length_function=Length())
    assert [c.text for c in got] == ["ab", "cd"]
    assert ferrochunk.split("ab cd", 3, chunk_overlap=0)[1].text == "cd"


@given(text=TEXT, size=st.integers(1, 40), overlap=st.one_of(st.none(), st.integers(0, 10)))
def test_sizes_only_equals_a_fresh_splitter(text, size, overlap) -> None:
    # The sizes-only call takes its own cache (a plain dict keyed by the sizes and types).
    if overlap is not None and overlap > size:
        overlap = size
    want = fields(Splitter(size, chunk_overlap=overlap).split(text))
    assert fields(split(text, size, chunk_overlap=overlap)) == want
    assert fields(split(text, size, chunk_overlap=overlap)) == want
    assert fields(split(text, size)) == fields(Splitter(size).split(text))


def test_sizes_only_cache_stays_bounded() -> None:
    from ferrochunk.split import splitter

    for size in range(1, 200):
        assert split("a b c", size, chunk_overlap=0)[0].start == 0
    assert 0 < len(splitter._BY_SIZES) <= splitter._CACHED_SPLITTERS
    with pytest.raises(TypeError):  # an unhashable size: the constructor's own error
        split("a b", [3])  # type: ignore[arg-type]
