"""Helpers shared by the differential tests: input strategies and outcome capture.

An *outcome* is what a call did, in a form that compares across implementations: its value
(or the type and message of what it raised) plus the "Created a chunk of size …" warnings it
logged. A Rust panic reaching Python is never an acceptable outcome and fails at once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable

import langchain_text_splitters
import numpy as np
import pytest
from hypothesis import strategies as st

import ferrochunk
import ferrochunk.reference

LANGCHAIN_LOGGER = "langchain_text_splitters.base"


def assert_genuine_langchain() -> None:
    """The oracle must be LangChain's own classes (``langchain_plugin`` patches them; it must
    only ever be loaded in the LangChain-suite subprocess)."""
    for name in ("RecursiveCharacterTextSplitter", "CharacterTextSplitter", "TextSplitter"):
        module = getattr(langchain_text_splitters, name).__module__
        assert module.startswith("langchain_text_splitters."), f"{name} is from {module}"


assert_genuine_langchain()
DROP_INS = {
    "native": ferrochunk,
    "reference": ferrochunk.reference,
    "langchain": langchain_text_splitters,
}

# -- text ----------------------------------------------------------------------------------

WHITESPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u2029\u3000"
ATOMS = [
    *"abxyz",
    "word",
    "The",
    "quick",
    "fox.",
    "end!",
    "1234",
    "中文",
    "漢字テキスト",
    "。",
    "\uff0c",  # fullwidth comma
    "😀",
    "👩\u200d👩\u200d👧",
    "\U0001d518\U0001d52b\U0001d526",  # mathematical fraktur: astral letters
    "e\u0301",
    "\u0301",
    "क्ष",
    " ",
    "  ",
    "\t",
    "\n",
    "\n\n",
    "\n\n\n",
    "\r\n",
    "\r\n\r\n",
    "\r",
    "\u3000",
    "\xa0",
    "\x85",
    "\u2028",
    "\x1c",
    "\x1d",
    "\x1e",
    "\x1f",
    *".,#*()[]{}|$^\\?+",
    "## ",
    "- ",
    "SCE123",
    "def ",
    "\ndef ",
    "\nclass ",
    "\nfunction ",
    "End Sub",
]

whitespace_only = st.text(alphabet=WHITESPACE, max_size=30)
atom_text = st.lists(st.sampled_from(ATOMS) | st.text(max_size=4), max_size=80).map("".join)


@st.composite
def repeated_passages(draw: st.DrawFn) -> str:
    """A passage repeated several times: LangChain's ``start_index`` search gets these wrong."""
    passage = draw(atom_text)
    glue = draw(st.sampled_from(["", " ", "\n", "\n\n", "\r\n"]))
    return glue.join([passage] * draw(st.integers(2, 8)))


texts = st.one_of(
    st.just(""),
    whitespace_only,
    atom_text,
    atom_text,
    repeated_passages(),
    st.text(max_size=300),
)

# -- parameters ----------------------------------------------------------------------------


@st.composite
def sizes(draw: st.DrawFn) -> tuple[int, int]:
    """``(chunk_size, chunk_overlap)`` with ``0 <= overlap <= size``; small sizes favoured."""
    size = draw(st.integers(1, 40) | st.integers(1, 2000))
    overlap = draw(st.integers(0, size) | st.integers(0, min(size, 5)))
    return size, overlap


KEEP_MODES = [True, False, "start", "end"]
# Values LangChain reads by truthiness (and == "end"): the drop-ins must read them alike.
ODD_KEEP_MODES = [None, "", 0, 1, "START", "End", "other"]
keep_modes = st.sampled_from(KEEP_MODES) | st.sampled_from(ODD_KEEP_MODES)

LITERAL_SEPARATORS = [
    *["\n\n", "\n", " ", "", ".", ",", "。", "\uff0c", "😀", "\r\n", "ab", "a", "e\u0301"],
    *["\u0301", "\x1c", "*", "(", "[", "$", "\\", "|", "..", "  ", "\t", "\u3000", "SCE"],
    *["\\n", "\\s+", ".*"],
]
# Patterns the translator can hand to the Rust regex crate.
RUST_REGEXES = [
    *[r"\n\n", r"\n", " ", "", r"\s+", r"\s", r"\S+", r"[.!?]\s", r"\.", "#{1,6} "],
    *[r"\d+", r"\w+", r"\W", "[a-z]+", "(?:ab)+", "[\u3000-\u303f]", r"\r?\n", "a|b"],
    *[r"[^\w\s]", ".{3}", "(?s).", r"\n+", "[😀-🙏]", "e\u0301", r"\x1c", r"SCE\d{3}"],
    *["a{2,}", "a+?", r"[\s\S]", r"\A\n", r"\n\Z", r"\u3000+", r"\.\s*", "x|é"],
]
# Patterns outside the Rust subset: the drop-ins fall back to Python's ``re``.
PYTHON_ONLY_REGEXES = [
    *[r"(?=\n)", r"(?<=\.)", r"(?!a)\w", "$", "^a", r"\b", r"\bthe\b", r"(\n)"],
    *["(a)(b)", r"(\w)\1", "x*", r"\Z", "(?i)a", "(?m)^#", "(?P<n>a)", "a*?", "(?:)"],
    *["a|", r"\B", "(?>a+)", "a++", r"(?<!\n)\n", r"(?=SCE\d{3})", r"\n(?!End\s)"],
]
# Invalid alone, or only once LangChain wraps them in a group (or only alone: "a)(b").
INVALID_REGEXES = ["(", "[", "*a", "a{2,1}", "(?<=a+)b", "\\", "(?P<1>a)", ")", "a)(b", "(?s)."]
INVALID_REGEXES += ["(?a)(?u)x", "a{4294967296}"]  # ValueError and OverflowError, not re.error

literal_separator_lists = st.none() | st.lists(st.sampled_from(LITERAL_SEPARATORS), max_size=5)
regex_pool = RUST_REGEXES * 3 + PYTHON_ONLY_REGEXES
regex_separator_lists = st.lists(st.sampled_from(regex_pool), min_size=1, max_size=5)


def _words(s: str) -> int:
    return len(s.split())


def _utf8(s: str) -> int:
    return len(s.encode("utf-8", "surrogatepass"))


def _half(s: str) -> float:
    return len(s) / 2


def _negative(s: str) -> int:
    return -len(s)


def _numpy(s: str) -> Any:
    return np.int64(len(s))


def _huge(s: str) -> int:
    return len(s) * 2**64


def _nonempty(s: str) -> bool:
    return bool(s)


def _no_x(s: str) -> int:
    if "x" in s:
        raise KeyError(f"no x allowed in {s!r}")
    return len(s)


def _as_str(s: str) -> str:
    return str(len(s))


LENGTH_FUNCTIONS: dict[str, Callable[[str], Any]] = {
    "len": len,
    "words": _words,
    "utf8": _utf8,
    "float": _half,
    "negative": _negative,
    "numpy": _numpy,
    "huge": _huge,
    "bool": _nonempty,
    "raising": _no_x,
    "str": _as_str,
}
length_functions = st.sampled_from(["len"] * 6 + sorted(LENGTH_FUNCTIONS)).map(
    LENGTH_FUNCTIONS.__getitem__
)

# -- outcomes ------------------------------------------------------------------------------


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def captured_warnings(name: str = LANGCHAIN_LOGGER) -> Iterator[list[str]]:
    """The messages logged on logger ``name`` inside the block, in order."""
    handler = _Records()
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    try:
        yield handler.messages
    finally:
        logger.removeHandler(handler)


@contextmanager
def recorded_calls(cls: type, method: str = "split") -> Iterator[list[Any]]:
    """The first argument (the text) of every call of ``cls.method`` inside the block. How a
    test sees the route a ferrochunk class really took, e.g. that the Rust stack handed an
    input to the pure-Python reference engine (its fallback) or kept it in Rust."""
    calls: list[Any] = []
    original = getattr(cls, method)

    def recording(self: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(text)
        return original(self, text, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cls, method, recording)
        yield calls


def outcome(call: Callable[[], Any], logger: str = LANGCHAIN_LOGGER) -> tuple[Any, ...]:
    """``("ok", value, warnings)`` or ``("raised", type, message, warnings)``."""
    with captured_warnings(logger) as warnings:
        try:
            value = call()
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as err:
            if type(err).__name__ == "PanicException":
                raise AssertionError(f"a Rust panic reached Python: {err!r}") from err
            return ("raised", type(err), str(err), list(warnings))
    return ("ok", value, list(warnings))


def staged(make: Callable[[Any], Any], use: Callable[[Any], Any], module: Any) -> tuple:
    """Outcome of building a splitter from ``module``, then (if built) of using it: errors
    must come from the same stage as LangChain's."""
    if module is langchain_text_splitters:
        assert_genuine_langchain()
    built = outcome(lambda: make(module))
    if built[0] == "raised":
        return ("init", *built)
    return ("call", *outcome(lambda: use(built[1])))


def docs(documents: Any) -> list[tuple[str, dict]]:
    """Documents as comparable ``(page_content, metadata)`` pairs."""
    return [(d.page_content, d.metadata) for d in documents]


def check_offsets(text: str, chunks: list[Any], strip: bool = True) -> None:
    """The native API's promises: exact char and byte offsets, indexes 0..n, document order,
    and no dropped text (every character, or every non-whitespace one when stripping, lies
    in some chunk). Chunks need not be stripped: like LangChain's, a piece too long to split
    further is kept as is."""
    encoded = text.encode("utf-8")
    covered = [0] * (len(text) + 1)  # +1 at each start, -1 at each end
    previous_start = 0
    for i, c in enumerate(chunks):
        assert c.index == i
        assert c.text, "empty chunk"
        assert text[c.start : c.end] == c.text
        assert encoded[c.byte_start : c.byte_end] == c.text.encode("utf-8")
        assert len(text[: c.start].encode("utf-8")) == c.byte_start
        assert c.start >= previous_start, "chunks out of document order"
        previous_start = c.start
        covered[c.start] += 1
        covered[c.end] -= 1
    depth = 0
    for i, ch in enumerate(text):
        depth += covered[i]
        if depth <= 0 and (not strip or not ch.isspace()):
            raise AssertionError(f"character {ch!r} at {i} is in no chunk")


# Runs the CLI as if the modules named in argv[1] (comma-separated) were not installed:
# ``sys.modules[name] = None`` makes ``import name`` raise ModuleNotFoundError.
WITHOUT_MODULES = (
    "import sys\n"
    "for name in sys.argv.pop(1).split(','):\n"
    "    sys.modules[name] = None\n"
    "from ferrochunk.cli import main\n"
    "raise SystemExit(main(sys.argv[1:]))\n"
)
