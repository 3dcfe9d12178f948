"""Token sizing on tiktoken itself (mirrors ``rust/tokens/tokenizer.rs``): the oracle of the
token tests and the baseline of the token benchmarks.

tiktoken cannot download its rank files here, so :func:`tiktoken_encoding` builds its
``Encoding`` objects from the ranks ferrochunk bundles (that is the only thing taken from the
native package: data, not logic).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from ..frontend.tokens import AllowedSpecial


def tiktoken_encoding(encoding_name: str = "gpt2", model_name: Optional[str] = None) -> Any:
    """A real ``tiktoken.Encoding`` built offline from ferrochunk's bundled ranks."""
    from ..tokens.bundled import tiktoken_encoding as build  # the bundled data

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
