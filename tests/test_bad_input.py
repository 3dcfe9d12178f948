"""Bad input: a clear ValueError/TypeError (never a Rust panic), and for the drop-ins
exactly what LangChain raises, at the same call (construction or split)."""

from __future__ import annotations

import langchain_text_splitters as lc
import pytest

import ferrochunk
from ferrochunk.reference.split.recursive import Engine
from support import outcome, recorded_calls, staged

NOT_TEXT = [None, b"bytes", 123, 1.5, ["a"], bytearray(b"x")]

# -- native API ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", NOT_TEXT, ids=repr)
def test_native_text_must_be_str(impl, text) -> None:
    with pytest.raises(TypeError, match="text must be str, got"):
        impl.split(text, 10, chunk_overlap=0)
    with pytest.raises(TypeError, match="text must be str, got"):
        impl.Splitter(10, chunk_overlap=0).split(text)


@pytest.mark.parametrize(
    ("size", "overlap", "error", "message"),
    [
        (0, 0, ValueError, "chunk_size must be > 0, got 0"),
        (-5, 0, ValueError, "chunk_size must be > 0, got -5"),
        (10, -1, ValueError, "chunk_overlap must be >= 0, got -1"),
        (10, 11, ValueError, r"chunk_overlap \(11\) must not exceed chunk_size \(10\)"),
        (10.0, 0, TypeError, "chunk_size must be an int, got float"),
        ("10", 0, TypeError, "chunk_size must be an int, got str"),
        (None, 0, TypeError, "chunk_size must be an int, got NoneType"),
        (True, 0, TypeError, "chunk_size must be an int, got bool"),
        (10, 2.5, TypeError, "chunk_overlap must be an int, got float"),
        (10, "2", TypeError, "chunk_overlap must be an int, got str"),
        (None, None, TypeError, "chunk_size must be an int, got NoneType"),  # default overlap
        (2.5, None, TypeError, "chunk_size must be an int, got float"),
    ],
)
def test_native_sizes(impl, size, overlap, error, message) -> None:
    with pytest.raises(error, match=message):
        impl.Splitter(size, chunk_overlap=overlap)


@pytest.mark.parametrize(
    ("separators", "message"),
    [
        ("abc", "separators must be a list of str"),
        ([1], "separators must be a list of str"),
        (["a", None], "separators must be a list of str"),
        ([b"\n"], "separators must be a list of str"),
    ],
)
def test_native_separator_types(impl, separators, message) -> None:
    with pytest.raises(TypeError, match=message):
        impl.Splitter(10, chunk_overlap=0, separators=separators)


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("(", "invalid separator regex"),
        ("[a-", "invalid separator regex"),
        ("a{2,1}", "invalid separator regex"),
        ("(?<=a+)b", "invalid separator regex"),
        ("(?s).", "use scoped flags"),
        ("x*", "can match the empty string; use '' to split into characters"),
        ("a|", "can match the empty string"),
        (r"(?=\n)", "can match the empty string"),
        (r"\b", "can match the empty string"),
        ("(a)", r"has capturing groups; use \(\?:\.\.\.\) instead"),
        (r"(\w)\1", "has capturing groups"),
        ("(?P<name>a)", "has capturing groups"),
    ],
)
def test_native_bad_regex_fails_at_construction(impl, pattern, message) -> None:
    with pytest.raises(ValueError, match=message):
        impl.Splitter(10, chunk_overlap=0, separators=[pattern, ""], is_separator_regex=True)


@pytest.mark.parametrize("keep", [False, None, "drop", "middle", 0])
def test_native_keep_separator(impl, keep) -> None:
    with pytest.raises(ValueError, match="keep_separator must be 'start' or 'end'"):
        impl.Splitter(10, chunk_overlap=0, keep_separator=keep)


def test_native_length_function_must_be_callable(impl) -> None:
    with pytest.raises(TypeError, match="length_function must be callable"):
        impl.Splitter(10, chunk_overlap=0, length_function=5)


def test_native_length_function_errors_propagate(impl) -> None:
    def boom(text: str) -> int:
        raise LookupError(f"cannot measure {text!r}")

    with pytest.raises(LookupError, match="cannot measure"):
        impl.split("some text here", 5, chunk_overlap=0, length_function=boom)


@pytest.mark.parametrize("text", ["a\ud800b", "\udfff", "ok text \udc80 more", "😀\ud83d"])
def test_native_lone_surrogate(text: str) -> None:
    import ferrochunk

    with pytest.raises(ValueError, match="lone surrogate") as info:
        ferrochunk.split(text, 5, chunk_overlap=0)
    assert "errors='replace'" in str(info.value)


@pytest.mark.parametrize("text", ["a\ud800b", "ok text \udc80 more"])
def test_reference_lone_surrogate(text: str) -> None:
    import ferrochunk.reference

    with pytest.raises(ValueError, match="surrogate"):
        ferrochunk.reference.split(text, 5, chunk_overlap=0)


# -- drop-ins: exactly LangChain's exception, at the same call -----------------------------


def assert_like_langchain(impl, make, use=lambda s: s.split_text("a b c\n\nd e f")) -> None:
    expected = staged(make, use, lc)
    assert staged(make, use, impl) == expected


@pytest.mark.parametrize("text", NOT_TEXT, ids=repr)
@pytest.mark.parametrize("cls", ["RecursiveCharacterTextSplitter", "CharacterTextSplitter"])
def test_drop_in_text_not_str(impl, cls: str, text) -> None:
    def make(m):
        return getattr(m, cls)(chunk_size=5, chunk_overlap=0)

    assert_like_langchain(impl, make, lambda s: s.split_text(text))
    assert_like_langchain(impl, make, lambda s: s.create_documents([text]))


@pytest.mark.parametrize(
    ("size", "overlap"),
    [(0, 0), (-1, 0), (5, -1), (5, 6), (2, 4), ("10", 0), (None, 0), (10, None), (1.5, 0)],
)
@pytest.mark.parametrize("cls", ["RecursiveCharacterTextSplitter", "CharacterTextSplitter"])
def test_drop_in_sizes(impl, cls: str, size, overlap) -> None:
    assert_like_langchain(impl, lambda m: getattr(m, cls)(chunk_size=size, chunk_overlap=overlap))


@pytest.mark.parametrize(("size", "overlap"), [(2**63, 0), (2**70, 2**69), (7.5, 2.5), (True, 0)])
def test_drop_in_unusual_sizes_split_like_langchain(impl, size, overlap) -> None:
    """Sizes the Rust core cannot hold (beyond i64, not int) run on the reference engine."""
    with recorded_calls(Engine) as calls:
        assert_like_langchain(
            impl, lambda m: m.RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
        )
    assert calls == ["a b c\n\nd e f"], "not split by the reference engine"


SEPARATORS_NOT_INDEXED = pytest.mark.xfail(
    strict=True,
    reason="reference RecursiveCharacterTextSplitter.split_text iterates separators; LangChain "
    "first indexes separators[-1] (int: 'not subscriptable' vs 'not iterable'; dict: KeyError)",
)


@pytest.mark.parametrize(
    "separators",
    [
        pytest.param(5, marks=SEPARATORS_NOT_INDEXED),
        pytest.param({"\n": 1}, marks=SEPARATORS_NOT_INDEXED),
        *["abc", [1], ["a", None], [b"\n"], (" ",), [], None],
    ],
)
def test_drop_in_separator_types(impl, separators) -> None:
    def make(m):
        return m.RecursiveCharacterTextSplitter(
            separators=separators, chunk_size=3, chunk_overlap=0
        )

    assert_like_langchain(impl, make)


@pytest.mark.parametrize("separator", [None, 5, b" ", ["\n"]])
def test_drop_in_character_separator_types(impl, separator) -> None:
    def make(m):
        return m.CharacterTextSplitter(separator=separator, chunk_size=3, chunk_overlap=0)

    assert_like_langchain(impl, make)


@pytest.mark.parametrize("pattern", ["(", "[", "*", "a{2,1}", "(?<=a+)b", "(?s).", "\\"])
@pytest.mark.parametrize("keep", [True, False, "end"])
def test_drop_in_invalid_regex(impl, pattern: str, keep) -> None:
    def recursive(m):
        return m.RecursiveCharacterTextSplitter(
            separators=["\n\n", pattern], is_separator_regex=True, keep_separator=keep,
            chunk_size=3, chunk_overlap=0,
        )  # fmt: skip

    def character(m):
        return m.CharacterTextSplitter(
            separator=pattern, is_separator_regex=True, keep_separator=keep,
            chunk_size=3, chunk_overlap=0,
        )  # fmt: skip

    assert_like_langchain(impl, recursive)
    assert_like_langchain(impl, character)


@pytest.mark.parametrize("text", ["a\ud800b c", "\udfff", "x \udc80\n\ny", "😀\ud83d 😀"])
@pytest.mark.parametrize("keep", [True, False, "end"])
def test_drop_in_lone_surrogates_like_langchain(impl, text: str, keep) -> None:
    """Text with no UTF-8 encoding runs on the reference engine (the Rust side refuses it)."""

    def make(m):
        return m.RecursiveCharacterTextSplitter(chunk_size=2, chunk_overlap=1, keep_separator=keep)

    def character(m):
        return m.CharacterTextSplitter(separator=" ", chunk_size=2, chunk_overlap=0)

    for splitter in (make, character):
        with recorded_calls(Engine) as calls:
            assert_like_langchain(impl, splitter, lambda s: s.split_text(text))
        assert calls == [text], "not split by the reference engine"


@pytest.mark.parametrize("wide", ["\uff0c", "\U0001f600"])  # UCS-2 and UCS-4, both >= U+D800
@pytest.mark.parametrize(
    "wide_at, lone_at",
    [(None, 5), (None, 200), (0, 3), (0, 200), (10, 290), (130, 260), (200, 100)],
)
@pytest.mark.parametrize("lone", ["\ud800", "\udfff"])
def test_lone_surrogates_anywhere_in_long_chunks_reach_the_reference(
    wide: str, wide_at: int | None, lone_at: int, lone: str
) -> None:
    """Chunks of hundreds of characters are checked block by block (128 characters), and only
    from the block where the characters seen reach U+D800 on: a lone surrogate is found in
    that block and every later one, after a wide character of an earlier block too. Chunks
    here are the windows [0, 300), [300, 600), [600, 900)."""
    units = ["a"] * 900
    for shift in (0, 300, 600):
        if wide_at is not None:
            units[shift + wide_at] = wide
    units[300 + lone_at] = lone
    text = "".join(units)
    splitter = ferrochunk.RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=0)
    with recorded_calls(Engine) as calls:
        got = splitter.split_text(text)
    assert calls == [text], "not split by the reference engine"
    expected = lc.RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=0)
    assert got == expected.split_text(text)


def test_outcome_helper_catches_panics() -> None:
    """The guard every comparison relies on: a PanicException is never an outcome."""

    class PanicException(BaseException):
        pass

    def panic() -> None:
        raise PanicException("boom")

    with pytest.raises(AssertionError, match="a Rust panic reached Python"):
        outcome(panic)
