"""Token-sized splitting: the drop-ins (Rust) == the reference (tiktoken) == LangChain, and
``split_tokens`` windows that are exact spans with their token counts."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import corpus
import ferrochunk
from ferrochunk import reference, tokens

lc = pytest.importorskip("langchain_text_splitters")
pytest.importorskip("tiktoken")
tokens.use_bundled_ranks_in_tiktoken()  # LangChain calls tiktoken.get_encoding: no download

SPECIAL = "<|endoftext|>"

texts = st.lists(
    st.one_of(
        st.text(max_size=40),
        st.sampled_from(
            ["\n\n", "\n", " ", "  ", "漢字かな", "😀🦀", "e\u0301", "1234567", "\r\n"]
        ),
        st.text(alphabet="ab \n", max_size=20),
    ),
    max_size=12,
).map("".join)
sizes = st.sampled_from([(1, 0), (2, 1), (5, 0), (7, 3), (16, 4), (40, 10)])


def sample_files(count: int = 12) -> list[str]:
    files = corpus.paths()
    return [p.read_text(encoding="utf-8")[:20_000] for p in files[:: max(1, len(files) // count)]]


def outcome(make, text: str):
    """What a splitter returns, or the error it raises (type and message)."""
    try:
        return make().split_text(text)
    except (ValueError, TypeError) as err:
        return (type(err), str(err))


@pytest.mark.parametrize("name", ["RecursiveCharacterTextSplitter", "CharacterTextSplitter"])
@given(text=texts, size=sizes, encoding=st.sampled_from(["gpt2", "cl100k_base", "o200k_base"]))
def test_from_tiktoken_encoder_matches_langchain(name, text, size, encoding) -> None:
    kwargs = {"encoding_name": encoding, "chunk_size": size[0], "chunk_overlap": size[1]}
    if name == "CharacterTextSplitter":
        kwargs["separator"] = " "
    want = outcome(lambda: getattr(lc, name).from_tiktoken_encoder(**kwargs), text)
    assert outcome(lambda: getattr(ferrochunk, name).from_tiktoken_encoder(**kwargs), text) == want
    assert outcome(lambda: getattr(reference, name).from_tiktoken_encoder(**kwargs), text) == want


short_with_specials = st.lists(
    st.one_of(
        st.sampled_from([SPECIAL, "<|fim_prefix|>", "<|", "<", " ", "\n\n", "漢字", "😀"]),
        st.text(alphabet="ab <|>\n", max_size=8),
    ),
    max_size=6,
).map("".join)
POLICIES = [
    {},
    {"allowed_special": {SPECIAL}},
    {"allowed_special": "all"},
    {"disallowed_special": ()},
]


@pytest.mark.parametrize("name", ["RecursiveCharacterTextSplitter", "CharacterTextSplitter"])
@given(
    text=short_with_specials,
    delta=st.integers(-1, 1),
    policy=st.sampled_from(POLICIES),
    keep=st.sampled_from([True, False, "end"]),
    strip=st.booleans(),
)
def test_text_near_chunk_size_in_tokens(name, text, delta, policy, keep, strip) -> None:
    """Chunk sizes in tokens one below, at and one above the text's UTF-8 length: a text of
    fewer bytes than tokens allowed is one chunk, which the native engine takes without
    counting its pieces, unless it holds special text (disallowed: LangChain raises only if
    a piece still holds all of it)."""
    size = max(1, len(text.encode()) + delta)
    kwargs = {"encoding_name": "cl100k_base", "chunk_size": size, "chunk_overlap": 0}
    kwargs |= {"keep_separator": keep, "strip_whitespace": strip, **policy}
    if name == "CharacterTextSplitter":
        kwargs["separator"] = " "
    want = outcome(lambda: getattr(lc, name).from_tiktoken_encoder(**kwargs), text)
    assert outcome(lambda: getattr(ferrochunk, name).from_tiktoken_encoder(**kwargs), text) == want


@given(text=texts, size=sizes, encoding=st.sampled_from(["gpt2", "cl100k_base", "o200k_base"]))
def test_token_text_splitter_matches_langchain(text, size, encoding) -> None:
    kwargs = {"encoding_name": encoding, "chunk_size": size[0], "chunk_overlap": size[1]}
    want = outcome(lambda: lc.TokenTextSplitter(**kwargs), text)
    assert outcome(lambda: ferrochunk.TokenTextSplitter(**kwargs), text) == want
    assert outcome(lambda: reference.TokenTextSplitter(**kwargs), text) == want


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"allowed_special": {SPECIAL}},
        {"allowed_special": "all"},
        {"disallowed_special": ()},
        {"model_name": "gpt-4o"},
        {"chunk_size": 3, "chunk_overlap": 3},
        {"add_start_index": True, "chunk_size": 3, "chunk_overlap": 1},
    ],
)
@pytest.mark.parametrize("cls", ["RecursiveCharacterTextSplitter", "TokenTextSplitter"])
def test_special_tokens_models_and_documents_match_langchain(cls, kwargs) -> None:
    kwargs = {"chunk_size": 4, "chunk_overlap": 1, **kwargs}
    text = f"one 漢字 two{SPECIAL}three 😀 four five six seven"
    make_lc = lambda: getattr(lc, cls).from_tiktoken_encoder(**kwargs)  # noqa: E731
    make_ours = lambda: getattr(ferrochunk, cls).from_tiktoken_encoder(**kwargs)  # noqa: E731
    assert outcome(make_ours, text) == outcome(make_lc, text)
    assert outcome(make_ours, "no special here") == outcome(make_lc, "no special here")
    try:
        want = make_lc().create_documents([text, "plain words here and there"])
    except ValueError as err:
        with pytest.raises(ValueError, match=r"tokens_per_chunk|disallowed special"):
            make_ours().create_documents([text])
        assert "tokens_per_chunk" in str(err) or "disallowed" in str(err)
    else:
        got = make_ours().create_documents([text, "plain words here and there"])
        assert [(d.page_content, d.metadata) for d in got] == [
            (d.page_content, d.metadata) for d in want
        ]


@pytest.mark.parametrize("kwargs", [{"disallowed_special": None}, {"disallowed_special": 0}])
@pytest.mark.parametrize("cls", ["RecursiveCharacterTextSplitter", "TokenTextSplitter"])
def test_falsy_disallowed_special_disallows_nothing_as_in_langchain(cls, kwargs) -> None:
    kwargs = {"chunk_size": 4, "chunk_overlap": 1, **kwargs}
    text = f"hello world {SPECIAL} foo"
    want = outcome(lambda: getattr(lc, cls).from_tiktoken_encoder(**kwargs), text)
    assert isinstance(want, list)
    assert outcome(lambda: getattr(ferrochunk, cls).from_tiktoken_encoder(**kwargs), text) == want
    if cls == "TokenTextSplitter":
        assert outcome(lambda: ferrochunk.TokenTextSplitter(**kwargs), text) == want


@pytest.mark.parametrize("name", [None, 5, b"gpt2", "no-such-encoding"])
@pytest.mark.parametrize("cls", ["RecursiveCharacterTextSplitter", "TokenTextSplitter"])
def test_encoding_names_that_are_no_encoding_fail_as_in_langchain(cls, name) -> None:
    """tiktoken's ``get_encoding`` refuses a name that is no ``str`` with a ``ValueError``
    (its message, verbatim), and an unknown one with another (messages differ: tiktoken's
    names its plugins)."""
    errors = []
    for module in (lc, ferrochunk):
        with pytest.raises(ValueError) as err:
            getattr(module, cls).from_tiktoken_encoder(encoding_name=name)
        errors.append(str(err.value))
    if not isinstance(name, str):
        assert errors[1] == errors[0]


@pytest.mark.parametrize("kwargs", [{"allowed_special": ["x"]}, {"allowed_special": "ALL"}])
def test_policy_tiktoken_refuses_fails_when_langchain_counts(kwargs) -> None:
    """LangChain's length function calls tiktoken only when it counts: a policy tiktoken
    refuses builds the splitter, and its ``TypeError`` comes from ``split_text``."""
    kwargs = {"chunk_size": 4, "chunk_overlap": 0, **kwargs}
    for module in (lc, ferrochunk):
        splitter = module.RecursiveCharacterTextSplitter.from_tiktoken_encoder(**kwargs)
        with pytest.raises(TypeError, match="unsupported operand"):
            splitter.split_text("one two three four five")


def test_refused_separator_is_measured_where_langchain_merges() -> None:
    """A separator the encoding refuses (special-token text, dropped from the pieces): the
    recursive splitter measures it only when it merges pieces that fit, so it fails only
    then (after the pieces before it were measured); the character splitter measures it
    before its pieces."""
    kwargs = {"encoding_name": "cl100k_base", "chunk_size": 5, "chunk_overlap": 0}
    kwargs |= {"keep_separator": False}
    texts = [
        "one two three four five six<|endoftext|>seven eight nine ten eleven twelve",
        SPECIAL,
        "a<|endoftext|>one two three four five six",
        "one two three four five six<|endoftext|>a",
        "a<|endoftext|>x <|fim_prefix|> y z w v u t s",
        "",
    ]
    for name, extra in (
        ("RecursiveCharacterTextSplitter", {"separators": [SPECIAL, "\n\n", " ", ""]}),
        ("CharacterTextSplitter", {"separator": SPECIAL}),
    ):
        theirs, ours, oracle = (
            functools.partial(getattr(m, name).from_tiktoken_encoder, **kwargs, **extra)
            for m in (lc, ferrochunk, reference)
        )
        for text in texts:
            want = outcome(theirs, text)
            assert outcome(ours, text) == want, (name, text)
            assert outcome(oracle, text) == want, (name, text)


@pytest.mark.parametrize("size,overlap", [(2**64, 0), (10**20, 0), (10**20 + 1, 10**20)])
def test_token_sizes_beyond_native_integers_split_as_langchain(size, overlap) -> None:
    kwargs = {"chunk_size": size, "chunk_overlap": overlap}
    theirs, ours = lc.TokenTextSplitter(**kwargs), ferrochunk.TokenTextSplitter(**kwargs)
    assert ours.split_text("ab cd") == theirs.split_text("ab cd")
    texts = ["ab cd", "ef", ""]
    want = [(d.page_content, d.metadata) for d in theirs.create_documents(texts)]
    assert [(d.page_content, d.metadata) for d in ours.create_documents(texts)] == want


def test_token_text_splitter_policy_changes_between_calls_like_langchains() -> None:
    """The drop-in keeps a counter per special-token policy (on the shared tokenizer): a
    policy changed between calls, in place or replaced, splits as LangChain's does."""
    text = f"one {SPECIAL} two <|fim_prefix|> three"
    ours = ferrochunk.TokenTextSplitter(encoding_name="cl100k_base", chunk_size=3, chunk_overlap=1)
    theirs = lc.TokenTextSplitter(encoding_name="cl100k_base", chunk_size=3, chunk_overlap=1)
    changes = [
        lambda s: None,
        lambda s: s._allowed_special.add(SPECIAL),  # in place: the same set object
        lambda s: setattr(s, "_disallowed_special", {"<|fim_middle|>"}),
        lambda s: s._allowed_special.discard(SPECIAL),
        lambda s: setattr(s, "_allowed_special", "all"),
        lambda s: setattr(s, "_allowed_special", set()),
        lambda s: setattr(s, "_disallowed_special", "all"),
        lambda s: setattr(s, "_disallowed_special", ()),
    ]
    seen = set()
    for change in changes:
        change(ours)
        change(theirs)
        got, want = outcome(lambda: ours, text), outcome(lambda: theirs, text)
        assert got == want
        seen.add(isinstance(want, list))
    assert seen == {True, False}  # some policies refuse the text, some split it


def test_token_text_splitter_on_one_long_text_matches_langchain(monkeypatch) -> None:
    """A text of a megabyte or more is encoded across threads, in segments: LangChain's
    windows on three threads and on one; and a run of letters that long, merged in parts
    (tiktoken's whole-piece merge is too slow for it), the same windows either way."""
    kwargs = {"encoding_name": "cl100k_base", "chunk_size": 512, "chunk_overlap": 50}
    ours = ferrochunk.TokenTextSplitter.from_tiktoken_encoder(**kwargs)
    joined = "\n".join(corpus.texts("en-markdown"))
    assert len(joined.encode()) > 1_000_000
    want = lc.TokenTextSplitter.from_tiktoken_encoder(**kwargs).split_text(joined)
    run = "x" + "".join(random.Random(5).choices("etaoinshrdlu", k=1_100_000))
    outputs = {}
    for threads in ("3", "1"):
        monkeypatch.setenv("FERROCHUNK_NUM_THREADS", threads)
        assert ours.split_text(joined) == want, threads
        outputs[threads] = ours.split_text(run)
    assert outputs["3"] == outputs["1"]


@pytest.mark.parametrize("size,overlap", [(512, 50), (64, 0), (7, 3)])
def test_corpus_token_splits_match_langchain(size: int, overlap: int) -> None:
    items = sample_files()
    for cls in ("RecursiveCharacterTextSplitter", "TokenTextSplitter"):
        kwargs = {"encoding_name": "cl100k_base", "chunk_size": size, "chunk_overlap": overlap}
        theirs = getattr(lc, cls).from_tiktoken_encoder(**kwargs)
        ours = getattr(ferrochunk, cls).from_tiktoken_encoder(**kwargs)
        for text in items:
            assert ours.split_text(text) == theirs.split_text(text), cls


@given(text=texts, size=sizes, encoding=st.sampled_from(["gpt2", "cl100k_base", "o200k_base"]))
def test_split_tokens_windows_are_exact_spans(text, size, encoding) -> None:
    chunk_size, overlap = size
    if chunk_size <= overlap:
        return
    chunks = ferrochunk.split_tokens(text, chunk_size, chunk_overlap=overlap, encoding=encoding)
    enc = tokens.tiktoken_encoding(encoding)  # the windows are judged on tiktoken's own ids
    ids = enc.encode_ordinary(text)
    want = reference.tokens.token_windows(
        text, ids, enc.decode_single_token_bytes, chunk_size, overlap
    )
    assert [(c.start, c.end, c.token_count) for c in chunks] == want
    for c in chunks:
        assert text[c.start : c.end] == c.text
        assert len(text[: c.start].encode()) == c.byte_start
        assert c.byte_end - c.byte_start == len(c.text.encode())
        assert "\ufffd" not in c.text or "\ufffd" in text
    if ids:
        assert chunks[0].start == 0 and chunks[-1].end == len(text)


def test_split_tokens_bad_input() -> None:
    with pytest.raises(ValueError, match="chunk_size > chunk_overlap"):
        ferrochunk.split_tokens("abc", 5, chunk_overlap=5)
    with pytest.raises(TypeError, match="chunk_size must be an int"):
        ferrochunk.split_tokens("abc", 5.0, chunk_overlap=0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be str"):
        ferrochunk.split_tokens(None, 5, chunk_overlap=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="available"):
        ferrochunk.split_tokens("abc", 5, chunk_overlap=0, encoding="nope")


@given(text=texts, size=sizes, encoding=st.sampled_from(["gpt2", "cl100k_base", "o200k_base"]))
def test_native_splitter_sized_in_tokens_counts_every_chunk(text, size, encoding) -> None:
    chunk_size, overlap = size
    ours = ferrochunk.Splitter(
        chunk_size,
        chunk_overlap=overlap,
        length_function=ferrochunk.get_encoding(encoding).length_function(),
    ).split(text, {"doc": 1})
    enc = tokens.tiktoken_encoding(encoding)
    length = reference.tokens.tiktoken_length(enc)
    theirs = reference.Splitter(chunk_size, chunk_overlap=overlap, length_function=length).split(
        text, {"doc": 1}
    )
    fields = ("text", "start", "end", "byte_start", "byte_end", "index", "token_count")
    got = [tuple(getattr(c, f) for f in fields) for c in ours]
    assert got == [tuple(getattr(c, f) for f in fields) for c in theirs]
    assert [c.token_count for c in ours] == [len(enc.encode(c.text)) for c in ours]
    assert all(c.metadata == {"doc": 1} for c in ours)


def test_token_count_only_when_sized_in_tokens() -> None:
    text = "one two three four five six seven"
    assert {c.token_count for c in ferrochunk.split(text, 10, chunk_overlap=0)} == {None}
    assert {c.token_count for c in reference.split(text, 10, chunk_overlap=0)} == {None}
    words = ferrochunk.split(text, 10, chunk_overlap=0, length_function=lambda t: len(t.split()))
    assert {c.token_count for c in words} == {None}


def test_tiktoken_splitters_deep_copy_like_langchain() -> None:
    """LangChain's length is a closure, which ``copy`` shares: deep copies work and split alike."""
    import copy

    kwargs = {"encoding_name": "cl100k_base", "chunk_size": 8, "chunk_overlap": 2}
    text = "one two three four five six seven eight nine ten eleven twelve"
    want = copy.deepcopy(lc.RecursiveCharacterTextSplitter.from_tiktoken_encoder(**kwargs))
    ours = copy.deepcopy(ferrochunk.RecursiveCharacterTextSplitter.from_tiktoken_encoder(**kwargs))
    assert ours.split_text(text) == want.split_text(text)
    assert copy.copy(ours).split_text(text) == want.split_text(text)


@pytest.mark.parametrize(("size", "overlap"), [(2**63, 0), (2**64, 7), (10**30, 10**30 - 1)])
def test_sizes_beyond_any_text_are_the_reference(size, overlap) -> None:
    """Sizes Rust cannot hold (an ``OverflowError`` before) give the reference's windows."""
    from ferrochunk.reference import tokens as reference_tokens

    text = "one two three. " * 40
    enc = tokens.tiktoken_encoding("cl100k_base")
    want = reference_tokens.token_windows(
        text, enc.encode_ordinary(text), enc.decode_single_token_bytes, size, overlap
    )
    splitter = ferrochunk.TokenSplitter(size, chunk_overlap=overlap)
    for chunks in (
        ferrochunk.split_tokens(text, size, chunk_overlap=overlap),
        splitter.split(text),
        splitter.split_batch([text], threads=2)[0],
    ):
        assert [(c.start, c.end, c.token_count) for c in chunks] == want
