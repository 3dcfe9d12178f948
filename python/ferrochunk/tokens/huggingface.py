"""Sizing chunks in a Hugging Face tokenizer's tokens, counted in Rust.

>>> from ferrochunk import Splitter, huggingface_counter
>>> counter = huggingface_counter("path/to/tokenizer.json")  # doctest: +SKIP
>>> chunks = Splitter(512, chunk_overlap=50, length_function=counter).split(text)  # doctest: +SKIP
>>> chunks[0].token_count  # doctest: +SKIP
412

The tokenizer runs in the Rust ``tokenizers`` library (the engine of the Python package),
so the splitter measures every piece without calling Python.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Optional, Union

from .. import _native

TokenizerSource = Union[str, "os.PathLike[str]", Any]


def huggingface_counter(
    tokenizer: TokenizerSource, *, add_special_tokens: bool = False
) -> _native.HfTokenCounter:
    """A ``length_function`` counting tokens of a Hugging Face tokenizer, natively.

    ``tokenizer`` is a ``tokenizers.Tokenizer``, a ``transformers`` fast tokenizer (its
    ``backend_tokenizer`` is used), or the path of a ``tokenizer.json`` (or of the folder
    holding one). By default the special tokens a post-processor adds (``[CLS]``...) are not
    counted, as ``transformers``' ``tokenize()`` (LangChain's ``from_huggingface_tokenizer``)
    does not count them. Truncation and padding saved with the tokenizer are ignored; a
    tokenizer object's ``encode_special_tokens`` (special-token text split as plain text) is
    kept, though ``tokenizer.json`` does not save it.
    """
    split = False
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
        split = bool(getattr(backend, "encode_special_tokens", False))
    return _native.HfTokenCounter(json, bool(add_special_tokens), split)


# What ``tokenize()`` runs through on a fast tokenizer (``transformers`` 4 and 5). A class
# that overrides any of them (LayoutLM, LUKE, CodeLlama...) may tokenize differently from its
# backend, so only the stock methods are trusted.
_TOKENIZE_PATH = (
    "tokenize",
    "encode_plus",
    "_encode_plus",
    "_batch_encode_plus",
    "_get_padding_truncation_strategies",
    "set_truncation_and_padding",
    "_convert_encoding",
    "backend_tokenizer",
)


def _fast_tokenizer_class() -> Optional[type[Any]]:
    """``transformers.PreTrainedTokenizerFast`` (``TokenizersBackend`` in 5.x), if importable."""
    try:
        from transformers import PreTrainedTokenizerFast
    except Exception:  # not installed, or broken: then nothing is counted natively
        return None
    return PreTrainedTokenizerFast if isinstance(PreTrainedTokenizerFast, type) else None


def _stock_backend(tokenizer: Any) -> Any:
    """The ``tokenizers.Tokenizer`` behind ``tokenizer``, if its ``tokenize()`` is provably
    ``len(backend.encode(text, add_special_tokens=False))``; ``None`` when unsure."""
    fast = _fast_tokenizer_class()
    if fast is None or not isinstance(tokenizer, fast):
        return None  # slow (pure-Python) tokenizers, Mistral's, anything else
    own = getattr(tokenizer, "__dict__", {})
    for name in _TOKENIZE_PATH:
        if name in own or getattr(type(tokenizer), name, None) is not getattr(fast, name, None):
            return None
    try:
        from tokenizers import Tokenizer
    except ImportError:  # pragma: no cover - transformers' fast tokenizers need it
        return None
    backend = getattr(tokenizer, "_tokenizer", None)
    if type(backend) is not Tokenizer or tokenizer.backend_tokenizer is not backend:
        return None
    return backend


def tokenize_counter(
    tokenizer: Any, tokenize_length: Callable[[str], int]
) -> Optional[_native.HfTokenCounter]:
    """A native counter equal to ``tokenize_length``, i.e. ``len(tokenizer.tokenize(text))``
    (what LangChain's ``from_huggingface_tokenizer`` counts with), for a ``transformers`` fast
    tokenizer; ``None`` when that cannot be guaranteed (slow tokenizers, subclasses with their
    own ``tokenize``, components written in Python): the caller then uses ``tokenize_length``.
    Texts Rust cannot take (lone surrogates) are still passed to ``tokenize_length``.

    The tokenizer is read now: tokens added to it later are not seen by the counter.
    """
    backend = _stock_backend(tokenizer)
    if backend is None:
        return None
    try:
        # `tokenize` copies the tokenizer's `split_special_tokens` onto its backend (in the
        # versions that honour it); one call leaves the backend as every later call sees it.
        tokenizer.tokenize("")
        split = getattr(backend, "encode_special_tokens", False)
        return _native.HfTokenCounter(backend.to_str(), False, split, tokenize_length)
    except Exception:  # components written in Python, or newer than the Rust crate knows
        return None


__all__ = ["huggingface_counter"]
