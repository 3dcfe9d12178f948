"""Tokens: tiktoken-identical BPE in Rust (offline), and Hugging Face tokenizers as sizes.

Mirrors ``rust/tokens/``: :mod:`.tokenizer` (encode, count, token windows), :mod:`.huggingface`
(``tokenizer.json`` counters) and :mod:`.bundled` (real ``tiktoken.Encoding`` objects built
from the bundled ranks).
"""

from .bundled import ENCODING_NAMES, tiktoken_encoding, use_bundled_ranks_in_tiktoken
from .huggingface import huggingface_counter
from .tokenizer import (
    Tokenizer,
    clean_text,
    clear_caches,
    encoding_for_model,
    encoding_name_for_model,
    get_encoding,
    split_tokens,
)
from .windows import TokenSplitter

__all__ = [
    "ENCODING_NAMES",
    "TokenSplitter",
    "Tokenizer",
    "clean_text",
    "clear_caches",
    "encoding_for_model",
    "encoding_name_for_model",
    "get_encoding",
    "huggingface_counter",
    "split_tokens",
    "tiktoken_encoding",
    "use_bundled_ranks_in_tiktoken",
]
