"""``from_huggingface_tokenizer`` splitting vs LangChain, with ``transformers`` fast tokenizers.

LangChain counts every piece with ``len(tokenizer.tokenize(text))`` from Python; the drop-in
counts in Rust. Tokenizers (byte-level BPE as GPT-2's, WordPiece as BERT's) are trained on the
first files of en-markdown itself, nothing downloaded; chunk_size 512, overlap 50, default
separators. Cold: fresh copies of the texts every round (``corpus.cold``). Every benchmark
checks output identical to LangChain's.
Run for real with ``pytest benches/test_bench_huggingface.py --benchmark-enable``.
"""

from __future__ import annotations

import functools
from typing import Callable

import pytest

import ferrochunk
from cold import cold
from corpus import megabytes, texts
from ferrochunk import reference

tk = pytest.importorskip("tokenizers")
SIZE, OVERLAP, VOCAB = 512, 50, 8000
CORPORA = ("en-markdown",)
SPECIALS = ["[UNK]", "[CLS]", "[SEP]", "[PAD]", "[MASK]"]


def _bpe() -> object:
    tok = tk.Tokenizer(tk.models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = tk.pre_tokenizers.ByteLevel(add_prefix_space=False)
    alphabet = tk.pre_tokenizers.ByteLevel.alphabet()
    return tok, tk.trainers.BpeTrainer(
        vocab_size=VOCAB, special_tokens=SPECIALS, initial_alphabet=alphabet, show_progress=False
    )


def _wordpiece() -> object:
    tok = tk.Tokenizer(tk.models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = tk.normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = tk.pre_tokenizers.BertPreTokenizer()
    return tok, tk.trainers.WordPieceTrainer(
        vocab_size=VOCAB, special_tokens=SPECIALS, show_progress=False
    )


KINDS = {"bpe": _bpe, "wordpiece": _wordpiece}


@functools.cache
def tokenizer(kind: str, corpus: str) -> object:
    """A ``PreTrainedTokenizerFast`` trained on the corpus's first 20 files."""
    transformers = pytest.importorskip("transformers")
    backend, trainer = KINDS[kind]()
    backend.train_from_iterator(texts(corpus)[:20], trainer)
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]"
    )


def _splitter(package) -> Callable[[str, str], Callable[[str], list[str]]]:
    def make(kind: str, corpus: str) -> Callable[[str], list[str]]:
        cls = package.RecursiveCharacterTextSplitter
        tok = tokenizer(kind, corpus)
        return cls.from_huggingface_tokenizer(
            tok, chunk_size=SIZE, chunk_overlap=OVERLAP
        ).split_text

    return make


def _langchain(kind: str, corpus: str) -> Callable[[str], list[str]]:
    return _splitter(pytest.importorskip("langchain_text_splitters"))(kind, corpus)


IMPLEMENTATIONS = {
    "langchain": _langchain,
    "ferrochunk": _splitter(ferrochunk),
    "reference": _splitter(reference),
}


@functools.cache
def expected(kind: str, corpus: str) -> list[list[str]]:
    split = _langchain(kind, corpus)
    return [split(t) for t in texts(corpus)]


@pytest.mark.parametrize("impl", list(IMPLEMENTATIONS))
@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("corpus", CORPORA)
def test_huggingface_split(benchmark, corpus: str, kind: str, impl: str) -> None:
    items = texts(corpus)
    split = IMPLEMENTATIONS[impl](kind, corpus)
    if impl == "ferrochunk":  # counted in Rust, not by calling tokenize()
        assert isinstance(split.__self__._length_function, ferrochunk._native.HfTokenCounter)
    benchmark.group = f"huggingface split {kind} {corpus}"
    benchmark.extra_info.update(implementation=impl, corpus=corpus, megabytes=megabytes(items))
    out = cold(benchmark, lambda copies: [split(t) for t in copies], items, rounds=3)
    assert out == expected(kind, corpus), f"{impl} output differs from LangChain's"
