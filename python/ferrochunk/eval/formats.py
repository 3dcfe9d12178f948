"""The boundary judge's view of markup beyond Markdown: where a block starts, and which
code blocks and tables a chunk must not cut, for reStructuredText and AsciiDoc.

Written apart from the chunkers' scanners (``rust/structure/``) and simpler than they are,
so that the measures do not grade the scanners by themselves: a few regexes per format.

- **block starts** (after a chunk's end, the next line starts another block): RST explicit
  markup (``.. ``), list, enumerator and field markers, tables, doctests, line blocks,
  adornment lines, or a line less indented than the chunk's last line (indentation is RST's
  structure); AsciiDoc titles, delimiter lines, attribute lines, block titles, list and
  description items, list continuations (``+``), comments. A chunk that ends with a
  delimiter line or ``+`` ends a block too.
  (A ``----`` line under a text line of about its length is a title underline.)
- **code blocks and tables**: RST literal blocks after ``::``, code directives
  (``code-block``, ``code``, ``sourcecode``), grid and simple tables; AsciiDoc ``----``,
  ``....`` and backtick-fenced blocks and ``|===`` tables.
"""

from __future__ import annotations

import re
from typing import Optional

Spans = list[tuple[int, int]]
FORMATS = ("markdown", "rst", "asciidoc", "plain")

_RST_START = re.compile(
    r"(\.\. |\.\.$|__ |[-*+\u2022] |(\d+|#|[a-zA-Z])[.)] |\(\w+\) |:[^:\s][^:]*:( |$)"
    r"|\+[-=]|=+ +=|>>>|\|( |$)|([!-/:-@\[-`{-~])\3{3,} *$|$)"
)
_ADOC_START = re.compile(
    r"(=+ |#+ |-{4,} *$|\.{4,} *$|[|,:!]===|\+{4,}|/{2}|={4,}|\*{4,}|_{4,}|-- *$|```|\[|"
    r"\.[^.\s]|[*.]+ |- |\d+\. |<[\d.]+> |\+ *$|:[\w-]+:|.*?(::|;;)( |$)|$)"
)
_ADOC_END = re.compile(r"(-{4,}|\.{4,}|[|,:!]={3,}|\+{4,}|={4,}|\*{4,}|_{4,}|--|```|\+)$")
_RST_CODE_DIRECTIVE = re.compile(r"\.\. (code-block|code|sourcecode)::")
_GRID = re.compile(r"\+[-=][-=+:]*\+$")
_SIMPLE = re.compile(r"=+( +=+)+$")
_MARKERS = re.compile(r"([-*+] +|\d+\. +)*")


def block_start(fmt: str, text: str, line_start: int, line_end: int, before: str) -> bool:
    """Whether the line ``text[line_start:line_end]`` starts a block in ``fmt``; ``before``
    is the chunk's last line (for RST's indentation rule)."""
    line = text[line_start:line_end]
    if fmt == "rst":
        stripped = line.lstrip(" \t")
        dedent = len(line) - len(stripped) < len(before) - len(before.lstrip(" \t"))
        return dedent or bool(_RST_START.match(stripped))
    return bool(_ADOC_START.match(line))


def ends_block(fmt: str, last_line: str) -> bool:
    """Whether a chunk whose last line is ``last_line`` ends a block by itself."""
    return fmt == "asciidoc" and bool(_ADOC_END.match(last_line.strip()))


_MD_HEADING = re.compile(r" {0,3}#{1,6}( |$)")
_ADOC_HEADING = re.compile(r"[=#]{1,6} \S")


def ends_with_heading(fmt: str, chunk: str) -> bool:
    """Whether ``chunk`` ends with a section title (its text is in the next chunk): an ATX
    or setext heading (Markdown), an underlined title (RST, plain text, AsciiDoc's two-line
    titles) or a ``=`` title (AsciiDoc)."""
    lines = chunk.rstrip().split("\n")
    last = lines[-1].rstrip()
    before = lines[-2].strip() if len(lines) > 1 else ""
    underline = (
        len(last) >= 2
        and last.strip() == last
        and last[0] in "=-~^+*#\"'`:._"
        and last.count(last[0]) == len(last)
        and bool(before)
        and before.count(before[0]) != len(before)
    )
    if fmt == "markdown":
        return bool(_MD_HEADING.match(last)) or (underline and last[0] in "=-")
    if fmt == "asciidoc":  # an underline within two of the title's length, else a delimiter
        near = abs(len(last) - len(before)) <= 2
        return bool(_ADOC_HEADING.match(last)) or (underline and near and last[0] in "=-~^+")
    # RST and plain text: an underline at least as long as the title
    return underline and len(last) >= len(before)


def code_and_tables(fmt: str, text: str) -> Spans:
    """Spans of the code blocks and tables of an RST or AsciiDoc text (see the module)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    found = _rst(lines) if fmt == "rst" else _asciidoc(lines)
    out = []
    for a, b in found:
        while b > a and not lines[b].strip():
            b -= 1
        first = lines[a]
        out.append(
            (starts[a] + len(first) - len(first.lstrip()), starts[b] + len(lines[b].rstrip()))
        )
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _indented_body(lines: list[str], i: int, base: int) -> int:
    """The last line of the run after line ``i`` that is blank or indented past ``base``."""
    last = i
    for j in range(i + 1, len(lines)):
        if lines[j].strip():
            if _indent(lines[j]) <= base:
                break
            last = j
    return last


def _rst(lines: list[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        line, stripped = lines[i], lines[i].strip()
        base = _indent(line)
        end: Optional[int] = None
        start = i
        if _RST_CODE_DIRECTIVE.match(stripped):
            end = _indented_body(lines, i, base)
        elif stripped.endswith("::") and not stripped.startswith(".."):
            markers = _MARKERS.match(stripped)
            assert markers is not None  # the pattern matches the empty string
            base += len(markers.group())  # the text after list markers

            nxt = next((j for j in range(i + 1, len(lines)) if lines[j].strip()), None)
            if nxt is not None and nxt > i + 1 and _indent(lines[nxt]) > base:
                start, end = nxt, _indented_body(lines, i, base)
        elif _GRID.match(stripped):
            end = i
            while end + 1 < len(lines) and lines[end + 1].strip()[:1] in ("+", "|"):
                end += 1
        elif _SIMPLE.match(stripped):
            closing = [
                j
                for j in range(i + 1, len(lines))
                if _SIMPLE.match(lines[j].strip())
                and (j + 1 == len(lines) or not lines[j + 1].strip())
            ]
            end = closing[0] if closing else None
        if end is not None and end > start:
            out.append((start, end))
            i = end + 1
        else:
            i += 1
    return out


def closers(text: str) -> set[int]:
    """Where the delimited blocks of an AsciiDoc ``text`` end (code, tables, and example,
    sidebar, quote, passthrough, comment and open blocks): a chunk ending there ends with
    a closing delimiter line, not a title underline."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    return {starts[b] + len(lines[b].rstrip()) for _, b in _asciidoc(lines, _ADOC_BLOCKS)}


_ADOC_CODE = r"-{4,}|\.{4,}|```.*|[|,:!]={3,}"
_ADOC_BLOCKS = _ADOC_CODE + r"|={4,}|\*{4,}|_{4,}|\+{4,}|/{4,}|--"


def _asciidoc(lines: list[str], delimiters: str = _ADOC_CODE) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        t = lines[i].rstrip()
        code = re.fullmatch(delimiters, t)
        prev = lines[i - 1].strip() if i else ""
        if code and prev and abs(len(prev) - len(t)) <= 2 and t[0] in "-=~^+":
            code = None  # the underline of a two-line title
        if code:
            close = "```" if t.startswith("```") else t
            end = next((j for j in range(i + 1, len(lines)) if lines[j].rstrip() == close), None)
            if end is not None:
                out.append((i, end))
                i = end + 1
                continue
        i += 1
    return out
