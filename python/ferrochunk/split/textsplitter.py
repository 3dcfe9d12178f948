"""The LangChain drop-in splitters on the Rust engine.

The shared classes of :mod:`ferrochunk.frontend.textsplitter` (arguments, validation,
documents, warnings) with the Rust engine and Rust token counts. Settings the Rust engine
cannot reproduce exactly (regex syntax outside the shared subset, non-integer sizes or
lengths, text with lone surrogates) run on the pure-Python engine instead, so the output is
always LangChain's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any, Callable, Optional

from .. import _native
from ..frontend import textsplitter as front
from ..frontend.batch import drain
from ..frontend.patterns import to_rust
from ..frontend.textsplitter import SeparatorSpec, keep_mode
from ..frontend.tokens import AllowedSpecial
from ..reference.split.textsplitter import make_engine as reference_engine
from ..reference.split.textsplitter import make_hooked_engine
from ..tokens.huggingface import tokenize_counter
from ..tokens.tokenizer import encoding_for_model, get_encoding
from .splitter import is_native_length

__all__ = [
    "CharacterTextSplitter",
    "RecursiveCharacterTextSplitter",
    "TextSplitter",
    "TokenTextSplitter",
]


def native_specs(specs: list[SeparatorSpec]) -> list[tuple[str, bool, str]] | None:
    """Separators in the core's syntax, or ``None`` if one needs Python's ``re``."""
    out = []
    for text, is_regex, join in specs:
        if not isinstance(text, str) or not isinstance(join, str):
            return None  # e.g. bytes: Python's re raises LangChain's exact TypeError
        if is_regex and text:
            rust = to_rust(text)
            if rust is None:
                return None
            out.append((rust, True, join))
        else:
            out.append((text, False, join))
    return out


def make_native_engine(splitter: front.TextSplitter, specs: list[SeparatorSpec], recursive: bool):
    """The Rust engine for a drop-in splitter's settings, or the reference engine."""
    fallback = reference_engine(splitter, specs, recursive)
    sizes = (splitter._chunk_size, splitter._chunk_overlap)
    converted = native_specs(specs)
    if converted is None or not all(type(v) is int for v in sizes):
        return fallback
    keep = keep_mode(splitter._keep_separator) or "drop"
    if keep != "drop" and not all(_wraps(text) for text, is_regex, _ in specs if is_regex):
        return fallback  # LangChain's re.split would raise on the wrapped pattern: so must we
    try:
        native = _native.Splitter(
            *sizes, converted, keep, bool(splitter._strip_whitespace), recursive
        )
    except (ValueError, OverflowError):  # a pattern over the regex crate's size limit, or
        return fallback  # sizes beyond i64
    # Checks the text's type, counts `len` natively and hands inputs it cannot reproduce
    # exactly (lone surrogates, lengths that are no counts) to the fallback, in Rust: a
    # Python method here cost a few per cent of a typical document's split.
    return _native.TextEngine(native, fallback)


def _wraps(pattern: str) -> bool:
    """Whether ``(pattern)`` compiles: LangChain wraps separators it keeps in a group, and
    e.g. ``(?s).`` is valid alone but not inside one."""
    try:
        re.compile(f"({pattern})")
    except re.error:
        return False
    return True


class TextSplitter(front.TextSplitter):
    """Interface for splitting text into chunks (``langchain_text_splitters.TextSplitter``).

    ``create_documents``, ``split_documents`` and ``transform_documents`` split many texts
    in parallel (threads: ``FERROCHUNK_NUM_THREADS``, else ``RAYON_NUM_THREADS``, else the
    CPUs this process may use) with exactly LangChain's output; a ``length_function``
    written in Python (not a native token counter) keeps them one text at a time.
    """

    _make_engine = make_native_engine
    _make_hooked_engine = make_hooked_engine

    def _split_texts(self, texts: list[str]) -> Iterator[list[str]]:
        length = self._length_function
        native_length = None if length is len else length
        if (
            not isinstance(texts, (list, tuple))
            or len(texts) < 2
            or type(self).split_text not in _OWN_SPLIT_TEXT
            or not is_native_length(native_length)
        ):
            return super()._split_texts(texts)
        engine = self._engine(self._key())  # type: ignore[attr-defined]
        if not isinstance(engine, _native.TextEngine):
            return super()._split_texts(texts)
        results = _native.split_text_iter(
            engine.native, iter(texts), self._one_text, native_length, None
        )
        return drain(results, self._finish)

    def _one_text(self, text: Any) -> tuple[list[str], list[int]]:
        """The one-text path, for texts the native engine does not take; it logs its own
        warnings."""
        return self.split_text(text), []

    def _finish(self, result: tuple[list[str], list[int]]) -> list[str]:
        chunks, oversized = result
        self._warn(oversized)
        return chunks

    @staticmethod
    def _tiktoken_length_function(
        encoding_name: str = "gpt2",
        model_name: Optional[str] = None,
        allowed_special: Optional[AllowedSpecial] = None,
        disallowed_special: AllowedSpecial = "all",
    ) -> Callable[[str], int]:
        """Token counts in Rust: the native engine sizes pieces without calling Python."""
        tokenizer = _load_tokenizer(encoding_name, model_name)
        allowed = set() if allowed_special is None else allowed_special
        try:
            return tokenizer.length_function(allowed, disallowed_special)
        except TypeError:  # a policy tiktoken refuses: LangChain's raises when it counts
            return functools.partial(
                tokenizer.count, allowed_special=allowed, disallowed_special=disallowed_special
            )

    @staticmethod
    def _huggingface_length_function(tokenizer: Any) -> Callable[[str], int]:
        """Token counts in Rust for a ``transformers`` fast tokenizer whose ``tokenize()`` is
        its backend's own; any other tokenizer is called from Python, as LangChain does."""
        tokenize_length = front.huggingface_tokenize_length(tokenizer)
        counter = tokenize_counter(tokenizer, tokenize_length)
        return tokenize_length if counter is None else counter


class CharacterTextSplitter(TextSplitter, front.CharacterTextSplitter):
    """Drop-in for ``langchain_text_splitters.CharacterTextSplitter``, on the Rust engine.

    >>> from ferrochunk import CharacterTextSplitter
    >>> CharacterTextSplitter(separator=" ", chunk_size=7, chunk_overlap=0).split_text("a b c d e")
    ['a b c d', 'e']
    """


class RecursiveCharacterTextSplitter(TextSplitter, front.RecursiveCharacterTextSplitter):
    """Drop-in for ``langchain_text_splitters.RecursiveCharacterTextSplitter``, on Rust.

    >>> from ferrochunk import RecursiveCharacterTextSplitter
    >>> splitter = RecursiveCharacterTextSplitter(chunk_size=10, chunk_overlap=0)
    >>> splitter.split_text("Hello world. Bye.")
    ['Hello', 'world.', 'Bye.']
    """


# The split_text implementations the parallel path reproduces; a subclass that overrides
# split_text keeps its own, one text at a time.
_OWN_SPLIT_TEXT = (
    front.CharacterTextSplitter.split_text,
    front.RecursiveCharacterTextSplitter.split_text,
)


def _load_tokenizer(encoding_name: str, model_name: Optional[str]) -> Any:
    """ferrochunk's tokenizer for LangChain's ``encoding_name``/``model_name`` arguments."""
    if model_name is not None:
        return encoding_for_model(model_name)
    if not isinstance(encoding_name, str):  # tiktoken's error (a ValueError) for such a name
        msg = f"Expected a string in get_encoding, got {type(encoding_name)}"
        raise ValueError(msg)
    return get_encoding(encoding_name)


class TokenTextSplitter(TextSplitter, front.TokenTextSplitter):
    """Drop-in for ``langchain_text_splitters.TokenTextSplitter``: encodes and decodes in Rust.

    >>> from ferrochunk import TokenTextSplitter
    >>> TokenTextSplitter(chunk_size=2, chunk_overlap=0).split_text("one two three")
    ['one two', ' three']
    """

    _load_tokenizer = staticmethod(_load_tokenizer)

    def _split_texts(self, texts: list[str]) -> Iterator[list[str]]:
        size, overlap = self._chunk_size, self._chunk_overlap
        if (
            not isinstance(texts, (list, tuple))
            or len(texts) < 2
            or type(size) is not int
            or type(overlap) is not int
            or size <= overlap
            or type(self).split_text is not TokenTextSplitter.split_text
        ):
            return front.TextSplitter._split_texts(self, texts)
        tokenizer = self._tokenizer
        allowed, disallowed = tokenizer.special_policy(
            self._allowed_special, self._disallowed_special
        )
        try:
            results = _native.lossy_iter(
                tokenizer._native, iter(texts), size, overlap, allowed, disallowed, self.split_text
            )
        except OverflowError:  # sizes beyond the native integers: one text at a time
            return front.TextSplitter._split_texts(self, texts)
        return drain(results, list)

    def split_text(self, text: str) -> list[str]:
        """Windows of ``chunk_size`` token ids, decoded with U+FFFD for cut characters."""
        size, overlap = self._chunk_size, self._chunk_overlap
        if type(size) is not int or type(overlap) is not int or size <= overlap:
            return super().split_text(text)  # LangChain's errors, in LangChain's order
        try:
            return self._tokenizer.split_text_lossy(
                text,
                size,
                overlap,
                allowed_special=self._allowed_special,
                disallowed_special=self._disallowed_special,
            )
        except OverflowError:  # sizes beyond the native integers: windows cut in Python
            return super().split_text(text)
