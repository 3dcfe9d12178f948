"""Every public splitter, chunker, tokenizer, counter and chunk survives ``pickle``,
``copy.deepcopy`` and ``cloudpickle`` (how Ray, Dask, multiprocessing and llama-index ship
them to workers) with identical output, and stays small: encodings travel by name.

Each factory of the drop-ins is covered, in both stacks (native and reference)."""

from __future__ import annotations

import copy
import pickle
from typing import Any, Callable

import pytest

import ferrochunk
from ferrochunk import reference

cloudpickle = pytest.importorskip("cloudpickle")
tk = pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")

TEXTS = [
    "# Title\n\nSome prose. More prose, with a clause; and words.\n\n## Part\n\n"
    "| a | b |\n|---|---|\n| 1 | 2 |\n\n```py\nprint('x')\n```\n",
    "Ünïcödé façade naïve café 😀🦀 e\u0301\r\n"
    "中文文本的分词测试\uff0c包括标点符号\u3002日本語のテキスト\u3002 " * 6,
    "def f(x):\n    return x\n\n\nclass A:\n    pass\n" * 5,
    "",
]

ROUND_TRIPS: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda o: pickle.loads(pickle.dumps(o)),
    "deepcopy": copy.deepcopy,
    "cloudpickle": lambda o: cloudpickle.loads(cloudpickle.dumps(o)),
}


def _hf_fast() -> Any:
    """A tiny WordPiece tokenizer trained here (nothing downloaded), as transformers wraps it."""
    tok = tk.Tokenizer(tk.models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = tk.normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = tk.pre_tokenizers.BertPreTokenizer()
    trainer = tk.trainers.WordPieceTrainer(vocab_size=200, special_tokens=["[UNK]"])
    tok.train_from_iterator(TEXTS, trainer)
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]")


HF = _hf_fast()


def splitters(m: Any) -> dict[str, Callable[[], Any]]:
    """Every splitter class and factory of one stack (``ferrochunk`` or the reference)."""
    rcts, cts, tts = m.RecursiveCharacterTextSplitter, m.CharacterTextSplitter, m.TokenTextSplitter
    out: dict[str, Callable[[], Any]] = {
        "recursive": lambda: rcts(chunk_size=40, chunk_overlap=10),
        "character": lambda: cts(separator=" ", chunk_size=30, chunk_overlap=5),
        "recursive-tiktoken": lambda: rcts.from_tiktoken_encoder(
            "cl100k_base", chunk_size=12, chunk_overlap=3
        ),
        "character-tiktoken-model": lambda: cts.from_tiktoken_encoder(
            model_name="gpt-4o", separator=" ", chunk_size=10, chunk_overlap=0
        ),
        "recursive-huggingface": lambda: rcts.from_huggingface_tokenizer(
            HF, chunk_size=10, chunk_overlap=2
        ),
        "from-language": lambda: rcts.from_language(
            ferrochunk.Language.PYTHON, chunk_size=30, chunk_overlap=0
        ),
        "token": lambda: tts(chunk_size=7, chunk_overlap=2),
        "token-tiktoken": lambda: tts.from_tiktoken_encoder(
            "o200k_base", chunk_size=9, chunk_overlap=1
        ),
        "header": lambda: m.MarkdownHeaderTextSplitter([("#", "H1"), ("##", "H2")]),
        "splitter": lambda: m.Splitter(30, chunk_overlap=5),
        "splitter-regex": lambda: m.Splitter(
            25, chunk_overlap=0, separators=[r"(?<=\.) ", " ", ""], is_separator_regex=True
        ),
        "markdown": lambda: m.MarkdownChunker(60, min_size=10),
        "text-rst": lambda: m.TextChunker(60, min_size=10, format="rst"),
        "code": lambda: m.CodeChunker(40, language="python", embedding_text=True),
        "markdown-overlap-parents": lambda: m.MarkdownChunker(
            60, min_size=10, chunk_overlap=10, parent_size=200, embedding_text=True
        ),
    }
    if m is ferrochunk:
        out["markdown-text"] = lambda: m.MarkdownTextSplitter(chunk_size=30, chunk_overlap=0)
        counter = ferrochunk.get_encoding("cl100k_base").length_function()
        hf_counter = ferrochunk.huggingface_counter(HF)
        out["splitter-tokens"] = lambda: m.Splitter(12, chunk_overlap=2, length_function=counter)
        out["splitter-huggingface"] = lambda: m.Splitter(
            12, chunk_overlap=2, length_function=hf_counter
        )
        out["markdown-tokens"] = lambda: m.MarkdownChunker(20, min_size=5, length_function=counter)
    else:
        length = reference.tokens.tiktoken_length(ferrochunk.tiktoken_encoding("cl100k_base"))
        hf_length = reference.tokens.huggingface_length(HF.backend_tokenizer)
        out["splitter-tokens"] = lambda: m.Splitter(12, chunk_overlap=2, length_function=length)
        out["splitter-huggingface"] = lambda: m.Splitter(
            12, chunk_overlap=2, length_function=hf_length
        )
        out["markdown-tokens"] = lambda: m.MarkdownChunker(20, min_size=5, length_function=length)
    return out


def output(obj: Any, text: str) -> Any:
    """What ``obj`` makes of ``text``, in a comparable form."""
    if hasattr(obj, "split_hierarchy") and obj.parent_size is not None:
        return obj.split_hierarchy(text, {"k": 1}, document_id="d")
    if hasattr(obj, "split"):
        return obj.split(text, {"k": 1})
    documents = obj.split_text(text)
    if documents and not isinstance(documents[0], str):
        return [(d.page_content, d.metadata) for d in documents]
    return documents


CASES = [
    (stack, name)
    for stack, module in (("native", ferrochunk), ("reference", reference))
    for name in splitters(module)
]


@pytest.mark.parametrize("how", sorted(ROUND_TRIPS))
@pytest.mark.parametrize(("stack", "name"), CASES)
def test_splitters_round_trip_with_identical_output(stack: str, name: str, how: str) -> None:
    module = ferrochunk if stack == "native" else reference
    original = splitters(module)[name]()
    copied = ROUND_TRIPS[how](original)
    assert type(copied) is type(original)
    for text in TEXTS:
        expected = output(original, text)
        assert output(copied, text) == expected
        assert output(ROUND_TRIPS[how](copied), text) == expected  # and again


@pytest.mark.parametrize(("stack", "name"), CASES)
def test_tiktoken_pickles_hold_no_rank_table(stack: str, name: str) -> None:
    """Encodings travel by name: a pickle is a few hundred bytes, not megabytes of ranks.
    Hugging Face lengths carry their tokenizer (by its JSON), as ``tokenizers`` pickles it."""
    module = ferrochunk if stack == "native" else reference
    size = len(pickle.dumps(splitters(module)[name]()))
    limit = 40_000 if "huggingface" in name else 2_000
    assert size < limit, f"{name}: {size} bytes"


def test_native_token_counters_pickle_by_name_and_policy() -> None:
    enc = ferrochunk.get_encoding("cl100k_base")
    special = "<|endoftext|>"
    for counter in (
        enc.length_function(),
        enc.length_function(allowed_special="all"),
        enc.length_function(disallowed_special=()),
    ):
        for how, trip in ROUND_TRIPS.items():
            copied = trip(counter)
            assert type(copied) is type(counter), how
            assert copied.name == "cl100k_base"
            outcomes = []
            for c in (counter, copied):
                try:
                    outcomes.append(c(f"hello {special} world"))
                except ValueError as err:
                    outcomes.append(str(err))
            assert outcomes[0] == outcomes[1]
        assert len(pickle.dumps(counter)) < 500


def test_huggingface_counters_pickle_by_json() -> None:
    for counter in (
        ferrochunk.huggingface_counter(HF),
        ferrochunk.huggingface_counter(HF.backend_tokenizer, add_special_tokens=True),
    ):
        for trip in ROUND_TRIPS.values():
            copied = trip(counter)
            assert [copied(t) for t in TEXTS] == [counter(t) for t in TEXTS]


def test_tokenizers_pickle_by_name() -> None:
    for tokenizer in (ferrochunk.Tokenizer("o200k_base"), ferrochunk.get_encoding("gpt2")):
        for trip in ROUND_TRIPS.values():
            copied = trip(tokenizer)
            assert copied.name == tokenizer.name
            assert [copied.encode(t) for t in TEXTS] == [tokenizer.encode(t) for t in TEXTS]
        assert len(pickle.dumps(tokenizer)) < 200


@pytest.mark.parametrize("how", sorted(ROUND_TRIPS))
def test_chunks_round_trip_in_both_stacks(how: str) -> None:
    for module in (ferrochunk, reference):
        counter = ferrochunk.get_encoding("cl100k_base").length_function()
        chunks = [
            *module.split(TEXTS[1], 20, chunk_overlap=5, metadata={"source": "a", "n": [1, 2]}),
            *module.Splitter(12, chunk_overlap=0, length_function=counter).split(TEXTS[0]),
            *module.MarkdownChunker(60, min_size=10).split(TEXTS[0], {"k": "v"}),
        ]
        copied = ROUND_TRIPS[how](chunks)
        assert copied == chunks
        assert [type(c) for c in copied] == [type(c) for c in chunks]
        assert all(dict(a.metadata) == dict(b.metadata) for a, b in zip(copied, chunks))


def test_pickled_splitter_is_independent_of_the_original() -> None:
    """A copy rebuilds its own engine: changing the original's settings later (the drop-ins
    allow it, as LangChain's do) does not reach the copy."""
    original = ferrochunk.RecursiveCharacterTextSplitter(chunk_size=40, chunk_overlap=0)
    copied = pickle.loads(pickle.dumps(original))
    expected = copied.split_text(TEXTS[1])
    original._chunk_size = 10
    assert copied.split_text(TEXTS[1]) == expected
    assert original.split_text(TEXTS[1]) != expected
