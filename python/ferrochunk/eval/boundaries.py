# ruff: noqa: RUF002 - CJK punctuation in the docs is the point
"""Model-free boundary measures: how chunks are cut, judged from the text alone.

- **mid-sentence**: % of chunks whose end is neither a sentence end (. ! ? 。！？；…
  possibly followed by a closing quote or bracket) nor the end of a block (end of text,
  blank line, or a line that starts a heading, fence, table row, list item or quote);
- **cut blocks**: % of fenced code blocks and tables (markdown-it-py's reading, any depth)
  that fit in the target size but are not inside a single chunk;
- **tiny**: % of chunks under 20 % of the target size; **oversize**: % over it (sizes in
  the configuration's unit);
- **coverage**: % of the text's non-whitespace code points inside at least one chunk;
- **dangling headings**: % of chunks that end with a section title while text follows
  (the title's section starts in the next chunk).

Texts in reStructuredText or AsciiDoc (``formats``) are judged by their own block starts,
code blocks and tables (:mod:`.formats`); plain text by the Markdown rules (a blank line or
a list item starts a block; it has no code blocks).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any, Callable, Optional

from .formats import block_start, closers, code_and_tables, ends_block, ends_with_heading
from .measures import union

SENTENCE_END = re.compile(
    "[.!?\u3002\uff01\uff1f\uff1b\u2026][\"'\u201d\u2019)\\]\u300d\u300f\uff09]*$"
)
BLOCK_START = re.compile(r"[ \t]*(#|```|~~~|\||[-*+] |\d+[.)] |>|$)")
Spans = list[tuple[int, int]]


def ends_mid_sentence(text: str, end: int, chunk: str, fmt: str = "markdown") -> bool:
    """Whether a chunk ending at ``end`` stops inside a sentence (see the module docs)."""
    if SENTENCE_END.search(chunk.rstrip()):
        return False
    nl = text.find("\n", end)
    if nl < 0:
        return text[end:].strip() != ""
    if text[end:nl].strip():
        return True  # the chunk stops inside a line
    after = text.find("\n", nl + 1)
    after = len(text) if after < 0 else after
    if fmt in ("rst", "asciidoc"):
        last = chunk.rstrip().rsplit("\n", 1)[-1]
        if ends_block(fmt, last) or not text[nl + 1 : after].strip():
            return False
        return not block_start(fmt, text, nl + 1, after, last)
    return not BLOCK_START.match(text[nl + 1 : after])


@functools.lru_cache(maxsize=4096)
def blocks(text: str) -> tuple[tuple[int, int], ...]:
    """Spans of the fenced code blocks and tables of ``text`` (markdown-it-py's reading)."""
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        raise ImportError(
            "the cut-blocks measure needs markdown-it-py: pip install 'ferrochunk[eval]'"
        ) from None
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    out = []
    for t in MarkdownIt("commonmark").enable("table").parse(text):
        if t.type in ("fence", "table_open") and t.map:
            a, b = t.map[0], max(t.map[0], t.map[1] - 1)
            while b > a and not lines[b].strip():
                b -= 1
            start = starts[a] + len(lines[a]) - len(lines[a].lstrip())
            out.append((start, starts[b] + len(lines[b].rstrip())))
    return tuple(out)


def regions(
    text: str, size: int, length: Callable[[str], int] = len, fmt: str = "markdown"
) -> Spans:
    """Code blocks and tables (as spans) that fit in ``size`` (measured by ``length``)."""
    return [(a, b) for a, b in _code_and_tables(text, fmt) if length(text[a:b]) <= size]


def _code_and_tables(text: str, fmt: str) -> Spans:
    if fmt == "plain":
        return []
    return code_and_tables(fmt, text) if fmt in ("rst", "asciidoc") else list(blocks(text))


def boundary_measures(
    texts: Sequence[str],
    spans: Sequence[Spans],
    size: int,
    length: Callable[[str], int] = len,
    formats: Optional[Sequence[str]] = None,
) -> dict[str, Any]:
    """The boundary measures of chunks ``spans[i]`` of ``texts[i]`` at target ``size``;
    ``formats[i]`` is the markup of ``texts[i]`` (Markdown when not given)."""
    chunks = mid = tiny = over = fits = cut = solid = covered = dangling = 0
    fmts = formats if formats is not None else ["markdown"] * len(texts)
    for text, doc_spans, fmt in zip(texts, spans, fmts):
        chunks += len(doc_spans)
        if fmt == "asciidoc":  # a chunk ending with a closing delimiter ends no title
            ends = closers(text)
        else:
            ends = {e for _, e in _code_and_tables(text, fmt)}
        for a, b in doc_spans:
            mid += ends_mid_sentence(text, b, text[a:b], fmt)
            heading = b not in ends and ends_with_heading(fmt, text[a:b])  # not a closer
            dangling += heading and bool(text[b:].strip())
            n = length(text[a:b])
            tiny += n < size * 0.2
            over += n > size
        for a, b in regions(text, size, length, fmt):
            fits += 1
            cut += not any(s <= a and b <= e for s, e in doc_spans)
        solid += _solid_total(text)
        covered += sum(_solid(text, a, b) for a, b in union(list(doc_spans)))
    pct = 100.0 / max(chunks, 1)
    return {
        "chunks": chunks,
        "mid_sentence_pct": mid * pct,
        "cut_blocks_pct": 100.0 * cut / max(fits, 1),
        "fitting_blocks": fits,
        "tiny_pct": tiny * pct,
        "oversize_pct": over * pct,
        "coverage_pct": 100.0 * covered / max(solid, 1),
        "dangling_headings_pct": dangling * pct,
    }


def _solid(text: str, a: int, b: int) -> int:
    """Non-whitespace code points in ``text[a:b]`` (``str.split``'s whitespace)."""
    return sum(map(len, text[a:b].split()))


@functools.lru_cache(maxsize=4096)
def _solid_total(text: str) -> int:
    return _solid(text, 0, len(text))
