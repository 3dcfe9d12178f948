"""Late chunking: pooling token embeddings per chunk (hand-computed cases, the straddling
and special-token rules, a brute-force oracle on generated offsets, real offsets from the
``tokenizers`` library) and running a model in stitched windows."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ferrochunk import Splitter, sentence_spans
from ferrochunk.semantic import embed_tokens, late_chunk, pool_chunks

# [CLS] "abc" "de|f" "ghi" [SEP], the chunks split "def" after "de" (at 5).
EMB = np.array([[9.0, 9.0], [1.0, 0.0], [3.0, 2.0], [0.0, 4.0], [7.0, 7.0]])
OFFSETS = [(0, 0), (0, 3), (3, 6), (6, 9), (0, 0)]


def test_mean_shares_a_straddling_token_and_skips_specials() -> None:
    got = pool_chunks(EMB, OFFSETS, [(0, 5), (5, 9)])
    # chunk 0 holds "abc" and part of "def": mean of [1,0] and [3,2]; chunk 1 "def", "ghi".
    assert got.tolist() == [[2.0, 1.0], [1.5, 3.0]]


def test_max_and_first() -> None:
    assert pool_chunks(EMB, OFFSETS, [(0, 5), (5, 9)], pooling="max").tolist() == [
        [3.0, 2.0],
        [3.0, 4.0],
    ]
    assert pool_chunks(EMB, OFFSETS, [(0, 5), (5, 9)], pooling="first").tolist() == [
        [1.0, 0.0],
        [3.0, 2.0],
    ]


def test_a_token_between_chunks_is_pooled_by_neither() -> None:
    emb = np.array([[1.0], [2.0], [4.0]])
    offsets = [(0, 3), (3, 4), (4, 7)]  # "abc", " ", "def"
    assert pool_chunks(emb, offsets, [(0, 3), (4, 7)]).tolist() == [[1.0], [4.0]]
    # A leading-space token (byte-level BPE "Ġdef" at 3..7) overlaps the chunk: pooled.
    assert pool_chunks(emb[[0, 2]], [(0, 3), (3, 7)], [(0, 3), (4, 7)]).tolist() == [[1.0], [4.0]]


def test_chunk_objects_in_code_points_or_bytes() -> None:
    text = "é b. Ça va."
    chunks = sentence_spans(text, strip=True)  # "é b." and "Ça va."
    assert [(c.start, c.end, c.byte_start, c.byte_end) for c in chunks] == [
        (0, 4, 0, 5),
        (5, 11, 6, 13),
    ]
    emb = np.array([[1.0], [3.0]])
    char_offsets = [(0, 4), (5, 11)]
    byte_offsets = [(0, 5), (6, 13)]
    assert pool_chunks(emb, char_offsets, chunks).tolist() == [[1.0], [3.0]]
    assert pool_chunks(emb, byte_offsets, chunks, unit="byte").tolist() == [[1.0], [3.0]]


def test_a_chunk_with_no_token() -> None:
    emb, offsets = np.array([[1.0, 2.0]]), [(0, 3)]
    with pytest.raises(ValueError, match=r"chunk 1 \(span 10:20\) shares no character"):
        pool_chunks(emb, offsets, [(0, 3), (10, 20)])
    nan = pool_chunks(emb, offsets, [(0, 3), (10, 20)], on_empty="nan")
    assert nan[0].tolist() == [1.0, 2.0] and np.isnan(nan[1]).all()
    zeros = pool_chunks(emb, offsets, [(10, 20)], on_empty="zeros")
    assert zeros.tolist() == [[0.0, 0.0]]
    assert pool_chunks(emb, offsets, []).shape == (0, 2)


def test_a_blank_text_keeps_the_model_width() -> None:
    """A model that returns only special tokens (a blank text): the chunk's vector still has
    the model's width (it came back 1 wide), and the token embeddings are [0, width]."""

    def model(window: str):
        return np.ones((2, 4)), np.array([(0, 0), (0, 0)])  # [CLS] and [SEP] only

    assert late_chunk("   ", [(0, 3)], model, on_empty="zeros").shape == (1, 4)
    assert embed_tokens("   ", model)[0].shape == (0, 4)


def test_a_batch_of_one_is_accepted() -> None:
    got = pool_chunks(EMB[None], np.array(OFFSETS)[None], [(0, 9)])
    assert got.tolist() == [[4.0 / 3.0, 2.0]]


@pytest.mark.parametrize(
    ("emb", "offsets", "chunks", "error", "message"),
    [
        (np.ones(3), [(0, 1)] * 3, [(0, 1)], ValueError, r"\[n_tokens, dim\], got shape \(3,\)"),
        (np.ones((3, 2)), [(0, 1)] * 2, [(0, 1)], ValueError, "2 token offsets for 3"),
        (np.ones((2, 2)), [(0, 1, 2)] * 2, [(0, 1)], ValueError, r"pairs \[n_tokens, 2\]"),
        (np.ones((2, 2)), [(0.5, 1)] * 2, [(0, 1)], ValueError, "integer"),
        (np.ones((1, 2)), [(3, 1)], [(0, 1)], ValueError, "0 <= start <= end"),
        ([[np.nan, 1.0]], [(0, 1)], [(0, 1)], ValueError, "NaN or infinite"),
        ([["a", "b"]], [(0, 1)], [(0, 1)], TypeError, "real numbers"),
        (np.ones((1, 2)), [(0, 1)], [(2, 1)], ValueError, "0 <= start <= end"),
        (np.ones((1, 2)), [(0, 1)], ["ab"], TypeError, "Chunk or a"),
    ],
)
def test_bad_inputs(emb, offsets, chunks, error, message) -> None:
    with pytest.raises(error, match=message):
        pool_chunks(emb, offsets, chunks)


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="pooling must be"):
        pool_chunks(EMB, OFFSETS, [(0, 9)], pooling="sum")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="on_empty must be"):
        pool_chunks(EMB, OFFSETS, [(0, 9)], on_empty="skip")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unit must be"):
        pool_chunks(EMB, OFFSETS, [(0, 9)], unit="token")  # type: ignore[arg-type]


def brute_force(emb, offsets, spans, pooling):
    """The rule written as directly as possible: every token sharing a character."""
    rows = []
    for a, b in spans:
        picked = [i for i, (s, e) in enumerate(offsets) if s < e and s < b and e > a]
        picked.sort(key=lambda i: offsets[i][0])
        if not picked:
            rows.append([np.nan] * emb.shape[1])
        elif pooling == "first":
            rows.append(emb[picked[0]])
        elif pooling == "max":
            rows.append(emb[picked].max(axis=0))
        else:
            rows.append(emb[picked].mean(axis=0))
    return np.array(rows, dtype=float).reshape(len(spans), emb.shape[1])


@st.composite
def token_layouts(draw):
    n = draw(st.integers(0, 25))
    offsets = []
    for _ in range(n):
        start = draw(st.integers(0, 40))
        offsets.append((start, start + draw(st.integers(0, 6))))  # some empty: specials
    if draw(st.booleans()):
        offsets.sort()
    emb = np.array(
        draw(
            st.lists(st.lists(st.integers(-9, 9), min_size=3, max_size=3), min_size=n, max_size=n)
        ),
        dtype=float,
    ).reshape(n, 3)
    spans = []
    for _ in range(draw(st.integers(0, 6))):
        a = draw(st.integers(0, 45))
        spans.append((a, a + draw(st.integers(0, 12))))
    return emb, offsets, spans


@given(token_layouts(), st.sampled_from(["mean", "max", "first"]))
def test_pooling_equals_the_rule_written_directly(layout, pooling) -> None:
    emb, offsets, spans = layout
    got = pool_chunks(emb, offsets, spans, pooling=pooling, on_empty="nan")
    # "first" is the token that starts first; among equal starts, the earlier in the input.
    np.testing.assert_allclose(got, brute_force(emb, offsets, spans, pooling), equal_nan=True)


# -- real offsets from the tokenizers library ---------------------------------------------

tk = pytest.importorskip("tokenizers")
TEXT = (
    "Late chunking embeds the whole document first. Then it pools token vectors per chunk. "
    "Chunks keep the context of their document. 中文也可以。Ünïcödé works too!"
)


def _tokenizer():
    tok = tk.Tokenizer(tk.models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = tk.pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = tk.trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=["[UNK]", "[CLS]", "[SEP]"],
        initial_alphabet=tk.pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator([TEXT] * 10, trainer)
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = tk.processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )
    return tok


TOKENIZER = _tokenizer()
TABLE = np.random.default_rng(7).normal(size=(TOKENIZER.get_vocab_size(), 8))


def model(window: str):
    """A context-free 'model': each token's row of a fixed random table."""
    enc = TOKENIZER.encode(window)
    return TABLE[enc.ids], enc.offsets


def test_real_offsets_pool_the_overlapping_tokens() -> None:
    enc = TOKENIZER.encode(TEXT)
    assert enc.offsets[0] == (0, 0) and enc.offsets[-1] == (0, 0)  # [CLS], [SEP]
    chunks = Splitter(60, chunk_overlap=0).split(TEXT)
    got = pool_chunks(TABLE[enc.ids], enc.offsets, chunks)
    spans = [(c.start, c.end) for c in chunks]
    np.testing.assert_allclose(got, brute_force(TABLE[enc.ids], enc.offsets, spans, "mean"))
    first = next(i for i, (s, e) in enumerate(enc.offsets) if s < e and e > chunks[1].start)
    # Byte-level BPE: the token opening chunk 1 carries the space before it (outside the chunk).
    assert enc.offsets[first][0] == chunks[1].start - 1
    np.testing.assert_allclose(
        pool_chunks(TABLE[enc.ids], enc.offsets, chunks[1:2], pooling="first")[0],
        TABLE[enc.ids[first]],
    )


def test_windows_of_a_context_free_model_equal_one_pass() -> None:
    whole_emb, whole_off = embed_tokens(TEXT, model)
    assert (whole_off[:, 0] < whole_off[:, 1]).all()  # specials dropped
    # Every word of TEXT is under 15 characters, so with overlaps of 30 or more each word
    # that crosses the middle of an overlap lies whole in both windows: the same tokens.
    for window, overlap in [(len(TEXT), 0), (60, 30), (45, 30), (100, 50), (31, 30)]:
        emb, off = embed_tokens(TEXT, model, window=window, overlap=overlap)
        assert off.tolist() == whole_off.tolist()
        np.testing.assert_array_equal(emb, whole_emb)
    chunks = Splitter(60, chunk_overlap=0).split(TEXT)
    np.testing.assert_allclose(
        late_chunk(TEXT, chunks, model), pool_chunks(whole_emb, whole_off, chunks)
    )


def test_which_window_a_token_is_kept_from() -> None:
    """Windows of 6 over 10 characters with overlap 2 start at 0 and 4; window 0 owns
    0..5 (the middle of the overlap 4..6 is 5), window 1 owns 5..10. The model tags each
    one-character token with its window's start, so the owner of each token shows."""

    def tagging(window_text: str):
        tag = tagging.starts.pop(0)
        return [[tag]] * len(window_text), [(i, i + 1) for i in range(len(window_text))]

    tagging.starts = [0, 4]
    emb, off = embed_tokens("abcdefghij", tagging, window=6, overlap=2)
    assert off[:, 0].tolist() == list(range(10))
    assert emb[:, 0].tolist() == [0, 0, 0, 0, 0, 4, 4, 4, 4, 4]


def test_three_windows_own_their_middles() -> None:
    calls = []

    def tagging(window_text: str):
        calls.append(window_text)
        return [[len(calls)]] * len(window_text), [(i, i + 1) for i in range(len(window_text))]

    # 12 characters, window 6, overlap 3: starts 0, 3, 6; windows own 0..4, 4..7, 7..12
    # (middles of the overlaps 3..6 and 6..9 are 4 and 7).
    emb, _off = embed_tokens("abcdefghijkl", tagging, window=6, overlap=3)
    assert calls == ["abcdef", "defghi", "ghijkl"]
    assert emb[:, 0].tolist() == [1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3]


def test_truncating_model_without_windows_is_a_clear_error() -> None:
    def truncating(window_text: str):
        enc = TOKENIZER.encode(window_text[:40])
        return TABLE[enc.ids], enc.offsets

    chunks = Splitter(60, chunk_overlap=0).split(TEXT)
    with pytest.raises(ValueError, match="truncated"):
        late_chunk(TEXT, chunks, truncating)
    got = late_chunk(TEXT, chunks, truncating, window=40, overlap=10)
    assert np.isfinite(got).all() and got.shape == (len(chunks), 8)


def test_bad_windows() -> None:
    with pytest.raises(ValueError, match="overlap < window"):
        embed_tokens("abc", model, window=4, overlap=4)
    with pytest.raises(TypeError, match="window must be an int"):
        embed_tokens("abc", model, window=2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be str"):
        embed_tokens(b"abc", model)  # type: ignore[arg-type]


def test_empty_text_and_windows_without_tokens() -> None:
    def words(window_text: str):  # no token for a blank window
        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", window_text)]
        return [[float(e - s)] for s, e in spans], spans

    emb, off = embed_tokens("", words)
    assert len(emb) == 0 and off.shape == (0, 2)
    assert late_chunk("", [], words).shape[0] == 0
    text = "ab" + " " * 20 + "cde"
    emb, off = embed_tokens(text, words, window=8, overlap=2)
    assert off.tolist() == [[0, 2], [22, 25]] and emb[:, 0].tolist() == [2.0, 3.0]
