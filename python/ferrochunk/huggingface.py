"""Sizing chunks in a Hugging Face tokenizer's tokens, counted in Rust.

>>> from ferrochunk import Splitter, huggingface_counter
>>> counter = huggingface_counter("path/to/tokenizer.json")  # doctest: +SKIP
>>> chunks = Splitter(512, 50, length_function=counter).split(text)  # doctest: +SKIP
>>> chunks[0].token_count  # doctest: +SKIP
412

The tokenizer runs in the Rust ``tokenizers`` library (the engine of the Python package),
so the splitter measures every piece without calling Python.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Union

from . import _native

TokenizerSource = Union[str, "os.PathLike[str]", Any]


def huggingface_counter(
    tokenizer: TokenizerSource, *, add_special_tokens: bool = False
) -> _native.HfTokenCounter:
    """A ``length_function`` counting tokens of a Hugging Face tokenizer, natively.

    ``tokenizer`` is a ``tokenizers.Tokenizer``, a ``transformers`` fast tokenizer (its
    ``backend_tokenizer`` is used), or the path of a ``tokenizer.json`` (or of the folder
    holding one). By default the special tokens a post-processor adds (``[CLS]``...) are not
    counted, as ``transformers``' ``tokenize()`` (LangChain's ``from_huggingface_tokenizer``)
    does not count them. Truncation and padding saved with the tokenizer are ignored.
    """
    if isinstance(tokenizer, (str, os.PathLike)):
        path = Path(tokenizer)
        if path.is_dir():
            path = path / "tokenizer.json"
        try:
            json = path.read_text(encoding="utf-8")
        except OSError as err:
            raise ValueError(f"cannot read tokenizer file {str(path)!r}: {err}") from None
    else:
        backend = getattr(tokenizer, "backend_tokenizer", tokenizer)
        to_str = getattr(backend, "to_str", None)
        if not callable(to_str):
            raise TypeError(
                "tokenizer must be a tokenizers.Tokenizer, a transformers fast tokenizer or "
                f"the path of a tokenizer.json, got {type(tokenizer).__name__}"
            )
        json = to_str()
    return _native.HfTokenCounter(json, bool(add_special_tokens))


__all__ = ["huggingface_counter"]
