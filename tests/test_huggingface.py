"""Sizing by a Hugging Face tokenizer: counts equal to the ``tokenizers`` package's own, and
splits equal to LangChain's with a length that calls the Python tokenizer per piece.

The tokenizers are trained here, on a few strings (no model hub, nothing downloaded)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import corpus
import ferrochunk
from ferrochunk import reference

tk = pytest.importorskip("tokenizers")
lc = pytest.importorskip("langchain_text_splitters")

TRAINING = [
    "The quick brown fox jumps over the lazy dog. Tokenizers split words into pieces.",
    "Rust and Python: fn main() { println!(\"hello\"); } def main(): print('hello')",
    "中文文本的分词测试\uff0c包括标点符号\u3002日本語のテキストも少し\u3002",
    "Ünïcödé façade naïve café 😀🦀 e\u0301 1234567890 $x + y = z;",
] * 20
SPECIALS = ["[UNK]", "[CLS]", "[SEP]"]


def _bpe():
    tok = tk.Tokenizer(tk.models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = tk.pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = tk.decoders.ByteLevel()
    trainer = tk.trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=SPECIALS,
        initial_alphabet=tk.pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(TRAINING, trainer)
    return _with_template(tok)


def _wordpiece():
    tok = tk.Tokenizer(tk.models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = tk.normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = tk.pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(
        TRAINING, tk.trainers.WordPieceTrainer(vocab_size=300, special_tokens=SPECIALS)
    )
    return _with_template(tok)


def _with_template(tok):
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = tk.processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )
    return tok


TOKENIZERS = {"bpe": _bpe(), "wordpiece": _wordpiece()}
texts = st.lists(
    st.one_of(
        st.text(max_size=30),
        st.sampled_from(["\n\n", "\n", " ", "  ", "中文文本", "😀🦀", "e\u0301", "fox", "\r\n"]),
    ),
    max_size=12,
).map("".join)


def _python_length(tok, add_special_tokens: bool = False):
    return lambda text: len(tok.encode(text, add_special_tokens=add_special_tokens).ids)


@given(text=texts, kind=st.sampled_from(sorted(TOKENIZERS)), special=st.booleans())
def test_counts_equal_the_python_packages(text, kind, special) -> None:
    tok = TOKENIZERS[kind]
    counter = ferrochunk.huggingface_counter(tok, add_special_tokens=special)
    assert counter(text) == _python_length(tok, special)(text)


@pytest.mark.parametrize("kind", sorted(TOKENIZERS))
def test_tokenizer_json_paths_load_the_same_tokenizer(kind, tmp_path) -> None:
    tok = TOKENIZERS[kind]
    tok.save(str(tmp_path / "tokenizer.json"))
    text = " ".join(TRAINING[:4]) + " unseen wörds ✓"
    want = _python_length(tok)(text)
    for source in (tok, tmp_path / "tokenizer.json", str(tmp_path / "tokenizer.json"), tmp_path):
        assert ferrochunk.huggingface_counter(source)(text) == want, source


def _sample_texts() -> list[str]:
    files = corpus.paths()
    return [p.read_text(encoding="utf-8")[:6_000] for p in files[:: max(1, len(files) // 6)]]


@pytest.mark.parametrize("kind", sorted(TOKENIZERS))
@pytest.mark.parametrize("size,overlap", [(64, 8), (200, 30)])
def test_splits_equal_langchain_with_a_python_length(kind, size, overlap) -> None:
    tok = TOKENIZERS[kind]
    items = _sample_texts()
    theirs = lc.RecursiveCharacterTextSplitter(
        chunk_size=size, chunk_overlap=overlap, length_function=_python_length(tok)
    )
    counter = ferrochunk.huggingface_counter(tok)
    ours = ferrochunk.RecursiveCharacterTextSplitter(
        chunk_size=size, chunk_overlap=overlap, length_function=counter
    )
    for text in items:
        assert ours.split_text(text) == theirs.split_text(text)


@given(
    text=texts, kind=st.sampled_from(sorted(TOKENIZERS)), size=st.sampled_from([(3, 1), (12, 4)])
)
def test_native_chunks_carry_token_counts_like_the_reference(text, kind, size) -> None:
    tok = TOKENIZERS[kind]
    counter = ferrochunk.huggingface_counter(tok)
    ours = ferrochunk.Splitter(size[0], chunk_overlap=size[1], length_function=counter).split(text)
    length = reference.tokens.huggingface_length(tok)
    theirs = reference.Splitter(size[0], chunk_overlap=size[1], length_function=length).split(text)
    fields = ("text", "start", "end", "byte_start", "byte_end", "token_count")
    got = [tuple(getattr(c, f) for f in fields) for c in ours]
    assert got == [tuple(getattr(c, f) for f in fields) for c in theirs]
    assert all(c.token_count == length(c.text) for c in ours)


def test_bad_tokenizers_say_what_to_pass(tmp_path) -> None:
    with pytest.raises(TypeError, match=r"tokenizers\.Tokenizer"):
        ferrochunk.huggingface_counter(42)
    with pytest.raises(ValueError, match="cannot read tokenizer file"):
        ferrochunk.huggingface_counter(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match="Hugging Face tokenizer"):
        ferrochunk.huggingface_counter(tmp_path / "bad.json")
    with pytest.raises(TypeError, match="expected str"):
        ferrochunk.huggingface_counter(TOKENIZERS["bpe"])(None)
