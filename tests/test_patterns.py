"""The Python regex -> Rust regex translator (``frontend/patterns.py``) and the private parser
it reads (``re._parser`` and ``re._constants``; ``sre_parse`` and ``sre_constants`` before
Python 3.11). Their shapes are not a public API and may change in any Python release: these
tests fail loudly, saying what changed, on a Python whose parse trees the translator would
misread. Then the translation is checked against Python's ``re`` itself: the Rust regex
finds the same matches on sample texts."""

from __future__ import annotations

import re
import sys
from typing import Any

import pytest

from ferrochunk import _native
from ferrochunk.frontend.patterns import C, P, to_rust

PYTHON = sys.version.split()[0]

# Every name of the constants module the translator reads.
NAMES = [
    *["LITERAL", "NOT_LITERAL", "ANY", "IN", "CATEGORY", "BRANCH", "SUBPATTERN", "AT"],
    *["MAX_REPEAT", "MIN_REPEAT", "MAXREPEAT", "NEGATE", "RANGE"],
    *["AT_BEGINNING", "AT_BEGINNING_STRING", "AT_END_STRING"],
    *["CATEGORY_DIGIT", "CATEGORY_NOT_DIGIT", "CATEGORY_SPACE", "CATEGORY_NOT_SPACE"],
    *["CATEGORY_WORD", "CATEGORY_NOT_WORD"],
]
FLAGS = ["SRE_FLAG_UNICODE", "SRE_FLAG_VERBOSE", "SRE_FLAG_DOTALL", "SRE_FLAG_IGNORECASE"]
INF = "MAXREPEAT"  # an unbounded repeat's upper bound

# Pattern -> the parse tree the translator expects, with constants by name and sub-patterns
# as lists; then the state's flags (by name), its group count and getwidth()'s minimum (the
# translator refuses patterns that can match the empty string by it).
SHAPES: list[tuple[str, list, set[str], int, int]] = [
    ("a", [("LITERAL", 97)], set(), 1, 1),
    ("[^a]", [("NOT_LITERAL", 97)], set(), 1, 1),
    (".", [("ANY", None)], set(), 1, 1),
    ("(?s).", [("ANY", None)], {"SRE_FLAG_DOTALL"}, 1, 1),
    ("(?x) a", [("LITERAL", 97)], {"SRE_FLAG_VERBOSE"}, 1, 1),
    (r"[a-c\d]", [("IN", [("RANGE", (97, 99)), ("CATEGORY", "CATEGORY_DIGIT")])], set(), 1, 1),
    ("[^ab]", [("IN", [("NEGATE", None), ("LITERAL", 97), ("LITERAL", 98)])], set(), 1, 1),
    (r"\s", [("IN", [("CATEGORY", "CATEGORY_SPACE")])], set(), 1, 1),
    (r"\W", [("IN", [("CATEGORY", "CATEGORY_NOT_WORD")])], set(), 1, 1),
    (
        "ab|cd",
        [
            (
                "BRANCH",
                (None, [[("LITERAL", 97), ("LITERAL", 98)], [("LITERAL", 99), ("LITERAL", 100)]]),
            )
        ],
        set(),
        1,
        2,
    ),
    ("(?i:a)", [("SUBPATTERN", (None, 2, 0, [("LITERAL", 97)]))], set(), 1, 1),
    ("(a)", [("SUBPATTERN", (1, 0, 0, [("LITERAL", 97)]))], set(), 2, 1),
    ("a{2,3}", [("MAX_REPEAT", (2, 3, [("LITERAL", 97)]))], set(), 1, 2),
    ("a+", [("MAX_REPEAT", (1, INF, [("LITERAL", 97)]))], set(), 1, 1),
    ("a*?", [("MIN_REPEAT", (0, INF, [("LITERAL", 97)]))], set(), 1, 0),
    (r"\A", [("AT", "AT_BEGINNING_STRING")], set(), 1, 0),
    ("^", [("AT", "AT_BEGINNING")], set(), 1, 0),
    (r"\Z", [("AT", "AT_END_STRING")], set(), 1, 0),
]
IGNORECASE = 2  # the (?i:...) add_flags above: SRE_FLAG_IGNORECASE


def plain(value: Any) -> Any:
    """A parse tree with constants as their names and sub-patterns as lists, comparable with
    the literals above (the parser's own objects do not compare by value)."""
    if isinstance(value, P.SubPattern):
        return [plain(item) for item in value]
    if type(value) is type(C.LITERAL):  # the constants module's named ints
        return value.name
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    return value


def constants(value: Any) -> list[Any]:
    """Every named constant in a parse tree (the translator compares them with ``is``)."""
    if isinstance(value, P.SubPattern):
        value = list(value)
    if type(value) is type(C.LITERAL):
        return [value]
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in constants(v)]
    return []


def changed(what: str) -> str:
    return (
        f"{P.__name__} on Python {PYTHON}: {what}. ferrochunk.frontend.patterns (to_rust) reads "
        "this private structure; adapt it to the new shape before trusting its translations"
    )


def test_the_translator_reads_these_modules() -> None:
    expected = ("re._parser", "re._constants") if sys.version_info >= (3, 11) else None
    assert expected is None or (P.__name__, C.__name__) == expected
    missing = [f"{C.__name__}.{n}" for n in [*NAMES, *FLAGS] if not hasattr(C, n)]
    missing += [f"{P.__name__}.{n}" for n in ("SubPattern", "parse") if not hasattr(P, n)]
    assert not missing, changed(f"{missing} no longer exist")
    named = type(C.LITERAL)
    odd = [n for n in NAMES if type(getattr(C, n)) is not named or getattr(C, n).name != n]
    assert not odd, changed(f"{odd} are no longer named constants that know their names")
    assert C.SRE_FLAG_IGNORECASE == IGNORECASE, changed("the IGNORECASE flag has a new value")


@pytest.mark.parametrize(
    ("pattern", "tree", "flags", "groups", "width"), SHAPES, ids=[s[0] for s in SHAPES]
)
def test_parse_tree_shape(pattern: str, tree: list, flags: set, groups: int, width: int) -> None:
    parsed = P.parse(pattern)
    got = plain(parsed)
    assert got == tree, changed(f"parse({pattern!r}) is {got!r}, was {tree!r}")
    for const in constants(parsed):
        assert const is getattr(C, const.name), changed(f"{const} is not the module's own object")
    set_flags = {f for f in FLAGS if parsed.state.flags & getattr(C, f)}
    assert set_flags == {"SRE_FLAG_UNICODE", *flags}, changed(
        f"parse({pattern!r}).state.flags sets {sorted(set_flags)}"
    )
    assert parsed.state.groups == groups, changed(f"state.groups of {pattern!r} is not {groups}")
    lo, hi = parsed.getwidth()
    assert lo == width and hi >= lo, changed(
        f"getwidth() of {pattern!r} is {(lo, hi)}, its minimum was {width}"
    )


# -- the translation, checked against Python's re -------------------------------------------

# One pattern or more per construct the translator emits.
TRANSLATED = [
    *["a", "é", "😀", "e\u0301", "[^a]", ".", "(?s).", "(?x) a b", r"\.", "[.]"],
    *[r"[a-c\d]", "[^ab]", r"[^\w\s]", r"[\s\S]", "[\u3000-\u303f]", "[😀-🙏]", "x|é"],
    *[r"\d", r"\D", r"\s", r"\S", r"\w", r"\W", r"\d+", r"\s+", r"\w+"],
    *["ab|cd", "(?:a|bc)", "(?:ab|cd)e", "(?:ab)+", "a{2,3}", "a{2,}", "a+", "a+?", "a{1,2}?"],
    *[r"\Aab", "^ab", r"b\Z", r"\A\n", r"\n\Z", r"[.!?]+[\"')\]]*[ \t\n]+", "#{1,6} "],
]
# Outside the shared subset (or matching the empty string): to_rust refuses them.
REFUSED = [
    *[r"(?=a)", r"(?<=a)b", r"(?!a)b", "a$", r"\bthe", "(a)", r"(\w)\1", "(?P<n>a)"],
    *["(?i)a", "(?m)^a", "(?i:a)", "a*", "a|", "a++", "(?>a+)", "[\ud800-\udfff]", "(?:)"],
]
SAMPLES = [
    "The quick brown fox. Jumps over 12 lazy dogs!\n\nab aab abab abcd cde bce a\u3000b",
    "漢字テキスト。\uff41\uff42\uff43 😀🙏 e\u0301 é x1c\x1c\x1d\x85\xa0\u2028",
    " End\r\n# h\n###### six ",
    'digits ² ٣ \uff17 Ⅻ _ \u0301 word_1 "quoted!" (paren.) [x] end?\n',
    "aaaaab\nb\n",
    "ab cd\n",
    "\nab\n\n",
]


def native_cuts(rust: str, pattern: str, text: str) -> tuple[list[int], list[int]]:
    """Where Rust's regex crate finds matches of ``rust``: the starts and the ends (plus the
    text's ends), read off the core splitter cutting ``text`` at every match."""
    cuts = []
    for keep in ("start", "end"):
        splitter = _native.Splitter(1, 0, [(rust, True, pattern)], keep, False, False)
        chunks, _ = splitter.split(text, {}, None)
        cuts.append(sorted({c.start if keep == "start" else c.end for c in chunks}))
    return cuts[0], cuts[1]


@pytest.mark.parametrize("pattern", TRANSLATED)
def test_translation_matches_where_python_matches(pattern: str) -> None:
    rust = to_rust(pattern)
    assert rust is not None, f"{pattern!r} is no longer translated (Python {PYTHON})"
    for text in SAMPLES:
        found = list(re.finditer(pattern, text))
        starts = sorted({0} | {m.start() for m in found})
        ends = sorted({len(text)} | {m.end() for m in found})
        assert native_cuts(rust, pattern, text) == (starts, ends), (pattern, rust, text)
    assert any(re.search(pattern, text) for text in SAMPLES), "no sample exercises it"


@pytest.mark.parametrize("pattern", REFUSED)
def test_untranslatable_patterns_are_refused(pattern: str) -> None:
    assert to_rust(pattern) is None
