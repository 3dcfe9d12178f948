"""``from_huggingface_tokenizer`` on the drop-ins: LangChain's output (its length is
``len(tokenizer.tokenize(text))``), counted in Rust for ``transformers`` fast tokenizers, and by
calling ``tokenize`` whenever that cannot be proven identical.

The tokenizers are trained here on corpus text (no model hub, nothing downloaded) and wrapped
in ``transformers.PreTrainedTokenizerFast`` with added and special tokens."""

from __future__ import annotations

import copy
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import corpus
import ferrochunk
from ferrochunk import _native, reference
from support import ATOMS, sizes, staged
from support import texts as plain_texts

tk = pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")
lc = pytest.importorskip("langchain_text_splitters")

CLASSES = ["RecursiveCharacterTextSplitter", "CharacterTextSplitter"]
SPECIALS = ["[UNK]", "[CLS]", "[SEP]", "<|endoftext|>"]
ADDED = ["<extra>", "fox jumps", "Rust"]  # plain added tokens, some with spaces
ADDED_SPECIAL = ["<sep2>", "[MASK]"]


def _corpus_sample(per_corpus: int = 2, chars: int = 20_000) -> list[str]:
    """A few files of each corpus, cut to ``chars`` (empty when the corpus is absent: then
    the tokenizers learn from the three sentences of TRAINING only)."""
    out = []
    for name in corpus.NAMES:
        files = corpus.files(name)
        step = max(1, len(files) // per_corpus)
        out += [p.read_text(encoding="utf-8")[:chars] for p in files[::step][:per_corpus]]
    return out


SAMPLE = _corpus_sample()
TRAINING = [
    "The quick brown fox jumps over the lazy dog. Tokenizers split words into pieces.",
    "中文文本的分词测试\uff0c包括标点符号\u3002日本語のテキストも少し\u3002",
    "Ünïcödé façade naïve café 😀🦀 e\u0301 1234567890 $x + y = z;",
    *SAMPLE,
]


def _byte_level_bpe(pre_tokenizer):
    """A byte-level BPE tokenizer trained on TRAINING, after `pre_tokenizer`."""
    tok = tk.Tokenizer(tk.models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizer
    tok.decoder = tk.decoders.ByteLevel()
    alphabet = tk.pre_tokenizers.ByteLevel.alphabet()
    trainer = tk.trainers.BpeTrainer(
        vocab_size=600, special_tokens=SPECIALS, initial_alphabet=alphabet
    )
    tok.train_from_iterator(TRAINING, trainer)
    return tok


def _bpe():
    return _byte_level_bpe(tk.pre_tokenizers.ByteLevel(add_prefix_space=False))


# The pre-tokenizer pattern of recent BPE models (Llama 3, Qwen): a `Split` pre-tokenizer,
# run by Oniguruma in the Python package and by fancy-regex in ferrochunk's Rust crate.
SPLIT_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)


def _bpe_split_regex():
    return _byte_level_bpe(
        tk.pre_tokenizers.Sequence(
            [
                tk.pre_tokenizers.Split(tk.Regex(SPLIT_PATTERN), "isolated"),
                tk.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
            ]
        )
    )


def _wordpiece():
    tok = tk.Tokenizer(tk.models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = tk.normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = tk.pre_tokenizers.BertPreTokenizer()
    trainer = tk.trainers.WordPieceTrainer(vocab_size=600, special_tokens=SPECIALS)
    tok.train_from_iterator(TRAINING, trainer)
    return tok


def _unigram():
    tok = tk.Tokenizer(tk.models.Unigram())
    tok.normalizer = tk.normalizers.NFKC()
    tok.pre_tokenizer = tk.pre_tokenizers.Metaspace()
    trainer = tk.trainers.UnigramTrainer(
        vocab_size=4000, special_tokens=SPECIALS, unk_token="[UNK]"
    )
    tok.train_from_iterator(TRAINING, trainer)
    return tok


def _fast(backend, **kwargs):
    """``backend`` in a ``PreTrainedTokenizerFast``, with added tokens of every kind."""
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]", **kwargs
    )
    added = tk.AddedToken
    fast.add_tokens(
        [ADDED[0], added(ADDED[1], normalized=False), added(ADDED[2], single_word=True)]
    )
    fast.add_tokens(
        [added(ADDED_SPECIAL[0], lstrip=True, rstrip=True), ADDED_SPECIAL[1]], special_tokens=True
    )
    return fast


BACKENDS = {
    "bpe": _bpe(),
    "bpe-regex": _bpe_split_regex(),
    "wordpiece": _wordpiece(),
    "unigram": _unigram(),
}
TOKENIZERS = {name: _fast(backend) for name, backend in BACKENDS.items()}
TOKENIZERS["bpe-split-specials"] = _fast(BACKENDS["bpe"], split_special_tokens=True)
FAST = type(TOKENIZERS["bpe"])

TOKEN_ATOMS = [*SPECIALS, *ADDED, *ADDED_SPECIAL, " [CLS] ", "<sep2> x", "Rusty", "fox  jumps"]
texts = (
    st.lists(st.sampled_from(ATOMS + TOKEN_ATOMS) | st.text(max_size=4), max_size=60).map("".join)
    | plain_texts
)


def _make(cls: str, tokenizer, size: int, overlap: int, separator: str = " "):
    extra = {"separator": separator} if cls == "CharacterTextSplitter" else {}
    return lambda module: getattr(module, cls).from_huggingface_tokenizer(
        tokenizer, chunk_size=size, chunk_overlap=overlap, **extra
    )


def _split(text: str):
    return lambda splitter: splitter.split_text(text)


def _all_agree(make, use) -> None:
    want = staged(make, use, lc)
    assert staged(make, use, ferrochunk) == want
    assert staged(make, use, reference) == want


@given(
    text=texts,
    kind=st.sampled_from(sorted(TOKENIZERS)),
    cls=st.sampled_from(CLASSES),
    size=sizes(),
    separator=st.sampled_from([" ", "\n", ""]),
)
def test_dropins_match_langchain(text, kind, cls, size, separator) -> None:
    make = _make(cls, TOKENIZERS[kind], *size, separator=separator)
    _all_agree(make, _split(text))
    if size[1] <= size[0]:
        assert isinstance(make(ferrochunk)._length_function, _native.HfTokenCounter)


COUNTERS = {
    kind: ferrochunk.RecursiveCharacterTextSplitter._huggingface_length_function(tokenizer)
    for kind, tokenizer in TOKENIZERS.items()
}


@given(text=st.text(max_size=200) | texts, kind=st.sampled_from(sorted(TOKENIZERS)))
def test_counts_equal_tokenize(text, kind) -> None:
    counter = COUNTERS[kind]
    assert isinstance(counter, _native.HfTokenCounter)
    assert counter(text) == len(TOKENIZERS[kind].tokenize(text))


@pytest.mark.parametrize("size,overlap", [(32, 0), (128, 16), (512, 50)])
@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("kind", sorted(TOKENIZERS))
def test_corpus_matches_langchain(kind, cls, size, overlap) -> None:
    if not SAMPLE:
        pytest.skip(corpus.MISSING)
    make = _make(cls, TOKENIZERS[kind], size, overlap, separator="\n\n")
    theirs, ours = make(lc), make(ferrochunk)
    assert isinstance(ours._length_function, _native.HfTokenCounter)
    for text in SAMPLE:
        assert ours.split_text(text) == theirs.split_text(text)
    docs = ours.create_documents(SAMPLE[:2])
    assert [d.page_content for d in docs] == [
        d.page_content for d in theirs.create_documents(SAMPLE[:2])
    ]


@pytest.mark.parametrize("kind", sorted(TOKENIZERS))
def test_native_route_calls_no_python_tokenizer(kind, monkeypatch) -> None:
    """Once built, the drop-in never calls ``tokenize``; the reference calls it per piece."""
    tokenizer = TOKENIZERS[kind]
    text = (SAMPLE[0] if SAMPLE else " ".join(TRAINING)) + " <extra> [CLS] fox jumps"
    want = _make("RecursiveCharacterTextSplitter", tokenizer, 64, 8)(lc).split_text(text)
    ours = _make("RecursiveCharacterTextSplitter", tokenizer, 64, 8)(ferrochunk)
    ref = _make("RecursiveCharacterTextSplitter", tokenizer, 64, 8)(reference)
    calls = []
    original = FAST.tokenize

    def counting(self, *args, **kwargs):
        calls.append(args)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(FAST, "tokenize", counting)
    assert ours.split_text(text) == want
    assert calls == []
    assert ref.split_text(text) == want
    assert calls, "the reference must call tokenize()"


def _own_tokenize():
    class Lowering(transformers.PreTrainedTokenizerFast):
        def tokenize(self, text, **kwargs):  # Python-side preprocessing: not the backend's
            return super().tokenize(text.lower(), **kwargs)

    return Lowering(tokenizer_object=BACKENDS["bpe"], unk_token="[UNK]")


def _instance_tokenize():
    tokenizer = _fast(BACKENDS["bpe"])
    tokenizer.tokenize = lambda text, **kwargs: text.split()
    return tokenizer


def _python_pre_tokenizer():
    class Digits:  # splits off every digit: only Python can run it
        def pre_tokenize(self, pretok):
            pretok.split(lambda i, s: s.split(tk.Regex(r"\d"), "isolated"))

    tokenizer = _fast(BACKENDS["wordpiece"])
    tokenizer.backend_tokenizer.pre_tokenizer = tk.pre_tokenizers.PreTokenizer.custom(Digits())
    return tokenizer


class _Whitespace(transformers.PreTrainedTokenizer):
    """A slow (pure-Python) tokenizer: one token per whitespace-separated word."""

    def __init__(self, **kwargs) -> None:
        self._vocab = {"[UNK]": 0}
        super().__init__(unk_token="[UNK]", **kwargs)

    def get_vocab(self):
        return dict(self._vocab)

    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    def _tokenize(self, text, **kwargs):
        return text.split()

    def _convert_token_to_id(self, token):
        return self._vocab.get(token, 0)

    def _convert_id_to_token(self, index):
        return "[UNK]"


FALLBACKS = {
    "own-tokenize": _own_tokenize,
    "instance-tokenize": _instance_tokenize,
    "python-pre-tokenizer": _python_pre_tokenizer,
    "slow": _Whitespace,
}


@pytest.mark.parametrize("kind", sorted(FALLBACKS))
def test_unprovable_tokenizers_are_called_as_langchain_calls_them(kind) -> None:
    tokenizer = FALLBACKS[kind]()
    text = "Some TEXT with 123 digits [CLS] <extra>\n\nand a SECOND paragraph 42 " * 5
    ours = _make("RecursiveCharacterTextSplitter", tokenizer, 12, 3)(ferrochunk)
    assert not isinstance(ours._length_function, _native.HfTokenCounter)
    _all_agree(_make("RecursiveCharacterTextSplitter", tokenizer, 12, 3), _split(text))


def test_split_special_tokens_set_after_construction_is_honoured() -> None:
    tokenizer = _fast(BACKENDS["bpe"])
    tokenizer.split_special_tokens = True  # the backend learns it at the next tokenize()
    text = "a [CLS] b <sep2> c [MASK] " * 10
    make = _make("RecursiveCharacterTextSplitter", tokenizer, 8, 2)
    ours = make(ferrochunk)  # before any tokenize() call
    assert isinstance(ours._length_function, _native.HfTokenCounter)
    got = ours.split_text(text)
    assert got == make(lc).split_text(text)
    assert got != _make("RecursiveCharacterTextSplitter", TOKENIZERS["bpe"], 8, 2)(lc).split_text(
        text
    ), "special tokens were not split"


@pytest.mark.parametrize("text", ["ab \ud800 cd", "\udfff", "x" * 50 + "\ud83d"])
def test_lone_surrogates_fail_as_in_langchain(text) -> None:
    _all_agree(_make("RecursiveCharacterTextSplitter", TOKENIZERS["bpe"], 8, 2), _split(text))


@pytest.mark.parametrize("tokenizer", [BACKENDS["bpe"], "gpt2", None, len])
def test_non_transformers_tokenizers_raise_as_in_langchain(tokenizer) -> None:
    _all_agree(_make("RecursiveCharacterTextSplitter", tokenizer, 8, 2), _split("a b"))


def test_without_transformers_everything_else_works(monkeypatch) -> None:
    for name in [m for m in sys.modules if m == "transformers" or m.startswith("transformers.")]:
        monkeypatch.setitem(sys.modules, name, None)  # `import transformers` now fails
    make = _make("RecursiveCharacterTextSplitter", TOKENIZERS["bpe"], 8, 2)
    want = staged(make, _split("a b"), lc)
    assert want[:3] == ("init", "raised", ValueError)
    assert staged(make, _split("a b"), ferrochunk) == want
    counter = ferrochunk.huggingface_counter(TOKENIZERS["bpe"])  # takes the backend as is
    assert counter("hello world") == len(BACKENDS["bpe"].encode("hello world").ids)


def test_importing_and_splitting_do_not_import_transformers() -> None:
    code = (
        "import sys, ferrochunk\n"
        "s = ferrochunk.RecursiveCharacterTextSplitter(chunk_size=5, chunk_overlap=0)\n"
        "assert s.split_text('a b c d e f g') and 'transformers' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_splitters_deep_copy_like_langchain() -> None:
    make = _make("RecursiveCharacterTextSplitter", TOKENIZERS["wordpiece"], 16, 4)
    text = " ".join(TRAINING[:3]) * 3
    ours = copy.deepcopy(make(ferrochunk))
    assert isinstance(ours._length_function, _native.HfTokenCounter)
    assert ours.split_text(text) == copy.deepcopy(make(lc)).split_text(text)


def test_huggingface_counter_keeps_encode_special_tokens() -> None:
    """``tokenizer.json`` does not save ``encode_special_tokens``: the counter reads it off the
    tokenizer object."""
    backend = tk.Tokenizer.from_str(BACKENDS["bpe"].to_str())
    backend.encode_special_tokens = True
    text = "a [CLS] b <|endoftext|> c"
    assert ferrochunk.huggingface_counter(backend)(text) == len(backend.encode(text).ids)
    assert len(backend.encode(text).ids) > len(BACKENDS["bpe"].encode(text).ids)


def test_oversized_chunk_warnings_match_langchain() -> None:
    """Pieces longer than ``chunk_size`` tokens: LangChain's warnings, at the same moments."""
    make = _make("CharacterTextSplitter", TOKENIZERS["bpe"], 2, 0, separator=" ")
    want = staged(make, _split("zqxjvkzqxj a b zqxjvk"), lc)
    assert want[0] == "call" and want[1] == "ok" and want[3], want
    assert staged(make, _split("zqxjvkzqxj a b zqxjvk"), ferrochunk) == want
