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
    """tiktoken's reading of ``allowed_special``/``disallowed_special`` as explicit lists."""
    specials = set(special_tokens)
    allowed = specials if allowed_special == "all" else set(allowed_special)
    if disallowed_special == "all":
        disallowed = specials - allowed
    else:
        disallowed = set(disallowed_special)
    return sorted(allowed), sorted(disallowed)


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
