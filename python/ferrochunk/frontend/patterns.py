"""Separator patterns for the Rust core (mirrors ``rust/split/scan.rs``).

The core scans with the ``regex`` crate. Python's ``re`` has other syntax (a bare ``{`` is a
literal, ``$`` also matches before a final newline) and other character classes (``\\s``
includes U+001C..U+001F, ``\\w`` excludes combining marks). So a Python pattern is parsed
with ``re``'s own parser and re-emitted in the syntax both engines share, with ``\\d``,
``\\s`` and ``\\w`` expanded to the exact code points Python's engine matches. Anything
outside that subset (look-around, back-references, ``$``, ``\\b``, flags, capture groups,
patterns that can match the empty string) is not translated: callers then keep the whole
split on Python's engine, so the answer is never different, only slower.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:  # typeshed has these modules under their pre-3.11 names only
    import sre_constants as C
    import sre_parse as P
elif sys.version_info >= (3, 11):
    from re import _constants as C
    from re import _parser as P
else:  # pragma: no cover - exercised on older Pythons only
    import sre_constants as C
    import sre_parse as P

_ALLOWED_FLAGS = C.SRE_FLAG_UNICODE | C.SRE_FLAG_VERBOSE | C.SRE_FLAG_DOTALL
_MAX_CODE_POINT = 0x10FFFF
_SURROGATES = (0xD800, 0xDFFF)


class _Untranslatable(Exception):
    """The pattern uses syntax outside the subset both engines agree on."""


def to_rust(pattern: str) -> Optional[str]:
    """The pattern in the Rust ``regex`` crate's syntax with Python's exact semantics, or
    ``None`` when it cannot be expressed there (the caller then uses Python's ``re``)."""
    try:
        tree = P.parse(pattern)
    except (re.error, ValueError, OverflowError):  # e.g. clashing flags, a huge repeat
        return None  # Python's `re` raises it where (and if) LangChain compiles the pattern
    flags = tree.state.flags
    if flags & ~_ALLOWED_FLAGS or tree.state.groups > 1 or tree.getwidth()[0] == 0:
        return None
    try:
        return _emit(tree.data, dotall=bool(flags & C.SRE_FLAG_DOTALL))
    except _Untranslatable:
        return None


# A parsed item is ``(op, av)``: ``av``'s type depends on the opcode (``re._parser``).
def _emit(items: Iterable[tuple[Any, Any]], dotall: bool) -> str:
    return "".join(_emit_item(op, av, dotall) for op, av in items)


def _emit_item(op: object, av: Any, dotall: bool) -> str:
    if op is C.LITERAL:
        return _char(av)
    if op is C.NOT_LITERAL:
        return f"[^{_char(av)}]"
    if op is C.ANY:
        return r"[\x{0}-\x{10FFFF}]" if dotall else r"[^\n]"
    if op is C.IN:
        return _class(av)
    if op is C.CATEGORY:
        return _class([(C.CATEGORY, av)])
    if op is C.BRANCH:
        return "(?:" + "|".join(_emit(branch, dotall) for branch in av[1]) + ")"
    if op is C.SUBPATTERN:
        group, add_flags, del_flags, sub = av
        if group is not None or add_flags or del_flags:
            raise _Untranslatable
        return "(?:" + _emit(sub, dotall) + ")"
    if op in (C.MAX_REPEAT, C.MIN_REPEAT):
        lo, hi, sub = av
        bound = f"{{{lo},}}" if hi is C.MAXREPEAT else f"{{{lo},{hi}}}"
        lazy = "?" if op is C.MIN_REPEAT else ""
        return f"(?:{_emit(sub, dotall)}){bound}{lazy}"
    if op is C.AT and av in (C.AT_BEGINNING, C.AT_BEGINNING_STRING):
        return r"\A"
    if op is C.AT and av is C.AT_END_STRING:
        return r"\z"
    raise _Untranslatable  # look-around, back-references, $, \b, possessive, atomic ...


def _char(code: int) -> str:
    ch = chr(code)
    return ch if ch.isascii() and ch.isalnum() else f"\\x{{{code:X}}}"


def _class(items: Iterable[tuple[Any, Any]]) -> str:
    negate = False
    ranges: list[tuple[int, int]] = []
    for op, av in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            ranges.append((av, av))
        elif op is C.RANGE:
            ranges.append(av)
        elif op is C.CATEGORY:
            ranges.extend(_category(av))
        else:
            raise _Untranslatable
    ranges = [r for r in ranges if not (_SURROGATES[0] <= r[0] and r[1] <= _SURROGATES[1])]
    if not ranges:
        raise _Untranslatable  # e.g. a class of only surrogates: leave it to Python
    body = "".join(_char(a) if a == b else f"{_char(a)}-{_char(b)}" for a, b in ranges)
    return f"[{'^' if negate else ''}{body}]"


_CATEGORY_PATTERNS = {
    C.CATEGORY_DIGIT: r"\d",
    C.CATEGORY_NOT_DIGIT: r"\D",
    C.CATEGORY_SPACE: r"\s",
    C.CATEGORY_NOT_SPACE: r"\S",
    C.CATEGORY_WORD: r"\w",
    C.CATEGORY_NOT_WORD: r"\W",
}


@functools.cache
def _category(category: object) -> tuple[tuple[int, int], ...]:
    """The code-point ranges Python's own engine matches for ``\\d``, ``\\s``, ``\\w`` and
    their negations (so the Unicode version is Python's, not Rust's)."""
    if category not in _CATEGORY_PATTERNS:
        raise _Untranslatable
    every = "".join(map(chr, range(_SURROGATES[0]))) + "".join(
        map(chr, range(_SURROGATES[1] + 1, _MAX_CODE_POINT + 1))
    )
    ranges = []
    for m in re.finditer(_CATEGORY_PATTERNS[category] + "+", every):
        a, b = ord(m.group()[0]), ord(m.group()[-1])
        ranges.append((a, b))
    return tuple(ranges)


def min_width(pattern: str) -> int:
    """The least number of characters a match of ``pattern`` spans (0: it can match empty)."""
    return int(P.parse(pattern).getwidth()[0])
