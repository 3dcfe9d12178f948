"""``Encoding``: tiktoken's class, name for name and error for error, on the Rust BPE.

An ``Encoding`` runs on the bundled ranks (``rust/tokens``): one from :func:`get_encoding`,
or one built like tiktoken's from a pattern and ranks equal to a bundled encoding's, with
special tokens of its own if it likes (tiktoken's README extends ``cl100k_base`` so).

>>> from ferrochunk.tiktoken import get_encoding
>>> enc = get_encoding("cl100k_base")
>>> enc.encode("hello world"), enc.decode([15339, 1917])
([15339, 1917], 'hello world')
>>> enc.encode("<|endoftext|>", allowed_special="all")
[100257]
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, AbstractSet, Any, Literal, Union

from .. import _native
from ..frontend.tokens import resolve_special
from ..tokens.bundled import ENCODING_NAMES
from ..tokens.tokenizer import clean_text
from . import native

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

Allowed = Union[Literal["all"], AbstractSet[str]]
Disallowed = Union[Literal["all"], Collection[str]]
_NONE: frozenset[str] = frozenset()
# The bundled encodings made so far, by name: one object each, as tiktoken's registry.
ENCODINGS: dict[str, Encoding] = {}
_lock = threading.RLock()


class Encoding:
    """tiktoken's ``Encoding``. Built from a pattern and ranks, these must equal one of the
    bundled encodings' (``ValueError`` says so otherwise); ``special_tokens`` may be any."""

    def __init__(
        self,
        name: str,
        *,
        pat_str: str,
        mergeable_ranks: dict[bytes, int],
        special_tokens: dict[str, int],
        explicit_n_vocab: int | None = None,
    ) -> None:
        self.name = name
        self._pat_str = pat_str
        self._mergeable_ranks = mergeable_ranks
        self._special_tokens = special_tokens
        self.max_token_value = max(
            max(mergeable_ranks.values()), max(special_tokens.values(), default=0)
        )
        if explicit_n_vocab:
            assert len(mergeable_ranks) + len(special_tokens) == explicit_n_vocab
            assert self.max_token_value == explicit_n_vocab - 1
        self._setup(native.bundled_encoder(name, pat_str, mergeable_ranks))

    @classmethod
    def _bundled(cls, name: str) -> Encoding:
        """A bundled encoding, its ranks read from the binary only if asked for."""
        enc = cls.__new__(cls)
        encoder = _native.Encoder(name)
        enc.name = name
        enc._pat_str = encoder.pattern
        enc._special_tokens = encoder.special_tokens()
        enc.max_token_value = max(_native.max_rank(encoder), *enc._special_tokens.values())
        enc._setup(encoder)
        return enc

    def _setup(self, encoder: _native.Encoder) -> None:
        self._native = encoder
        self._special_token_values = set(self._special_tokens.values())
        self._counters: dict[Any, _native.TokenCounter] = {}
        ours = {(text.encode(), i) for text, i in self._special_tokens.items()}
        theirs = {(text.encode(), i) for text, i in encoder.special_tokens().items()}
        # Ids whose bytes the native decoder does not give as this encoding does.
        self._odd_ids = {i for _, i in ours ^ theirs}
        self._special_bytes = {i: text for text, i in ours}

    @functools.cached_property
    def _mergeable_ranks(self) -> dict[bytes, int]:
        return self._native.mergeable_ranks()

    def __repr__(self) -> str:
        return f"<Encoding {self.name!r}>"

    # ====================
    # Encoding
    # ====================

    def encode_ordinary(self, text: str) -> list[int]:
        """Tokens of ``text``, special-token text encoded as ordinary text."""
        try:
            return self._native.encode_ordinary(text)
        except UnicodeEncodeError:  # lone surrogates: U+FFFD, as tiktoken
            return self._native.encode_ordinary(clean_text(text))

    def encode(
        self,
        text: str,
        *,
        allowed_special: Allowed = set(),  # noqa: B006 - tiktoken's signature
        disallowed_special: Disallowed = "all",
    ) -> list[int]:
        """Tokens of ``text``; ``ValueError`` on text of a disallowed special token (every
        special token by default), allowed special tokens encoded as their ids."""
        counter = self._counter(allowed_special, disallowed_special)
        try:
            return counter.encode(text)
        except UnicodeEncodeError:
            return counter.encode(clean_text(text))

    def encode_to_numpy(
        self,
        text: str,
        *,
        allowed_special: Allowed = set(),  # noqa: B006
        disallowed_special: Disallowed = "all",
    ) -> npt.NDArray[np.uint32]:
        """:meth:`encode` as a numpy ``uint32`` array."""
        import numpy as np

        ids = self.encode(
            text, allowed_special=allowed_special, disallowed_special=disallowed_special
        )
        return np.array(ids, dtype=np.uint32)

    def encode_ordinary_batch(
        self, text: Sequence[str], *, num_threads: int = 8
    ) -> list[list[int]]:
        """:meth:`encode_ordinary` of each text, on up to ``num_threads`` threads in Rust."""
        return self._batch(self._counter(_NONE, _NONE), text, num_threads)

    def encode_batch(
        self,
        text: Sequence[str],
        *,
        num_threads: int = 8,
        allowed_special: Allowed = set(),  # noqa: B006
        disallowed_special: Disallowed = "all",
    ) -> list[list[int]]:
        """:meth:`encode` of each text, on up to ``num_threads`` threads in Rust with the GIL
        released (tiktoken's thread pool holds it to build each list)."""
        counter = self._counter(allowed_special, disallowed_special)
        return self._batch(counter, text, num_threads)

    def _batch(self, counter: Any, text: Sequence[str], num_threads: int) -> list[list[int]]:
        if num_threads <= 0:
            raise ValueError("max_workers must be greater than 0")  # ThreadPoolExecutor's
        texts = list(text)
        threads = min(num_threads, _native.resolve_threads(None))
        try:
            return _native.encode_batch(counter, texts, threads)
        except UnicodeEncodeError:
            return _native.encode_batch(counter, [clean_text(t) for t in texts], threads)

    def encode_with_unstable(
        self,
        text: str,
        *,
        allowed_special: Allowed = set(),  # noqa: B006
        disallowed_special: Disallowed = "all",
    ) -> tuple[list[int], list[list[int]]]:
        """Tokens of a prefix of ``text`` that more text cannot change, and every token
        sequence the rest may become (tiktoken's, the completions sorted: tiktoken gives
        them in hash-set order)."""
        counter = self._counter(allowed_special, disallowed_special)
        return _native.encode_with_unstable(counter, text)

    def encode_single_token(self, text_or_bytes: str | bytes) -> int:
        """The id of the one token ``text_or_bytes`` is, special tokens included
        (``KeyError`` otherwise)."""
        if isinstance(text_or_bytes, str):
            text_or_bytes = text_or_bytes.encode("utf-8")
        rank = _native.token_rank(self._native, text_or_bytes)
        if rank is not None:
            return rank
        try:
            return self._special_tokens[text_or_bytes.decode("utf-8")]
        except (UnicodeDecodeError, KeyError):
            raise KeyError(text_or_bytes) from None

    # ====================
    # Decoding
    # ====================

    def decode_bytes(self, tokens: Sequence[int]) -> bytes:
        """The bytes of ``tokens`` (``KeyError`` for an id outside the vocabulary)."""
        if self._odd_ids and not self._odd_ids.isdisjoint(tokens):
            try:
                return b"".join(self.decode_tokens_bytes(tokens))
            except KeyError as err:
                raise KeyError(f"Invalid token for decoding: {err.args[0]}") from None
        return self._native.decode_bytes(tokens)

    def decode(self, tokens: Sequence[int], errors: str = "replace") -> str:
        """The text of ``tokens``, bytes that are no UTF-8 decoded with ``errors``."""
        return self.decode_bytes(tokens).decode("utf-8", errors=errors)

    def decode_single_token_bytes(self, token: int) -> bytes:
        """The bytes of one token, special tokens included (``KeyError`` otherwise)."""
        found = self._special_bytes.get(token)
        if found is None:
            found = _native.mergeable_bytes(self._native, token)
        if found is None:
            raise KeyError(str(token))
        return found

    def decode_tokens_bytes(self, tokens: Sequence[int]) -> list[bytes]:
        """The bytes of each token."""
        if self._odd_ids and not self._odd_ids.isdisjoint(tokens):
            return [self.decode_single_token_bytes(token) for token in tokens]
        try:
            return _native.decode_tokens_bytes(self._native, tokens)
        except KeyError as err:  # tiktoken names the id alone
            raise KeyError(str(err.args[0]).rsplit(" ", 1)[-1]) from None

    def decode_with_offsets(self, tokens: Sequence[int]) -> tuple[str, list[int]]:
        """The text and the index of the character each token starts in (a token starting
        with a continuation byte starts in the character before); raises on bytes that are
        no UTF-8, as tiktoken does."""
        token_bytes = self.decode_tokens_bytes(tokens)
        text_len = 0
        offsets = []
        for token in token_bytes:
            offsets.append(max(0, text_len - (0x80 <= token[0] < 0xC0)))
            text_len += sum(1 for c in token if not 0x80 <= c < 0xC0)
        text = b"".join(token_bytes).decode("utf-8", errors="strict")
        return text, offsets

    def decode_batch(
        self, batch: Sequence[Sequence[int]], *, errors: str = "replace", num_threads: int = 8
    ) -> list[str]:
        """:meth:`decode` of each list of tokens."""
        _check_threads(num_threads)
        return [self.decode(tokens, errors=errors) for tokens in batch]

    def decode_bytes_batch(
        self, batch: Sequence[Sequence[int]], *, num_threads: int = 8
    ) -> list[bytes]:
        """:meth:`decode_bytes` of each list of tokens."""
        _check_threads(num_threads)
        return [self.decode_bytes(tokens) for tokens in batch]

    # ====================
    # Miscellaneous
    # ====================

    def token_byte_values(self) -> list[bytes]:
        """Every mergeable token's bytes, sorted."""
        return sorted(self._mergeable_ranks)

    @property
    def eot_token(self) -> int:
        """The id of ``<|endoftext|>``."""
        return self._special_tokens["<|endoftext|>"]

    @functools.cached_property
    def special_tokens_set(self) -> set[str]:
        """The texts of the special tokens."""
        return set(self._special_tokens.keys())

    def is_special_token(self, token: int) -> bool:
        """Whether ``token`` is a special token's id."""
        assert isinstance(token, int)
        return token in self._special_token_values

    @property
    def n_vocab(self) -> int:
        """``max_token_value + 1``."""
        return self.max_token_value + 1

    # ====================
    # Private (as tiktoken's, which some callers use)
    # ====================

    def _encode_single_piece(self, text_or_bytes: str | bytes) -> list[int]:
        """BPE of the whole text as one piece: no pre-tokenizer, no special tokens."""
        if isinstance(text_or_bytes, str):
            text_or_bytes = text_or_bytes.encode("utf-8")
        return _native.encode_single_piece(self._native, text_or_bytes)

    def _encode_only_native_bpe(self, text: str) -> list[int]:
        """Pieces cut by the ``regex`` package on the pattern, each merged in Rust."""
        import regex  # type: ignore[import-untyped]  # tiktoken depends on it

        ret = []
        for piece in regex.findall(regex.compile(self._pat_str), text):
            ret.extend(self._encode_single_piece(piece))
        return ret

    def _encode_bytes(self, text: bytes) -> list[int]:
        """tiktoken's encoding of bytes that need not be UTF-8."""
        return _native.encode_bytes(self._native, text)

    def _counter(self, allowed_special: Any, disallowed_special: Any) -> _native.TokenCounter:
        """The native counter of a special-token policy, kept per policy."""
        try:
            key = _policy_key(allowed_special, disallowed_special)
        except TypeError:  # not a policy tiktoken takes: resolved (and refused) each time
            made: _native.TokenCounter = self._make_counter(allowed_special, disallowed_special)
            return made
        counter = self._counters.get(key)
        if counter is None:
            if len(self._counters) >= 64:
                self._counters.clear()
            counter = self._counters[key] = self._make_counter(*key)
        return counter

    def _make_counter(self, allowed_special: Any, disallowed_special: Any) -> Any:
        specials = self._special_tokens
        allowed, disallowed = resolve_special(specials, allowed_special, disallowed_special)
        pairs = [(s, specials[s]) for s in allowed if s in specials]
        return _native.special_counter(self._native, pairs, disallowed)

    def __getstate__(self) -> object:
        if self is ENCODINGS.get(self.name):  # registered ones by name, as tiktoken
            return self.name
        return {
            "name": self.name,
            "pat_str": self._pat_str,
            "mergeable_ranks": self._mergeable_ranks,
            "special_tokens": self._special_tokens,
        }

    def __setstate__(self, value: object) -> None:
        if isinstance(value, str):
            self.__dict__ = registered(value).__dict__
            return
        assert isinstance(value, dict)
        self.__init__(**value)  # type: ignore[misc]


def registered(name: str) -> Encoding:
    """The bundled encoding ``name``, made on first use (``KeyError`` if there is none)."""
    enc = ENCODINGS.get(name)
    if enc is None:
        with _lock:
            if name not in ENCODINGS:
                if name not in ENCODING_NAMES:
                    raise KeyError(name)
                ENCODINGS[name] = Encoding._bundled(name)
            enc = ENCODINGS[name]
    return enc


def _policy_key(allowed_special: Any, disallowed_special: Any) -> Any:
    """A hashable key for a policy that :func:`resolve_special` reads the same way for every
    argument with that key; ``TypeError`` for anything else."""
    if isinstance(allowed_special, str) and allowed_special == "all":
        allowed: Any = "all"
    elif isinstance(allowed_special, (set, frozenset)):
        allowed = frozenset(allowed_special)
    else:
        raise TypeError("allowed_special is neither 'all' nor a set")
    if isinstance(disallowed_special, str):
        if disallowed_special != "all":
            raise TypeError("disallowed_special is a str other than 'all'")
        return allowed, "all"
    return allowed, frozenset(disallowed_special) if disallowed_special else _NONE


def _check_threads(num_threads: int) -> None:
    if num_threads <= 0:
        raise ValueError("max_workers must be greater than 0")
