"""Token ids and counts identical to tiktoken (built offline from the bundled ranks), the
bundled ranks identical to OpenAI's published files, and errors where tiktoken raises."""

from __future__ import annotations

import base64
import hashlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import corpus
import ferrochunk
from ferrochunk import tokens

tiktoken = pytest.importorskip("tiktoken")

NAMES = (
    "gpt2",
    "r50k_base",
    "p50k_base",
    "p50k_edit",
    "cl100k_base",
    "o200k_base",
    "o200k_harmony",
)


@pytest.fixture(scope="module", params=NAMES)
def pair(request):
    """(ferrochunk tokenizer, tiktoken Encoding) for one encoding."""
    return ferrochunk.get_encoding(request.param), ferrochunk.tiktoken_encoding(request.param)


def official_constructor(name: str, monkeypatch) -> dict:
    """tiktoken's own constructor for ``name``, its loaders patched to return our ranks after
    checking them against the SHA-256 tiktoken pins for each published rank file."""
    import tiktoken_ext.openai_public as public

    ours = tokens.bundled.encoding_args(name)["mergeable_ranks"]

    def load_tiktoken_bpe(url: str, expected_hash: str) -> dict:
        lines = b"".join(
            base64.b64encode(token) + b" " + str(rank).encode() + b"\n"
            for token, rank in sorted(ours.items(), key=lambda kv: kv[1])
        )
        assert hashlib.sha256(lines).hexdigest() == expected_hash, url
        return ours

    def data_gym(**kwargs: str) -> dict:
        # gpt2's files are in another format; their ranks are r50k_base's (pinned below).
        return load_tiktoken_bpe("r50k_base", _R50K_HASH)

    monkeypatch.setattr(public, "load_tiktoken_bpe", load_tiktoken_bpe)
    monkeypatch.setattr(public, "data_gym_to_mergeable_bpe_ranks", data_gym)
    return public.ENCODING_CONSTRUCTORS[name]()


_R50K_HASH = "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"


@pytest.mark.parametrize("name", NAMES)
def test_bundled_encodings_are_tiktokens_own(name: str, monkeypatch) -> None:
    official = official_constructor(name, monkeypatch)
    ours = tokens.bundled.encoding_args(name)
    assert ours["pat_str"] == official["pat_str"]
    assert ours["special_tokens"] == official["special_tokens"]
    assert ours.get("explicit_n_vocab") == official.get("explicit_n_vocab")
    assert ours["mergeable_ranks"] == official["mergeable_ranks"]


def test_corpus_ids_and_counts_match_tiktoken(corpus_text: str) -> None:
    text = corpus_text
    for name in ("gpt2", "cl100k_base", "o200k_base"):
        ours, theirs = ferrochunk.get_encoding(name), ferrochunk.tiktoken_encoding(name)
        want = theirs.encode_ordinary(text)
        assert ours.encode_ordinary(text) == want, name
        assert ours.count(text, disallowed_special=()) == len(want), name
        assert ours.decode(want) == text


SPECIALS = ["<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>", "<|fim_suffix|>"]
runs = st.sampled_from([" " * 7, "\n" * 5, "\t \n  ", "1234567890" * 3, "!?.,;:" * 4, "\r\n \r\n"])
pieces = st.one_of(
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30),
    st.sampled_from([*SPECIALS, "<|channel|>", "<|reserved_200018|>", "<|reserved_201087|>"]),
    runs,
    st.text(alphabet="abcXYZ'sltvedmr\u017f ", min_size=1, max_size=12),
    st.builds(lambda c, n: c * n, st.characters(codec="utf-8"), st.integers(50, 400)),
)
texts = st.lists(pieces, max_size=8).map("".join)


@given(text=texts)
def test_generated_text_matches_tiktoken(pair, text: str) -> None:
    ours, theirs = pair
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)
    allowed = set(SPECIALS[:2])
    assert ours.encode(text, allowed_special=allowed, disallowed_special=()) == theirs.encode(
        text, allowed_special=allowed, disallowed_special=()
    )
    assert ours.encode(text, allowed_special="all") == theirs.encode(text, allowed_special="all")
    ids = theirs.encode_ordinary(text)
    assert ours.decode(ids[: len(ids) // 2]) == theirs.decode(ids[: len(ids) // 2])


long_runs = st.one_of(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=256, max_size=3000),
    st.text(
        alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=200, max_size=900
    ),
    st.builds(
        lambda word, n: word * n,
        st.text(alphabet="xyzQ\u00e9\u6f22\u5b57\U0001f600", min_size=1, max_size=6),
        st.integers(64, 600),
    ),
    st.text(alphabet=" \t", min_size=256, max_size=2000),
    st.text(alphabet="!?-=_.", min_size=256, max_size=1500),
)


@given(text=long_runs)
def test_long_runs_match_tiktoken(pair, text: str) -> None:
    """Pieces of 256 bytes and more are merged in windows joined at a shared token
    (``bpe/windows.rs``): ids and counts as tiktoken's whole-piece merge gives them."""
    ours, theirs = pair
    want = theirs.encode_ordinary(text)
    assert ours.encode_ordinary(text) == want
    assert ours.count(text, disallowed_special=()) == len(want)


def test_repeated_letters_match_tiktoken(pair) -> None:
    """Each letter repeated, at lengths around the 256 bytes where windows start and their
    64-byte edges: tiktoken's ids and count."""
    ours, theirs = pair
    for letter in "abcdefghijklmnopqrstuvwxyzAZ":
        for n in (255, 256, 257, 311, 312, 313, 1000):
            text = letter * n
            want = theirs.encode_ordinary(text)
            assert ours.encode_ordinary(text) == want, (letter, n)
            assert ours.count(text, disallowed_special=()) == len(want), (letter, n)


def test_letters_only_prose_matches_tiktoken(pair) -> None:
    """Runs of the English prose corpus with everything but letters removed, one piece each
    (6 KB: tiktoken's whole-piece merge is quadratic)."""
    ours, theirs = pair
    prose = "".join(ch for ch in "".join(corpus.texts("en-prose")) if ch.isascii() and ch.isalpha())
    for start in range(0, len(prose), len(prose) // 7):
        text = prose[start : start + 6000]
        want = theirs.encode_ordinary(text)
        assert ours.encode_ordinary(text) == want
        assert ours.count(text, disallowed_special=()) == len(want)


@given(text=texts)
def test_disallowed_special_raises_like_tiktoken(pair, text: str) -> None:
    ours, theirs = pair
    for kwargs in ({}, {"allowed_special": {"<|endoftext|>"}}, {"disallowed_special": SPECIALS}):
        try:
            want = theirs.encode(text, **kwargs)
        except ValueError as err:
            with pytest.raises(ValueError) as got:
                ours.encode(text, **kwargs)
            assert str(got.value) == str(err)
            with pytest.raises(ValueError):
                ours.count(text, **kwargs)
        else:
            assert ours.encode(text, **kwargs) == want
            assert ours.count(text, **kwargs) == len(want)


POLICY_ARGUMENTS = [
    {"disallowed_special": None},
    {"disallowed_special": 0},
    {"disallowed_special": {""}},
    {"allowed_special": ["<|endoftext|>"]},
    {"allowed_special": ("<|endoftext|>",)},
    {"allowed_special": "ALL"},
    {"allowed_special": None},
    {"allowed_special": ["<|endoftext|>"], "disallowed_special": ()},
    {"allowed_special": frozenset({"<|endoftext|>"}), "disallowed_special": None},
]


@pytest.mark.parametrize("kwargs", POLICY_ARGUMENTS)
def test_special_arguments_read_as_tiktoken_reads_them(kwargs) -> None:
    """tiktoken's own reading of odd policy arguments: a falsy ``disallowed_special`` disallows
    nothing, ``{""}`` refuses every text, an ``allowed_special`` that is no set is a
    ``TypeError``; the same ids, or the same error, from encode, count and count_batch."""
    ours = ferrochunk.get_encoding("cl100k_base")
    theirs = ferrochunk.tiktoken_encoding("cl100k_base")

    def outcome(call, text):
        try:
            return call(text, **kwargs)
        except (ValueError, TypeError) as err:
            return type(err), str(err)

    for text in ("", "plain <x text", "hi <|endoftext|> there"):
        want = outcome(theirs.encode, text)
        assert outcome(ours.encode, text) == want, text
        want_count = want if isinstance(want, tuple) else len(want)
        assert outcome(ours.count, text) == want_count, text
        want_batch = want if isinstance(want, tuple) else [len(want)]
        batch = outcome(lambda t, **kw: ours.count_batch([t], **kw), text)
        assert batch == want_batch, text


def test_count_batch_cuts_long_texts_exactly() -> None:
    # Texts over 128 KB are counted in parallel segments: they must add up exactly.
    files = corpus.paths()
    big = ["\n".join(p.read_text(encoding="utf-8") for p in files), "small", ""]
    assert len(big[0]) > 1_000_000
    for name in ("gpt2", "cl100k_base", "o200k_base"):
        ours, theirs = ferrochunk.get_encoding(name), ferrochunk.tiktoken_encoding(name)
        want = [len(theirs.encode_ordinary(t)) for t in big]
        assert ours.count_batch(big, disallowed_special=()) == want, name


def test_long_texts_count_and_encode_the_same_across_threads(monkeypatch) -> None:
    """``count`` and ``encode`` take a text of a megabyte or more to the pool: in segments,
    and a piece that long in parts joined at a shared token (``bpe/parallel.rs``). The ids
    and count are one thread's (windows, checked against tiktoken above), letters in one
    piece or not, and tiktoken's on the corpus joined into one text."""
    rng = random.Random(3)
    letters = "".join(rng.choices("etaoinshrdlucmfwyp", k=1_300_000))
    prose = "".join(corpus.texts("en-prose"))
    joined = "\n".join(p.read_text(encoding="utf-8") for p in corpus.paths())
    cases = [letters, prose[:5000] + letters + prose[:5000], "\u6f22\u5b57" * 400_000, joined]
    for name in ("gpt2", "cl100k_base", "o200k_base"):
        enc = ferrochunk.get_encoding(name)
        counts, ids = {}, {}
        for threads in ("1", "3"):
            monkeypatch.setenv("FERROCHUNK_NUM_THREADS", threads)
            counts[threads] = [enc.count(t, disallowed_special=()) for t in cases]
            ids[threads] = [enc.encode_ordinary(t) for t in cases]
        assert counts["3"] == counts["1"] == [len(i) for i in ids["1"]], name
        assert ids["3"] == ids["1"], name
        want = ferrochunk.tiktoken_encoding(name).encode_ordinary(joined)
        assert ids["3"][-1] == want, name


def test_count_batch_equals_tiktoken_counts() -> None:
    enc, theirs = (
        ferrochunk.get_encoding("cl100k_base"),
        ferrochunk.tiktoken_encoding("cl100k_base"),
    )
    items = [p.read_text(encoding="utf-8") for p in corpus.paths()[:40]] + ["", "a b"]
    assert enc.count_batch(items) == [len(theirs.encode(t)) for t in items]


def test_lone_surrogates_are_replaced_as_tiktoken_does() -> None:
    ours, theirs = ferrochunk.get_encoding("o200k_base"), ferrochunk.tiktoken_encoding("o200k_base")
    text = "a\ud800b \udfff"
    assert ours.encode(text) == theirs.encode(text)
    assert ours.count(text) == len(theirs.encode(text))


def test_model_names_map_as_tiktoken_maps_them() -> None:
    from tiktoken.model import encoding_name_for_model

    for model in (
        "gpt-4o",
        "gpt-4",
        "gpt-3.5-turbo-0613",
        "text-embedding-3-small",
        "davinci",
        "gpt-4o-2024-05-13",
        "o1-mini",
        "text-davinci-003",
        "ft:gpt-4o:org",
        "gpt2",
        "text-davinci-edit-001",
        "code-davinci-edit-001",
        "gpt-oss-120b",
    ):
        assert tokens.encoding_name_for_model(model) == encoding_name_for_model(model), model
        assert ferrochunk.encoding_for_model(model).name == encoding_name_for_model(model)
    assert ferrochunk.encoding_for_model("gpt-4o").name == "o200k_base"
    with pytest.raises(KeyError, match="Could not automatically map"):
        ferrochunk.encoding_for_model("no-such-model")


def test_bad_input_errors_are_clear() -> None:
    with pytest.raises(ValueError, match="cl100k_base"):
        ferrochunk.get_encoding("cl100k")
    with pytest.raises(TypeError, match="encoding_name must be str"):
        ferrochunk.Tokenizer(100)  # type: ignore[arg-type]
    enc = ferrochunk.get_encoding("gpt2")
    with pytest.raises(TypeError, match="text must be str"):
        enc.encode(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sequence of str"):
        enc.count_batch("one text")  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        enc.decode([10**7])
    with pytest.raises(ValueError, match="o200k_base"):
        ferrochunk.tiktoken_encoding("nope")


def test_tiktoken_registry_can_use_the_bundled_ranks() -> None:
    tokens.use_bundled_ranks_in_tiktoken()
    enc = tiktoken.get_encoding("cl100k_base")
    assert enc.encode("hello world") == ferrochunk.get_encoding("cl100k_base").encode("hello world")
