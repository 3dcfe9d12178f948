"""The token side of the drop-ins: ``TokenTextSplitter``'s encoder and windows, and the
lengths of ``from_tiktoken_encoder`` / ``from_huggingface_tokenizer``, per stack."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Callable, Optional

from .. import _native
from ..frontend.batch import drain
from .common import REFERENCE
from .split import TEXTSPLITTER_MODULE

if TYPE_CHECKING:  # loaded on first use, not with the engines
    from ..tokens.tokenizer import Tokenizer

# -- token sizes and TokenTextSplitter ------------------------------------------------------


def token_encoder(stack: str, encoding_name: str, model_name: Optional[str]) -> Any:
    """The encoder of LangChain's ``encoding_name``/``model_name``: tiktoken itself on the
    reference, ferrochunk's ``Tokenizer`` on the native stack."""
    if stack == REFERENCE:
        from ..reference.tokens import tiktoken_encoding

        return tiktoken_encoding(encoding_name, model_name)
    from ..tokens.tokenizer import encoding_for_model, get_encoding

    if model_name is not None:
        return encoding_for_model(model_name)
    if not isinstance(encoding_name, str):  # tiktoken's error (a ValueError) for such a name
        msg = f"Expected a string in get_encoding, got {type(encoding_name)}"
        raise ValueError(msg)
    return get_encoding(encoding_name)


def tiktoken_length(
    stack: str, encoding_name: str, model_name: Optional[str], allowed: Any, disallowed: Any
) -> Callable[[str], int]:
    """``from_tiktoken_encoder``'s length: a native counter (sized in Rust, the GIL
    released), or on the reference LangChain's ``len(enc.encode(text, ...))`` on tiktoken."""
    if stack == REFERENCE:
        from ..reference.tokens import tiktoken_encoding
        from ..reference.tokens import tiktoken_length as reference_length

        enc = tiktoken_encoding(encoding_name, model_name)
        return reference_length(enc, allowed, disallowed)
    import functools

    tokenizer: Tokenizer = token_encoder(stack, encoding_name, model_name)  # native stack
    allowed = set() if allowed is None else allowed
    try:
        return tokenizer.length_function(allowed, disallowed)
    except TypeError:  # a policy tiktoken refuses: LangChain's raises when it counts
        return functools.partial(
            tokenizer.count, allowed_special=allowed, disallowed_special=disallowed
        )


def huggingface_length(stack: str, tokenizer: Any) -> Callable[[str], int]:
    """``from_huggingface_tokenizer``'s length, ``len(tokenizer.tokenize(text))``: counted in
    Rust for a fast tokenizer whose ``tokenize()`` is its backend's own, else called."""
    from ..frontend.textsplitter import TokenizeLength

    tokenize_length = TokenizeLength(tokenizer)
    if stack == REFERENCE:
        return tokenize_length
    from ..tokens.huggingface import tokenize_counter

    counter = tokenize_counter(tokenizer, tokenize_length)
    return tokenize_length if counter is None else counter


def _windows_native(splitter: Any) -> bool:
    size, overlap = splitter._chunk_size, splitter._chunk_overlap
    return (
        splitter._stack != REFERENCE
        and type(size) is int
        and type(overlap) is int
        and size > overlap
    )


def python_windows(splitter: Any, text: str) -> list[str]:
    """LangChain's ``split_text_on_tokens`` with the splitter's encoder (the reference's)."""
    from ..reference.tokens import decoded_windows

    return decoded_windows(
        splitter._tokenizer,
        text,
        splitter._chunk_size,
        splitter._chunk_overlap,
        splitter._allowed_special,
        splitter._disallowed_special,
    )


def token_windows(splitter: Any, text: str) -> list[str]:
    """``TokenTextSplitter.split_text``: windows of token ids, decoded with U+FFFD for cut
    characters, in Rust; in Python on the reference and where LangChain raises."""
    if not _windows_native(splitter):
        return python_windows(splitter, text)  # LangChain's errors, in LangChain's order
    try:
        windows: list[str] = splitter._tokenizer.split_text_lossy(
            text,
            splitter._chunk_size,
            splitter._chunk_overlap,
            allowed_special=splitter._allowed_special,
            disallowed_special=splitter._disallowed_special,
        )
    except OverflowError:  # sizes beyond the native integers: windows cut in Python
        return python_windows(splitter, text)
    return windows


def token_batch(splitter: Any, texts: Any) -> Optional[Iterator[list[str]]]:
    """Many texts of a ``TokenTextSplitter`` on the pool, or ``None`` for one at a time."""
    if (
        not isinstance(texts, (list, tuple))
        or len(texts) < 2
        or not _windows_native(splitter)
        or getattr(type(splitter).split_text, "__module__", None) != TEXTSPLITTER_MODULE
    ):
        return None
    tokenizer = splitter._tokenizer
    allowed, disallowed = tokenizer.special_policy(
        splitter._allowed_special, splitter._disallowed_special
    )
    size, overlap = splitter._chunk_size, splitter._chunk_overlap
    try:
        results = _native.lossy_iter(
            tokenizer._native, iter(texts), size, overlap, allowed, disallowed, splitter.split_text
        )
    except OverflowError:  # sizes beyond the native integers: one text at a time
        return None
    return drain(results, list)
