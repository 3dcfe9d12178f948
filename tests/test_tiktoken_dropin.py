"""``ferrochunk.tiktoken`` against the installed tiktoken, method by method: every call's
value, or the type and message of what it raised, must be tiktoken's. tiktoken runs on the
bundled ranks (``tiktoken_encoding``; ``test_tokens.py`` checks those against the SHA-256
tiktoken pins for the published files)."""

from __future__ import annotations

import functools
import pickle
from typing import Any, Callable

import pytest
import tiktoken
from hypothesis import given
from hypothesis import strategies as st

import corpus
import ferrochunk.tiktoken as fc
from ferrochunk.tokens import tiktoken_encoding
from support import atom_text, outcome

NAMES = fc.list_encoding_names()
# Every dialect and set of special tokens (gpt2 is r50k_base's ranks, p50k_base p50k_edit's).
SOME = ["r50k_base", "p50k_edit", "cl100k_base", "o200k_harmony"]
SPECIALS = ["<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>", "<|im_start|>", "<|"]
POLICIES: list[dict[str, Any]] = [
    {},
    {"allowed_special": "all"},
    {"disallowed_special": ()},
    {"allowed_special": "all", "disallowed_special": ()},
    {"allowed_special": {"<|endoftext|>"}},
    {"allowed_special": {"<|endoftext|>"}, "disallowed_special": ()},
    {"disallowed_special": {"<|fim_prefix|>"}},
    {"disallowed_special": {"wor"}},
    {"allowed_special": frozenset({"<|endofprompt|>"}), "disallowed_special": "all"},
    {"allowed_special": ["<|endoftext|>"]},
    {"allowed_special": None, "disallowed_special": ()},
]

with_specials = st.lists(atom_text | st.sampled_from(SPECIALS), max_size=6).map("".join)
ids = st.lists(st.integers(0, 201_000), max_size=30)


def pair(name: str) -> tuple[Any, Any]:
    """(ours, tiktoken's) of one bundled encoding."""
    assert tiktoken.Encoding.__module__ == "tiktoken.core"
    return fc.get_encoding(name), tiktoken_encoding(name)


def same(call: Callable[[Any], Any], name: str) -> None:
    ours, theirs = pair(name)
    expected = outcome(lambda: call(theirs))
    assert outcome(lambda: call(ours)) == expected


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("corpus_name", corpus.NAMES)
def test_corpus_encode_decode(name: str, corpus_name: str) -> None:
    ours, theirs = pair(name)
    texts = list(corpus.texts(corpus_name))
    expected = theirs.encode_batch(texts, allowed_special="all")
    assert ours.encode_batch(texts, allowed_special="all") == expected
    assert ours.encode_ordinary_batch(texts) == theirs.encode_ordinary_batch(texts)
    for text, tokens in zip(texts[:8], expected[:8]):
        assert ours.encode(text, allowed_special="all") == tokens
        assert ours.decode(tokens) == text
        assert ours.decode_with_offsets(tokens) == theirs.decode_with_offsets(tokens)
        assert ours.decode_tokens_bytes(tokens) == theirs.decode_tokens_bytes(tokens)
    assert ours.decode_batch(expected) == texts
    assert ours.decode_bytes_batch(expected) == theirs.decode_bytes_batch(expected)


@pytest.mark.parametrize("name", SOME)
@given(text=with_specials, policy=st.sampled_from(POLICIES))
def test_encode(name: str, text: str, policy: dict[str, Any]) -> None:
    same(lambda enc: enc.encode(text, **policy), name)
    same(lambda enc: enc.encode_batch([text, text[::-1]], **policy), name)


@pytest.mark.parametrize("name", SOME)
@given(text=with_specials | st.text())
def test_encode_ordinary(name: str, text: str) -> None:
    same(lambda enc: enc.encode_ordinary(text), name)
    same(lambda enc: enc.encode_ordinary_batch([text, "", text]), name)
    same(lambda enc: enc.encode_to_numpy(text, disallowed_special=()).tolist(), name)
    same(lambda enc: enc._encode_only_native_bpe(text), name)


@pytest.mark.parametrize("name", SOME)
@given(data=st.binary(max_size=40) | with_specials.map(str.encode))
def test_bytes_and_pieces(name: str, data: bytes) -> None:
    same(lambda enc: enc._encode_bytes(data), name)
    if data:  # tiktoken's Rust panics on an empty piece; ours has no tokens
        same(lambda enc: enc._encode_single_piece(data), name)
    else:
        assert fc.get_encoding(name)._encode_single_piece(data) == []
    same(lambda enc: enc.encode_single_token(data), name)
    same(lambda enc: enc.encode_single_token(data.decode("utf-8", "replace")), name)


@pytest.mark.parametrize("name", SOME)
@given(tokens=ids, errors=st.sampled_from(["replace", "ignore", "strict"]))
def test_decode(name: str, tokens: list[int], errors: str) -> None:
    same(lambda enc: enc.decode(tokens, errors=errors), name)
    same(lambda enc: enc.decode_bytes(tokens), name)
    same(lambda enc: enc.decode_tokens_bytes(tokens), name)
    same(lambda enc: enc.decode_with_offsets(tokens), name)
    same(lambda enc: enc.decode_batch([tokens, tokens[:3]], errors=errors), name)
    same(lambda enc: enc.decode_bytes_batch([tokens[:2], tokens]), name)
    for token in tokens[:5]:
        same(lambda enc, t=token: enc.decode_single_token_bytes(t), name)
        same(lambda enc, t=token: enc.is_special_token(t), name)


@pytest.mark.parametrize("name", NAMES)
def test_attributes(name: str) -> None:
    ours, theirs = pair(name)
    for attr in ("name", "n_vocab", "max_token_value", "special_tokens_set", "_pat_str"):
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    assert repr(ours) == repr(theirs).replace(f"'{name}'", repr(name))
    assert ours._special_tokens == theirs._special_tokens
    assert ours._mergeable_ranks == theirs._mergeable_ranks
    assert ours.token_byte_values() == theirs.token_byte_values()
    same(lambda enc: enc.eot_token, name)
    same(lambda enc: enc.encode_batch(["a"], num_threads=0), name)
    same(lambda enc: enc.decode_batch([[1]], num_threads=0), name)


def test_registry_and_models() -> None:
    assert fc.list_encoding_names() == tiktoken.list_encoding_names()
    for model in ["gpt2", "gpt-4", "gpt-4o", "gpt-4o-mini-2024", "text-davinci-003", "o1", "x"]:
        expected = outcome(lambda m=model: tiktoken.encoding_name_for_model(m))
        assert outcome(lambda m=model: fc.encoding_name_for_model(m)) == expected
        if expected[0] == "ok":
            assert fc.encoding_for_model(model) is fc.get_encoding(expected[1])
    assert fc.get_encoding("cl100k_base") is fc.get_encoding("cl100k_base")
    with pytest.raises(ValueError, match="Expected a string in get_encoding"):
        fc.get_encoding(b"gpt2")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Unknown encoding nope"):
        fc.get_encoding("nope")


def extended(module: Any, base: Any) -> Any:
    """tiktoken's README example: ``cl100k_base`` with two more special tokens."""
    return module.Encoding(
        name="cl100k_im",
        pat_str=base._pat_str,
        mergeable_ranks=base._mergeable_ranks,
        special_tokens={**base._special_tokens, "<|im_start|>": 100264, "<|im_end|>": 100265},
    )


@functools.cache
def extended_pair() -> tuple[Any, Any]:
    return (
        extended(fc, fc.get_encoding("cl100k_base")),
        extended(tiktoken, tiktoken_encoding("cl100k_base")),
    )


@given(text=with_specials, policy=st.sampled_from(POLICIES), tokens=ids)
def test_extended_encoding(text: str, policy: dict[str, Any], tokens: list[int]) -> None:
    ours, theirs = extended_pair()
    for call in (
        lambda enc: enc.encode(text + "<|im_end|>", **policy),
        lambda enc: enc.decode([*tokens, 100264, 100265, 100257], errors="ignore"),
        lambda enc: enc.decode_tokens_bytes([*tokens[:3], 100265]),
        lambda enc: enc.encode_single_token("<|im_start|>"),
        lambda enc: enc.decode_single_token_bytes(100264),
        lambda enc: (enc.n_vocab, enc.max_token_value, enc.special_tokens_set),
    ):
        assert outcome(lambda c=call: c(ours)) == outcome(lambda c=call: c(theirs))


def test_other_special_ids_are_not_the_bundled_ones() -> None:
    base = fc.get_encoding("r50k_base")
    ours = fc.Encoding(
        name="custom",
        pat_str=base._pat_str,
        mergeable_ranks=base._mergeable_ranks,
        special_tokens={"<|pickle|>": 100_000},
    )
    with pytest.raises(KeyError):
        ours.decode([50256])  # r50k's <|endoftext|>, not this encoding's
    assert ours.encode("<|endoftext|>") == base.encode_ordinary("<|endoftext|>")
    assert ours.encode("a<|pickle|>", allowed_special="all") == [64, 100_000]
    assert pickle.loads(pickle.dumps(ours)).decode([100_000]) == "<|pickle|>"


def test_other_ranks_are_refused() -> None:
    base = fc.get_encoding("gpt2")
    ranks = dict(base._mergeable_ranks)
    ranks.pop(b"hello")
    with pytest.raises(ValueError, match="runs on the bundled encodings only"):
        fc.Encoding("mine", pat_str=base._pat_str, mergeable_ranks=ranks, special_tokens={})


@pytest.mark.parametrize("name", NAMES)
def test_pickle(name: str) -> None:
    enc = fc.get_encoding(name)
    assert pickle.loads(pickle.dumps(enc)).__dict__ is enc.__dict__  # by name
    assert len(pickle.dumps(enc)) < 200


UNSTABLE = ["hello fanta", "请考试", "中", "héllo wör", "a<|endoftext|>", "", "x\n\ny", "d'", "12"]
# Ends in whitespace: 30-100k completions each, so fewer cases.
SPACED = [("gpt2", "today\n "), ("gpt2", "abc\u3000"), ("cl100k_base", "x  ")]


@pytest.mark.parametrize(
    "name, text",
    [(n, t) for n in ("gpt2", "cl100k_base", "o200k_base") for t in UNSTABLE] + SPACED,
)
def test_encode_with_unstable(name: str, text: str) -> None:
    """Completions compared sorted: tiktoken's come from a hash set, in no order."""
    ours, theirs = pair(name)
    for policy in ({}, {"allowed_special": "all"}):

        def call(enc: Any, policy: dict[str, Any] = policy) -> Any:
            stable, completions = enc.encode_with_unstable(text, **policy)
            return stable, sorted(map(list, completions))

        assert outcome(lambda: call(ours)) == outcome(lambda: call(theirs))
