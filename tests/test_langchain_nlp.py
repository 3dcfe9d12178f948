"""The sentence and model splitters of ``ferrochunk.langchain`` (NLTK, spaCy, KoNLPy,
sentence-transformers) call their library as LangChain does and merge alike: the same
output and errors with the same models, and LangChain's ``ImportError`` without the library.

Offline: NLTK uses a Punkt model trained here (``nlp_data.py``); spaCy its rule-based
sentencizer, blank or saved to a folder and loaded by path (the ``en_core_web_sm`` default
is a download); KoNLPy (a Java library) and sentence-transformers (models from the hub) are
not installed, so both classes are compared on stand-in modules with the same interface
(the model's tokenizer is a real ``transformers`` one, trained here)."""

from __future__ import annotations

import re
import sys
import types

import langchain_text_splitters as lc
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ferrochunk.langchain as fl
from support import outcome, sizes

SENTENCES = [
    "This is sentence one.",
    "And this is two!",
    "Is it three?",
    "Mr. Smith went home.",
    "e.g. this one",
    "漢字テキスト。",
    "😀 ok.",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\t",
    "x",
]
prose = st.lists(st.sampled_from(SENTENCES) | st.text(max_size=8), max_size=30).map(" ".join)
separators = st.sampled_from(["\n\n", " ", "", "|||"])


def _both(make, use) -> None:
    expected = outcome(lambda: use(make(lc)))
    assert outcome(lambda: use(make(fl))) == expected


@pytest.mark.usefixtures("nltk_data")
@given(prose, sizes(), separators, st.booleans(), st.booleans())
def test_nltk_matches(text, size_overlap, separator, span, start_index) -> None:
    size, overlap = size_overlap

    def make(module):
        return module.NLTKTextSplitter(
            separator="" if span else separator,
            use_span_tokenize=span,
            chunk_size=size,
            chunk_overlap=overlap,
            add_start_index=start_index,
        )

    _both(make, lambda s: [(d.page_content, d.metadata) for d in s.create_documents([text])])


def test_nltk_argument_errors_match() -> None:
    for kwargs in ({"use_span_tokenize": True}, {"chunk_size": 2, "chunk_overlap": 4}):
        _both(lambda m, k=kwargs: m.NLTKTextSplitter(**k), lambda s: s)


spacy = pytest.importorskip("spacy")


@pytest.fixture(scope="module")
def saved_pipeline(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A spaCy pipeline on disk (blank English + sentencizer), for ``spacy.load(path)``."""
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    folder = tmp_path_factory.mktemp("spacy") / "pipeline"
    nlp.to_disk(folder)
    return str(folder)


@pytest.fixture(scope="module")
def spacy_splitters(saved_pipeline: str) -> dict:
    """One splitter per library and pipeline (making a spaCy pipeline takes ~0.3 s); the
    examples then set the sizes, separator and stripping LangChain's merge reads."""
    return {
        (module, by_path): module.SpacyTextSplitter(
            pipeline=saved_pipeline if by_path else "sentencizer", max_length=10**6
        )
        for module in (lc, fl)
        for by_path in (False, True)
    }


@given(prose, sizes(), separators, st.booleans(), st.booleans())
def test_spacy_matches(spacy_splitters, text, size_overlap, separator, strip, by_path) -> None:
    def make(module):
        splitter = spacy_splitters[module, by_path]
        splitter._chunk_size, splitter._chunk_overlap = size_overlap
        splitter._separator, splitter._strip_whitespace = separator, strip
        return splitter

    _both(make, lambda s: s.split_text(text))


@pytest.mark.parametrize("by_path", [False, True])
def test_spacy_constructor_matches(saved_pipeline, by_path) -> None:
    def make(module):
        pipeline = saved_pipeline if by_path else "sentencizer"
        return module.SpacyTextSplitter(
            " ", pipeline, 77, strip_whitespace=False, chunk_size=30, chunk_overlap=3
        )

    def state(s):
        return (s.split_text("One. Two!  Three?"), s._tokenizer.pipe_names, s._tokenizer.max_length)

    _both(make, state)


def test_spacy_unknown_pipeline_fails_alike() -> None:
    _both(lambda m: m.SpacyTextSplitter(pipeline="no_such_pipeline_here"), lambda s: s)


# -- stand-ins for what cannot be installed here -------------------------------------------


def _fake_konlpy() -> types.ModuleType:
    class Kkma:
        def sentences(self, text: str) -> list[str]:  # Kkma's contract: a list of sentences
            return [s.strip() for s in re.split(r"(?<=[.!?。])\s+", text) if s.strip()]

    konlpy = types.ModuleType("konlpy")
    konlpy.tag = types.SimpleNamespace(Kkma=Kkma)  # type: ignore[attr-defined]
    return konlpy


@given(prose, sizes(), separators)
def test_konlpy_matches(text, size_overlap, separator) -> None:
    size, overlap = size_overlap
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "konlpy", _fake_konlpy())
        _both(
            lambda m: m.KonlpyTextSplitter(separator, chunk_size=size, chunk_overlap=overlap),
            lambda s: (s.split_text(text), type(s.kkma).__name__),
        )


def _fake_sentence_transformers(tokenizer, max_seq_length) -> types.ModuleType:
    class SentenceTransformer:
        def __init__(self, model_name: str, **kwargs: object) -> None:
            self.tokenizer = tokenizer
            self.max_seq_length = max_seq_length
            self.args = (model_name, kwargs)

    module = types.ModuleType("sentence_transformers")
    module.SentenceTransformer = SentenceTransformer  # type: ignore[attr-defined]
    return module


@pytest.fixture(scope="module")
def hf_tokenizer():
    """A WordPiece tokenizer with [CLS]/[SEP] around every encoding, as BERT-like models."""
    transformers = pytest.importorskip("transformers")
    tk = pytest.importorskip("tokenizers")
    tok = tk.Tokenizer(tk.models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = tk.normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = tk.pre_tokenizers.BertPreTokenizer()
    trainer = tk.trainers.WordPieceTrainer(
        vocab_size=200, special_tokens=["[UNK]", "[CLS]", "[SEP]"]
    )
    tok.train_from_iterator(SENTENCES * 20, trainer)
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = tk.processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok)


@given(prose, st.integers(0, 6), st.none() | st.integers(1, 40), st.none() | st.integers(1, 30))
def test_sentence_transformers_matches(hf_tokenizer, text, overlap, per_chunk, limit) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(
            sys.modules, "sentence_transformers", _fake_sentence_transformers(hf_tokenizer, limit)
        )

        def make(module):
            return module.SentenceTransformersTokenTextSplitter(
                chunk_overlap=overlap, tokens_per_chunk=per_chunk, model_kwargs={"device": "cpu"}
            )

        _both(make, lambda s: (s.split_text(text), s.count_tokens(text=text), s._model.args))


@pytest.mark.parametrize(
    ("module_name", "cls"),
    [
        ("konlpy", "KonlpyTextSplitter"),
        ("nltk", "NLTKTextSplitter"),
        ("spacy", "SpacyTextSplitter"),
        ("sentence_transformers", "SentenceTransformersTokenTextSplitter"),
    ],
)
def test_missing_library_raises_langchains_import_error(module_name, cls, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, module_name, None)
    expected = outcome(lambda: getattr(lc, cls)())
    assert expected[:2] == ("raised", ImportError)
    assert outcome(lambda: getattr(fl, cls)()) == expected
