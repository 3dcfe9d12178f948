"""Token counting identical to tiktoken, offline: OpenAI's BPE encodings in Rust.

The rank files ship inside the extension module, so nothing is ever downloaded.

>>> from ferrochunk import get_encoding
>>> enc = get_encoding("cl100k_base")
>>> enc.encode("hello world")
[15339, 1917]
>>> enc.count("hello world"), enc.decode([15339, 1917])
(2, 'hello world')
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Optional, TypeVar

from .. import _native
from ..frontend.checks import check_text, metadata_dict, window_overlap
from ..frontend.tokens import AllowedSpecial, resolve_special
from .bundled import ENCODING_NAMES, tiktoken_encoding


def clean_text(text: object) -> str:
    """``text`` with lone surrogates replaced by U+FFFD, as tiktoken's ``encode`` does."""
    text = check_text(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


_R = TypeVar("_R")


def _call(method: Callable[..., _R], text: object, *args: Any) -> _R:
    """``method(text, *args)`` on a native method that reads the ``str`` where CPython keeps it
    and raises ``UnicodeEncodeError`` on lone surrogates: those are then replaced first, as
    tiktoken does, and the call made again (checking up front would convert every text)."""
    text = check_text(text)
    try:
        return method(text, *args)
    except UnicodeEncodeError:
        return method(clean_text(text), *args)


def _policy_key(allowed_special: AllowedSpecial, disallowed_special: AllowedSpecial) -> Any:
    """A hashable key for a policy that ``resolve_special`` reads the same way for every
    argument with that key: ``"all"`` or the set of strings each names (a falsy
    ``disallowed_special`` none); ``TypeError`` for anything else (resolved each time)."""
    if isinstance(allowed_special, str) and allowed_special == "all":
        allowed: Any = "all"
    elif isinstance(allowed_special, (set, frozenset)):
        allowed = frozenset(allowed_special)
    else:
        raise TypeError("allowed_special is neither 'all' nor a set")
    if isinstance(disallowed_special, str) and disallowed_special == "all":
        return allowed, "all"
    return allowed, frozenset(disallowed_special) if disallowed_special else frozenset()


class Tokenizer:
    """One of tiktoken's encodings (``gpt2``, ``r50k_base``, ``p50k_base``, ``p50k_edit``,
    ``cl100k_base``, ``o200k_base``, ``o200k_harmony``) with tiktoken's ``encode``/``decode``
    and fast ``count``/``count_batch``."""

    def __init__(self, encoding_name: str = "cl100k_base") -> None:
        if not isinstance(encoding_name, str):
            raise TypeError(
                f"encoding_name must be str, got {type(encoding_name).__name__}; "
                f"available: {', '.join(ENCODING_NAMES)}"
            )
        self._native = _native.Encoder(encoding_name)
        self.special_tokens: dict[str, int] = self._native.special_tokens()
        self._counters: dict[tuple[Any, Any], _native.TokenCounter] = {}

    @property
    def name(self) -> str:
        """The encoding's name."""
        return self._native.name

    @property
    def special_tokens_set(self) -> set[str]:
        """The special tokens' texts (as tiktoken's property)."""
        return set(self.special_tokens)

    def special_policy(
        self, allowed_special: AllowedSpecial, disallowed_special: AllowedSpecial
    ) -> tuple[list[str], list[str]]:
        """tiktoken's reading of ``allowed_special``/``disallowed_special`` for this
        encoding, as explicit ``(allowed, disallowed)`` lists."""
        return resolve_special(self.special_tokens, allowed_special, disallowed_special)

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: AllowedSpecial = "all",
    ) -> list[int]:
        """tiktoken's ``encode``: raises ``ValueError`` on disallowed special-token text. A text
        of a megabyte or more is encoded across cores (as ``count``)."""
        return _call(self._counter(allowed_special, disallowed_special).encode, text)

    def encode_ordinary(self, text: str) -> list[int]:
        """tiktoken's ``encode_ordinary``: special-token text is plain text."""
        return _call(self._native.encode_ordinary, text)

    def count(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: AllowedSpecial = "all",
    ) -> int:
        """``len(encode(text, ...))`` without building the list. A text of a megabyte or more
        is counted across cores (``FERROCHUNK_NUM_THREADS`` threads, else every CPU this
        process may use): in segments, as ``count_batch`` counts, a single run that long in
        parts."""
        return _call(self._counter(allowed_special, disallowed_special).count, text)

    def count_batch(
        self,
        texts: Sequence[str],
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: AllowedSpecial = "all",
    ) -> list[int]:
        """Counts of many texts, in parallel across cores with the GIL released."""
        if isinstance(texts, str):
            raise TypeError("texts must be a sequence of str, not a str; use count() for one")
        policy = self.special_policy(allowed_special, disallowed_special)
        texts = [check_text(t) for t in texts]
        try:
            return self._native.count_batch(texts, *policy)
        except UnicodeEncodeError:  # lone surrogates: replaced first, as tiktoken does
            return self._native.count_batch([clean_text(t) for t in texts], *policy)

    def decode_bytes(self, tokens: Sequence[int]) -> bytes:
        """tiktoken's ``decode_bytes`` (``KeyError`` for an id outside the vocabulary)."""
        return self._native.decode_bytes(list(tokens))

    def decode(self, tokens: Sequence[int], errors: str = "replace") -> str:
        """tiktoken's ``decode``: bytes decoded as UTF-8 with ``errors``."""
        return self.decode_bytes(tokens).decode("utf-8", errors=errors)

    def length_function(
        self,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: AllowedSpecial = "all",
    ) -> _native.TokenCounter:
        """A ``length_function`` for splitters that counts in Rust, without a Python call per
        piece (also a plain callable: ``f(text) -> int``)."""
        return _native.TokenCounter(
            self._native, *self.special_policy(allowed_special, disallowed_special)
        )

    def split_text_lossy(
        self,
        text: str,
        chunk_size: int,
        chunk_overlap: int,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: AllowedSpecial = "all",
    ) -> list[str]:
        """LangChain's ``TokenTextSplitter`` windows: ``chunk_size`` ids stepping by
        ``chunk_size - chunk_overlap``, each decoded with U+FFFD where it cuts a character
        (sizes are checked by the caller, as LangChain's class does)."""
        counter = self._counter(allowed_special, disallowed_special)
        return _call(counter.split_lossy, text, chunk_size, chunk_overlap)

    def _counter(
        self, allowed_special: AllowedSpecial, disallowed_special: AllowedSpecial
    ) -> _native.TokenCounter:
        """The counter of a special-token policy, kept per policy: resolving one took
        longer than counting, encoding or splitting a short text."""
        try:
            key = _policy_key(allowed_special, disallowed_special)
        except TypeError:  # not a policy tiktoken takes: resolved (and refused) each time
            return self.length_function(allowed_special, disallowed_special)
        counter = self._counters.get(key)
        if counter is None:
            if len(self._counters) >= 64:
                self._counters.clear()
            counter = self._counters[key] = self.length_function(*key)
        return counter

    def to_tiktoken(self) -> Any:
        """A real ``tiktoken.Encoding`` of this encoding, built from the bundled ranks."""
        return tiktoken_encoding(self.name)

    def __repr__(self) -> str:
        return f"Tokenizer({self.name!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.name,))


@functools.cache
def get_encoding(encoding_name: str) -> Tokenizer:
    """The :class:`Tokenizer` of a bundled encoding (``ValueError`` lists the available)."""
    return Tokenizer(encoding_name)


def encoding_name_for_model(model_name: str) -> str:
    """tiktoken's model table: ``gpt-4o`` → ``o200k_base`` (``KeyError`` if unknown)."""
    return _native.encoding_name_for_model(check_text(model_name))


def encoding_for_model(model_name: str) -> Tokenizer:
    """The :class:`Tokenizer` a model uses."""
    return get_encoding(encoding_name_for_model(model_name))


def split_tokens(
    text: str,
    chunk_size: int = 512,
    *,
    chunk_overlap: Optional[int] = None,
    encoding: str = "cl100k_base",
    metadata: Optional[Mapping[str, Any]] = None,
) -> list[_native.Chunk]:
    """Fixed token windows (``chunk_size`` tokens, stepping by ``chunk_size - chunk_overlap``)
    that start and end on character boundaries, so every chunk is an exact span of ``text``
    (no U+FFFD) with its ``token_count``; a window is shorter where a character's bytes would
    be cut, and longer only when one character alone spans more than ``chunk_size`` tokens.
    ``chunk_overlap=None`` (the default) is a fifth of ``chunk_size`` (102 for 512), as for
    :class:`~ferrochunk.Splitter`; it must stay below ``chunk_size``.

    >>> from ferrochunk import split_tokens
    >>> [(c.text, c.token_count) for c in split_tokens("one two three", 2, chunk_overlap=0)]
    [('one two', 2), (' three', 1)]
    """
    text = check_text(text)
    size, overlap = _check_window(chunk_size, window_overlap(chunk_size, chunk_overlap))
    meta = MappingProxyType(metadata_dict(metadata or None))
    try:
        native = get_encoding(encoding)._native
        return native.windows(text, *_native_window(size, overlap), meta)

    except UnicodeEncodeError as err:
        raise ValueError(
            f"text has a lone surrogate {text[err.start]!r} at index {err.start}, which has "
            "no UTF-8 encoding; decode the input with errors='replace' or remove it"
        ) from None


def _check_window(chunk_size: object, chunk_overlap: object) -> tuple[int, int]:
    """The token windows' sizes, checked: ints, ``chunk_size > chunk_overlap >= 0``."""
    for name, value in (("chunk_size", chunk_size), ("chunk_overlap", chunk_overlap)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    assert isinstance(chunk_size, int) and isinstance(chunk_overlap, int)
    if chunk_size <= 0 or chunk_overlap < 0 or chunk_overlap >= chunk_size:
        raise ValueError(
            f"need chunk_size > chunk_overlap >= 0, got chunk_size={chunk_size}, "
            f"chunk_overlap={chunk_overlap}"
        )
    return chunk_size, chunk_overlap


def _native_window(chunk_size: int, chunk_overlap: int) -> tuple[int, int]:
    """The sizes Rust gets: a ``chunk_size`` past ``sys.maxsize`` (which it cannot take) is
    lowered to it, the overlap kept under it. The output is the same: no text has that many
    tokens (each is at least a byte), so the first window holds the whole text either way."""
    if chunk_size <= sys.maxsize:
        return chunk_size, chunk_overlap
    return sys.maxsize, min(chunk_overlap, sys.maxsize - 1)


def clear_caches() -> None:
    """Make every thread forget the merged pieces it remembers (the tokens of words seen
    before): for measuring a cold first pass, or to give memory back (up to ~10 MB per
    thread and encoding).

    Lazy and per thread: the caches are thread-local, and this only bumps a shared counter
    and returns. Each thread drops its own cache, and frees it, the next time it counts or
    encodes; a thread that never tokenizes again keeps its cache until it exits."""
    _native.clear_token_caches()


__all__ = [
    "ENCODING_NAMES",
    "Tokenizer",
    "clean_text",
    "clear_caches",
    "encoding_for_model",
    "encoding_name_for_model",
    "get_encoding",
    "split_tokens",
]
