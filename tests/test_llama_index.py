"""The drop-ins inside llama-index: ``LangchainNodeParser`` (which pickles its splitter and
silently drops it when that fails, the cause of the ``no attribute '_lc_splitter'`` error)
and an ``IngestionPipeline`` with two worker processes, against the in-process result."""

from __future__ import annotations

import copy
import pickle
from typing import Any, Callable

import pytest

import ferrochunk
from test_pickling import HF, TEXTS

llama = pytest.importorskip("llama_index.core")
from llama_index.core import Document  # noqa: E402
from llama_index.core.ingestion import IngestionPipeline  # noqa: E402
from llama_index.core.node_parser import LangchainNodeParser  # noqa: E402

F = ferrochunk
DROP_INS: dict[str, Callable[[], Any]] = {
    "recursive": lambda: F.RecursiveCharacterTextSplitter(chunk_size=60, chunk_overlap=10),
    "character": lambda: F.CharacterTextSplitter(separator=" ", chunk_size=50, chunk_overlap=5),
    "recursive-tiktoken": lambda: F.RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        "cl100k_base", chunk_size=14, chunk_overlap=2
    ),
    "character-tiktoken": lambda: F.CharacterTextSplitter.from_tiktoken_encoder(
        model_name="gpt-4o", separator=" ", chunk_size=12, chunk_overlap=0
    ),
    "recursive-huggingface": lambda: F.RecursiveCharacterTextSplitter.from_huggingface_tokenizer(
        HF, chunk_size=12, chunk_overlap=2
    ),
    "from-language": lambda: F.RecursiveCharacterTextSplitter.from_language(
        F.Language.PYTHON, chunk_size=40, chunk_overlap=0
    ),
    "markdown-text": lambda: F.MarkdownTextSplitter(chunk_size=40, chunk_overlap=0),
    "token": lambda: F.TokenTextSplitter(chunk_size=9, chunk_overlap=2),
    "token-tiktoken": lambda: F.TokenTextSplitter.from_tiktoken_encoder(
        "o200k_base", chunk_size=11, chunk_overlap=1
    ),
}
DOCUMENTS = [t for t in TEXTS if t]


def _texts(nodes: list[Any]) -> list[str]:
    return [n.get_content() for n in nodes]


@pytest.mark.parametrize("name", sorted(DROP_INS))
def test_langchain_node_parser_survives_pickle_and_deepcopy(name: str) -> None:
    parser = LangchainNodeParser(DROP_INS[name]())
    docs = [Document(text=t) for t in DOCUMENTS]
    expected = _texts(parser.get_nodes_from_documents(docs))
    assert expected
    for copied in (pickle.loads(pickle.dumps(parser)), copy.deepcopy(parser)):
        assert _texts(copied.get_nodes_from_documents(docs)) == expected


def test_ingestion_pipeline_with_two_workers_matches_in_process() -> None:
    """Every drop-in in one pipeline (each splits the nodes of the one before), run in two
    spawned worker processes: the splitters travel by pickle, the nodes must not change."""
    docs = [Document(text=t, id_=f"doc{i}") for i, t in enumerate(DOCUMENTS * 3)]

    def run(workers: int | None) -> list[str]:
        steps = [LangchainNodeParser(make()) for make in DROP_INS.values()]
        # No cache: it keys steps by their pydantic fields, which leave the splitter out,
        # so a step whose input equals an earlier step's would be skipped.
        pipeline = IngestionPipeline(transformations=steps, disable_cache=True)
        return _texts(pipeline.run(documents=docs, num_workers=workers))

    expected = run(None)
    assert len(expected) > len(docs)
    assert run(2) == expected
