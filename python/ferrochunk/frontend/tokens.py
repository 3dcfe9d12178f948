"""Token rules both engines share: tiktoken's special-token policy and LangChain's
``split_text_on_tokens`` algorithm (on any ``encode``/``decode`` pair)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Callable, Literal, Union

AllowedSpecial = Union[Literal["all"], Collection[str]]


def resolve_special(
    special_tokens: Iterable[str],
    allowed_special: AllowedSpecial,
    disallowed_special: AllowedSpecial,
) -> tuple[list[str], list[str]]:
    """tiktoken's reading of ``allowed_special``/``disallowed_special`` as explicit lists,
    with its errors: ``allowed_special`` must be ``"all"`` or a set (its ``set - allowed``,
    or its core, refuses anything else), and a falsy ``disallowed_special`` (``None``,
    ``()``, ``0``) disallows nothing."""
    specials = set(special_tokens)
    if isinstance(allowed_special, str) and allowed_special == "all":
        allowed_special = specials
    if isinstance(disallowed_special, str) and disallowed_special == "all":
        disallowed_special = specials - allowed_special  # type: ignore[operator]
    if not isinstance(allowed_special, (set, frozenset)):
        raise TypeError(f"{_pyo3_type(allowed_special)} is not an instance of 'set'")
    disallowed = set(disallowed_special) if disallowed_special else set()
    return sorted(allowed_special), sorted(disallowed)


def _pyo3_type(value: object) -> str:
    """How tiktoken's core (PyO3) names a value it cannot take as a set."""
    return "'None'" if value is None else f"'{type(value).__name__}' object"


def split_on_tokens(
    text: str,
    encode: Callable[[str], list[int]],
    decode: Callable[[list[int]], str],
    tokens_per_chunk: int,
    chunk_overlap: int,
) -> list[str]:
    """LangChain's ``split_text_on_tokens``: windows of ids, each decoded (U+FFFD where a
    window cuts a character), empty decodings skipped."""
    splits: list[str] = []
    input_ids = encode(text)
    if tokens_per_chunk <= chunk_overlap:
        raise ValueError("tokens_per_chunk must be greater than chunk_overlap")
    start = 0
    while start < len(input_ids):
        end = min(start + tokens_per_chunk, len(input_ids))
        chunk_ids = input_ids[start:end]
        if not chunk_ids:
            break
        decoded = decode(chunk_ids)
        if decoded:
            splits.append(decoded)
        if end == len(input_ids):
            break
        start += tokens_per_chunk - chunk_overlap
    return splits
