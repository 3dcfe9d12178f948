"""Sentence spans in pure Python: the rules of ``rust/sentences/`` written out plainly.

The oracle of the differential tests (``tests/test_sentences.py``): same rules, same lists,
positions in code points. See ``docs/semantic.md`` for the rules in prose.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any, Optional

from ..frontend.chunks import to_chunks
from .chunk import Chunk

DOTS = frozenset(".\uff0e")  # . and the full-width one
ELLIPSES = frozenset("\u2026\u22ef")  # … ⋯
QUESTIONS = frozenset("?!\u203c\u2047\u2048\u2049")  # ? ! ‼ ⁇ ⁈ ⁉
CJK_MARKS = frozenset("\u3002\uff01\uff1f\uff1b\uff61")  # 。 full-width ! ? ; and ｡
MARKS = DOTS | ELLIPSES | QUESTIONS | CJK_MARKS
CLOSERS = frozenset(
    "\"')]}\u00bb\u203a\u2019\u201d\u300d\u300f\u3009\u300b\u3011\u3015\u3017\u3019\u301b"
    "\uff09\uff3d\uff5d\uff02\uff07"
)
OPENERS = frozenset(
    "\"'([{\u00ab\u2039\u2018\u201c\u00bf\u00a1\u300c\u300e\u3008\u300a\u3010\u3014"
    "\uff08\uff3b\uff5b"
)
# Continue a sentence after its end mark (UAX #29's common SContinue): , : ; en and em
# dashes, the ideographic comma, the full-width comma and colon, the half-width comma.
CONTINUATIONS = frozenset(",:;\u2013\u2014\u3001\uff0c\uff1a\uff64")
CJK_RANGES = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3130, 0x318F),  # Hangul compatibility Jamo
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # Han extension A
    (0x4E00, 0x9FFF),  # Han
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xF900, 0xFAFF),  # Han compatibility
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x20000, 0x3FFFF),  # Han extensions B and later
)
# Never the last word of a sentence: titles before names, Latin abbreviations.
TITLES = frozenset(
    "mr mrs ms mx dr prof st mt rev hon gen col capt lt sgt cmdr adm gov sen rep pres supt "
    "messrs mme mlle fr e.g i.e cf viz vs al a.k.a".split()
)
# Not the last word before a number: "Fig. 3", "No. 5", "Jan. 1".
NUMBERED = frozenset(
    "no nos nr fig figs eq eqs vol vols p pp ch chap sec sect art para ref refs approx ca op "
    "ed pt pts jan feb mar apr jun jul aug sep sept oct nov dec".split()
)


def is_cjk(c: str) -> bool:
    """Han, kana or Hangul (scripts that put no space between sentences)."""
    o = ord(c)
    return any(lo <= o <= hi for lo, hi in CJK_RANGES)


def is_lower(c: str) -> bool:
    """A lowercase letter below U+0530 (stable across Unicode versions)."""
    return c < "\u0530" and c.islower()


def is_upper(c: str) -> bool:
    """An uppercase letter below U+0530."""
    return c < "\u0530" and c.isupper()


def listed(words: frozenset[str], word: str) -> bool:
    """``word`` is in ``words``, ASCII case ignored (non-ASCII words never are)."""
    return word.isascii() and word.lower() in words


BULLETS = frozenset("-*+\u2022\u2023\u25e6\u25aa\u25cf")  # - * + • ‣ ◦ ▪ ●


def escape_at(text: str, i: int) -> tuple[int, bool]:
    """The escape ``\\n``, ``\\r`` or ``\\t`` at ``i`` (JSON stored as text): its length
    (0 if none) and whether it is a line break."""
    if text.startswith("\\", i) and i + 1 < len(text) and text[i + 1] in "nrt":
        return 2, text[i + 1] == "n"
    return 0, False


def space_at(text: str, i: int) -> tuple[int, bool]:
    """The whitespace character or escape at ``i``: length (0 if none), line break."""
    if text[i].isspace():
        return 1, text[i] == "\n"
    return escape_at(text, i)


def whitespace(text: str, i: int) -> tuple[int, int]:
    """End of the run of whitespace and escapes at ``i`` and the line breaks in it."""
    end, breaks = i, 0
    while end < len(text):
        n, line = space_at(text, end)
        if not n:
            break
        end += n
        breaks += line
    return end, breaks


def list_marker(text: str, at: int) -> bool:
    """A list item starts at ``at``: a bullet, or 1-3 digits and ``.``/``)``, then a space
    or tab."""
    i = at
    while i < len(text) and i - at < 3 and text[i] in "0123456789":
        i += 1
    if i == len(text):
        return False
    marker = text[i] in ".)" if i > at else text[i] in BULLETS
    return marker and i + 1 < len(text) and text[i + 1] in " \t"


def escaped(text: str, i: int) -> bool:
    """The characters ending at ``i`` are a whitespace escape (``\\n`` etc.)."""
    return i >= 2 and text[i - 1] in "nrt" and text[i - 2] == "\\"


def period_ends(text: str, dot: int, nxt: str) -> bool:
    """Whether the single period at ``dot``, then whitespace and ``nxt``, ends a sentence."""
    start = dot
    while start > 0 and not text[start - 1].isspace() and not escaped(text, start):
        start -= 1
    word = text[start:dot]
    while word and word[0] in OPENERS:
        word = word[1:]
    if not word:  # a period alone: tokenised text ends here, a spaced ellipsis does not
        return nxt not in MARKS
    if listed(TITLES, word) or (nxt in "0123456789" and listed(NUMBERED, word)):
        return False
    if len(word) == 1 and is_upper(word):
        return False
    return not (len(word) <= 3 and all(c in "0123456789" for c in word) and opens_line(text, start))


def opens_line(text: str, at: int) -> bool:
    """Only spaces (no line break) between the last ``\\n`` or its escape (or the start)
    and ``at``."""
    i = at
    while i > 0 and text[i - 1] != "\n" and text[i - 1].isspace():
        i -= 1
    return i == 0 or text[i - 1] == "\n" or (text[i - 1] == "n" and escaped(text, i))


def boundary_at_mark(text: str, i: int) -> tuple[Optional[int], int]:
    """The end-mark run at ``i``: ``(where the next sentence starts or None, resume at)``."""
    run = i
    while run < len(text) and text[run] in MARKS:
        run += 1
    single_dot = run - i == 1 and text[i] in DOTS
    cjk_mark = any(c in CJK_MARKS for c in text[i:run])
    strong = cjk_mark or (i > 0 and is_cjk(text[i - 1]))
    close = run
    while close < len(text):
        if text[close] in CLOSERS:
            close += 1
        elif text.startswith(('\\"', "\\'"), close):
            close += 2
        else:
            break
    if close == len(text):
        return None, close
    if not space_at(text, close)[0]:
        nxt = text[close]
        if nxt == "," and text.startswith(('"}', '"]'), run) and close > run + 1:
            end, _ = whitespace(text, close + 1)  # '."}, {': the string closes its object
            return (end if end < len(text) else None), end  # compact JSON too: '"},{"'
        latin = not cjk_mark and nxt.isascii() and nxt.isalnum()  # a file name: 版.pdf
        ends = (strong or is_cjk(nxt)) and nxt not in CONTINUATIONS and not latin
        return (close if ends else None), close
    end, breaks = whitespace(text, close)
    if end == len(text):
        return None, end
    after = text[end]
    first = end  # a lowercase letter after opening quotes and brackets continues too
    while first < len(text) and text[first] in OPENERS:
        first += 1
    lower = first < len(text) and is_lower(text[first])
    opens = not lower and after not in MARKS and after not in CONTINUATIONS
    ends = (
        (strong and after not in CONTINUATIONS)
        or breaks >= 2
        or (breaks == 1 and list_marker(text, end))
        or (opens and (not single_dot or period_ends(text, i, after)))
    )
    return (end if ends else None), end


def sentence_ends(text: str) -> list[int]:
    """Code-point offsets where the sentences of ``text`` end; the last is ``len(text)``."""
    ends: list[int] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\n" or (c == "\\" and escape_at(text, i)[1]):
            end, breaks = whitespace(text, i)
            if end < len(text) and (breaks >= 2 or list_marker(text, end)):
                ends.append(end)
            i = end
        elif c in MARKS:
            found, i = boundary_at_mark(text, i)
            if found is not None:
                ends.append(found)
        else:
            i += 1
    if text:
        ends.append(len(text))
    return ends


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` as strings; they concatenate to ``text``."""
    starts = [0, *sentence_ends(text)]
    return [text[a:b] for a, b in itertools.pairwise(starts)]


def sentence_spans(
    text: str, *, strip: bool = False, metadata: Optional[Mapping[str, Any]] = None
) -> list[Chunk]:
    """The sentences as chunks with exact offsets; ``strip`` trims whitespace around each
    and drops those with nothing else."""
    pieces = []
    start = 0
    for end in sentence_ends(text):
        a, b = start, end
        if strip:
            piece = text[a:b]
            a += len(piece) - len(piece.lstrip())
            b -= len(piece) - len(piece.rstrip())
        if a < b:
            pieces.append((text[a:b], a))
        start = end
    return to_chunks(text, pieces, metadata, make=Chunk)
