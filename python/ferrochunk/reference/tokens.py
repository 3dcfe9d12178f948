"""Token sizing on tiktoken itself (mirrors ``rust/tokens.rs``): the oracle of the token tests
and the baseline of the token benchmarks.

tiktoken cannot download its rank files here, so :func:`tiktoken_encoding` builds its
``Encoding`` objects from the ranks ferrochunk bundles (that is the only thing taken from the
native package: data, not logic).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any, Callable, Literal, Optional, Union

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


def check_text(text: object) -> str:
    """``text`` if it is a ``str``, else a ``TypeError`` saying what was passed."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    return text


def tiktoken_encoding(encoding_name: str = "gpt2", model_name: Optional[str] = None) -> Any:
    """A real ``tiktoken.Encoding`` built offline from ferrochunk's bundled ranks."""
    from ..tokens import tiktoken_encoding as build  # the bundled data

    return build(encoding_name, model_name)


def tiktoken_length(
    enc: Any,
    allowed_special: Optional[AllowedSpecial] = None,
    disallowed_special: AllowedSpecial = "all",
) -> Callable[[str], int]:
    """LangChain's ``_tiktoken_length_function``: ``len(enc.encode(text, ...))``."""
    allowed = set() if allowed_special is None else allowed_special

    def _tiktoken_encoder(text: str) -> int:
        return len(enc.encode(text, allowed_special=allowed, disallowed_special=disallowed_special))

    _tiktoken_encoder.counts_tokens = True  # type: ignore[attr-defined]
    return _tiktoken_encoder


def huggingface_length(tokenizer: Any, add_special_tokens: bool = False) -> Callable[[str], int]:
    """A length calling a ``tokenizers.Tokenizer`` from Python for every text (what LangChain's
    ``from_huggingface_tokenizer`` does, through ``transformers``' ``tokenize()``)."""

    def _huggingface_length(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=add_special_tokens).ids)

    _huggingface_length.counts_tokens = True  # type: ignore[attr-defined]
    return _huggingface_length


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


def token_windows(
    text: str, ids: list[int], token_bytes: Callable[[int], bytes], size: int, overlap: int
) -> list[tuple[int, int, int]]:
    """Windows of at most ``size`` tokens stepping by ``size - overlap`` that start and end on
    character boundaries: ``(start, end, token_count)`` in code points (mirrors the Rust)."""
    offsets = [0]
    for i in ids:
        offsets.append(offsets[-1] + len(token_bytes(i)))
    data = text.encode("utf-8")
    char_at = {}
    chars = 0
    for byte in range(len(data) + 1):
        if byte == len(data) or (data[byte] & 0xC0) != 0x80:
            char_at[byte] = chars
            chars += 1
    n = len(ids)

    def on_char(i: int) -> bool:
        return offsets[i] in char_at

    out = []
    start = 0
    while start < n:
        end = min(start + size, n)
        while end > start and not on_char(end):
            end -= 1
        if end == start:
            end = next((e for e in range(start + 1, n + 1) if on_char(e)), n)
        out.append((char_at[offsets[start]], char_at[offsets[end]], end - start))
        if end == n:
            break
        nxt = max(end - overlap, start + 1)
        while nxt < end and not on_char(nxt):
            nxt -= 1
            if nxt <= start:
                nxt = next((e for e in range(start + 1, end + 1) if on_char(e)), end)
                break
        start = nxt
    return out
