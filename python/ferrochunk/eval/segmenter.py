"""Sentences by pysbd, a rule-based segmenter written apart from ferrochunk's own: the
answers of synthetic and labelled questions are drawn with it, so that a chunker is not
judged by its own notion of a sentence.

pysbd's sentences are mapped back to exact code-point spans of the text (each one found in
order, stripped); single line breaks are read as spaces first (the same length, so offsets
do not move), since pysbd ends a sentence at every line break and hard-wrapped prose would
otherwise be cut at each line.
"""

from __future__ import annotations

import functools
import re
from typing import Any

Spans = list[tuple[int, int]]
CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
LINE_BREAK = re.compile(r"(?<!\n)\n(?!\n)")


def name() -> str:
    """What drew the answers, for the report: ``pysbd <version>``."""
    return f"pysbd {_pysbd().__version__}"


def _pysbd() -> Any:
    try:
        import pysbd
    except ImportError:
        raise ImportError(
            "answers are drawn with pysbd, which is missing: pip install 'ferrochunk[eval]'"
        ) from None
    return pysbd


@functools.cache
def _segmenter(language: str) -> Any:
    return _pysbd().Segmenter(language=language, clean=False)


def language(text: str) -> str:
    """``zh`` when a fifth or more of the letters are CJK, else ``en``."""
    letters = sum(c.isalpha() for c in text) or 1
    return "zh" if len(CJK.findall(text)) * 5 >= letters else "en"


def sentences(text: str, start: int = 0, end: int | None = None) -> Spans:
    """Exact spans of pysbd's sentences in ``text[start:end]`` (whitespace stripped);
    empty when one of them cannot be found in order (pysbd changed the text)."""
    end = len(text) if end is None else end
    piece = LINE_BREAK.sub(" ", text[start:end])
    out: Spans = []
    at = 0
    for sentence in _segmenter(language(piece)).segment(piece):
        core = sentence.strip()
        if not core:
            continue
        found = piece.find(core, at)
        if found < 0:
            return []
        out.append((start + found, start + found + len(core)))
        at = found + len(core)
    return out
