"""Sentence spans on the Rust engine: ``ferrochunk.sentences``.

The sentences of a text cover it exactly: each keeps its closing quotes and the whitespace
after it, so they concatenate to the text. English rules handle abbreviations ("e.g.",
"Dr."), initials, decimals, URLs, e-mail addresses and ellipses; CJK end marks (。 …
and the full-width ! ? ;) need no space after them; a blank line always ends a sentence.
The rules are listed in ``docs/semantic.md``; the pure-Python reference
(:mod:`ferrochunk.reference.sentences`) gives the same spans and is the oracle of the tests.

>>> from ferrochunk.sentences import sentence_spans, split_sentences
>>> split_sentences("Dr. Smith paid $3.50, e.g. for tea. Then he left!")
['Dr. Smith paid $3.50, e.g. for tea. ', 'Then he left!']
>>> split_sentences("你好。世界")
['你好。', '世界']
>>> [(s.text, s.start, s.end, s.byte_start) for s in sentence_spans("Né. Oui.", strip=True)]
[('Né.', 0, 3, 0), ('Oui.', 4, 8, 5)]
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal, Optional

from .. import _native
from ..frontend.checks import check_text, metadata_dict

Chunk = _native.Chunk


def _surrogate_error(text: str, err: UnicodeEncodeError) -> ValueError:
    return ValueError(
        f"text has a lone surrogate {text[err.start]!r} at index {err.start}, which has "
        "no UTF-8 encoding; decode the input with errors='replace' or remove it"
    )


def sentence_ends(text: str, *, unit: Literal["char", "byte"] = "char") -> list[int]:
    """Where each sentence of ``text`` ends, in code points (``unit="char"``) or UTF-8 bytes
    (``unit="byte"``); the last is the end of the text, and an empty text has none.

    >>> sentence_ends("One. Two.")
    [5, 9]
    >>> sentence_ends("é. É.", unit="byte")
    [4, 7]
    """
    check_text(text)
    if unit not in ("char", "byte"):
        raise ValueError(f"unit must be 'char' or 'byte', got {unit!r}")
    try:
        return _native.sentence_ends(text, unit == "byte")
    except UnicodeEncodeError as err:
        raise _surrogate_error(text, err) from None


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` as strings; ``"".join(result) == text``.

    >>> split_sentences("It costs 3.14. See https://x.org/a.b now. Ok")
    ['It costs 3.14. ', 'See https://x.org/a.b now. ', 'Ok']
    """
    ends = sentence_ends(text)
    return [text[a:b] for a, b in zip([0, *ends], ends)]


def sentence_spans(
    text: str, *, strip: bool = False, metadata: Optional[Mapping[str, Any]] = None
) -> list[Chunk]:
    """The sentences of ``text`` as :class:`~ferrochunk.Chunk` objects with exact code-point
    and UTF-8 byte offsets (``text[c.start:c.end] == c.text``) and ``index`` in order.

    ``strip=True`` trims the whitespace around each sentence and drops those with nothing
    else (the spans then no longer touch; the text between them is whitespace only).
    """
    check_text(text)
    meta = MappingProxyType(metadata_dict(metadata)) if metadata else _NO_METADATA
    try:
        return _native.sentence_spans(text, bool(strip), meta)
    except UnicodeEncodeError as err:
        raise _surrogate_error(text, err) from None


_NO_METADATA: Mapping[str, Any] = MappingProxyType({})

__all__ = ["Chunk", "sentence_ends", "sentence_spans", "split_sentences"]
