# ruff: noqa: RUF002 - CJK punctuation in the docs is the point
"""Separator presets for the recursive splitters.

``CJK_SEPARATORS`` follow Chinese and Japanese punctuation: paragraph, line, sentence ends
(。！？；… with closing quotes or brackets), then clause marks (，、), then characters. They are
regular expressions meant to be kept at the END of the piece they close:

>>> from ferrochunk import RecursiveCharacterTextSplitter
>>> from ferrochunk.presets import CJK_SEPARATORS
>>> s = RecursiveCharacterTextSplitter(
...     separators=CJK_SEPARATORS, is_separator_regex=True, keep_separator="end",
...     chunk_size=8, chunk_overlap=0)
>>> s.split_text("第一句话。第二句话！第三，第四。")
['第一句话。', '第二句话！', '第三，第四。']

The Markdown chunker has the same preset for cutting long paragraphs:
``MarkdownChunker(separators="cjk")``.
"""

from __future__ import annotations

CJK_SEPARATORS: list[str] = [
    "\n\n",
    "\n",
    "[\u3002\uff01\uff1f\uff1b\u2026]+[\u201d\u2019\u300d\u300f\uff09]*",
    "[\uff0c\u3001]",
    "",
]

__all__ = ["CJK_SEPARATORS"]
