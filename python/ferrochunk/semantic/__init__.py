"""Semantic and late chunking (numpy): ``pip install ferrochunk[semantic]``.

- :class:`SemanticSplitter`: chunks cut where the meaning shifts, exact offsets, sizes.
- :class:`SemanticChunker`: a drop-in for ``langchain_experimental``'s, same output.
- :func:`pool_chunks`, :func:`late_chunk`, :func:`embed_tokens`: late chunking, one
  embedding per chunk pooled from a document's token embeddings.
- :func:`embed`, :func:`as_embedder`: any embedder (callable, LangChain, sentence-
  transformers, model2vec, WordLlama), its results checked.

See ``docs/semantic.md``.
"""

try:
    import numpy  # noqa: F401
except ImportError as err:  # pragma: no cover - numpy is in the test extras
    raise ImportError(
        "ferrochunk.semantic needs numpy: pip install 'ferrochunk[semantic]'"
    ) from err

from .breakpoints import BREAKPOINT_DEFAULTS, BreakpointThresholdType
from .embedders import EmbedderLike, as_embedder, cosine_distances, embed
from .langchain import SemanticChunker
from .late import embed_tokens, late_chunk, pool_chunks
from .splitter import SemanticSplitter

__all__ = [
    "BREAKPOINT_DEFAULTS",
    "BreakpointThresholdType",
    "EmbedderLike",
    "SemanticChunker",
    "SemanticSplitter",
    "as_embedder",
    "cosine_distances",
    "embed",
    "embed_tokens",
    "late_chunk",
    "pool_chunks",
]
