"""Token sizing on tiktoken itself (mirrors ``rust/tokens/tokenizer.rs``): the oracle of the
token tests and the baseline of the token benchmarks.

tiktoken cannot download its rank files here, so :func:`tiktoken_encoding` builds its
``Encoding`` objects from the ranks ferrochunk bundles (that is the only thing taken from the
native package: data, not logic).
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional

from ..frontend.tokens import AllowedSpecial


def tiktoken_encoding(encoding_name: str = "gpt2", model_name: Optional[str] = None) -> Any:
    """A real ``tiktoken.Encoding`` built offline from ferrochunk's bundled ranks."""
    from ..tokens.bundled import tiktoken_encoding as build  # the bundled data

    return build(encoding_name, model_name)


class TiktokenLength:
    """LangChain's ``_tiktoken_length_function``, ``len(enc.encode(text, ...))``, as a class
    so splitters holding it pickle: a bundled encoding travels by name (its ranks are
    rebuilt in the worker), any other ``tiktoken.Encoding`` as tiktoken pickles it."""

    counts_tokens = True

    def __init__(
        self, enc: Any, allowed_special: AllowedSpecial, disallowed_special: AllowedSpecial
    ) -> None:
        self.enc = enc
        self.allowed_special = allowed_special
        self.disallowed_special = disallowed_special

    @property
    def name(self) -> str:
        """The encoding's name (what chunk ids record, as for the native counter)."""
        return str(self.enc.name)

    def __call__(self, text: str) -> int:
        return len(
            self.enc.encode(
                text,
                allowed_special=self.allowed_special,
                disallowed_special=self.disallowed_special,
            )
        )

    def __reduce__(self) -> tuple[Any, ...]:
        from ..tokens.bundled import ENCODING_NAMES

        policy = (self.allowed_special, self.disallowed_special)
        name = getattr(self.enc, "name", None)
        if name in ENCODING_NAMES and self.enc is tiktoken_encoding(name):
            return (_bundled_length, (name, *policy))
        return (type(self), (self.enc, *policy))


def _bundled_length(
    name: str, allowed_special: AllowedSpecial, disallowed_special: AllowedSpecial
) -> TiktokenLength:
    return TiktokenLength(tiktoken_encoding(name), allowed_special, disallowed_special)


def tiktoken_length(
    enc: Any,
    allowed_special: Optional[AllowedSpecial] = None,
    disallowed_special: AllowedSpecial = "all",
) -> Callable[[str], int]:
    """LangChain's ``_tiktoken_length_function``: ``len(enc.encode(text, ...))``."""
    allowed = set() if allowed_special is None else allowed_special
    return TiktokenLength(enc, allowed, disallowed_special)


class HuggingFaceLength:
    """Counts with a ``tokenizers.Tokenizer`` called from Python for every text (what
    LangChain's ``from_huggingface_tokenizer`` does, through ``transformers``'
    ``tokenize()``); a class so that it pickles (``tokenizers`` pickles by JSON)."""

    counts_tokens = True

    def __init__(self, tokenizer: Any, add_special_tokens: bool = False) -> None:
        self.tokenizer = tokenizer
        self.add_special_tokens = add_special_tokens

    def __call__(self, text: str) -> int:
        return len(self.tokenizer.encode(text, add_special_tokens=self.add_special_tokens).ids)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.tokenizer, self.add_special_tokens))


def huggingface_length(tokenizer: Any, add_special_tokens: bool = False) -> Callable[[str], int]:
    """A length calling a ``tokenizers.Tokenizer`` from Python for every text."""
    return HuggingFaceLength(tokenizer, add_special_tokens)


def decoded_windows(
    encoder: Any, text: str, size: Any, overlap: Any, allowed: Any, disallowed: Any
) -> list[str]:
    """``TokenTextSplitter``'s windows as LangChain cuts them (``split_text_on_tokens``) with
    ``encoder``'s ``encode``/``decode``: the reference's, and the native stack's where
    LangChain raises (sizes that are no ``int``) or the native ints cannot hold them."""
    from ..frontend.tokens import split_on_tokens

    encode = functools.partial(
        encoder.encode, allowed_special=allowed, disallowed_special=disallowed
    )
    return split_on_tokens(text, encode, encoder.decode, size, overlap)


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
