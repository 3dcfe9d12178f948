"""LangChain's ``ExperimentalMarkdownSyntaxTextSplitter``, written for speed in Python.

The work is structural (one pass over the lines, no text is re-scanned), so it needs no Rust:
each line is recognised by a cheap prefix test before the regex that decides, and lines are
consumed by index instead of LangChain's ``list.pop(0)``, so long texts stay linear.
Behaviour reproduced from ``langchain_text_splitters`` 1.1, quirks included: lines keep
their ends (a header title keeps a ``"\\r"``), a fence closes on any fence line, an unclosed
fence swallows the rest of the text and yields nothing, horizontal rules are three or more
``*``/``-``/``_`` followed directly by ``"\\n"``, code chunks carry ``"Code"`` before their
headers, and the returned list is the splitter's own (cleared by the next call).
"""

from __future__ import annotations

import re
from typing import Optional

from ..documents import Document

_HEADER = re.compile(r"^(#{1,6}) (.*)")
_FENCES = (re.compile(r"^```(.*)"), re.compile(r"^~~~(.*)"))
_RULES = (re.compile(r"^\*\*\*+\n"), re.compile(r"^---+\n"), re.compile(r"^___+\n"))
_DEFAULT_HEADERS = {
    "#": "Header 1",
    "##": "Header 2",
    "###": "Header 3",
    "####": "Header 4",
    "#####": "Header 5",
    "######": "Header 6",
}


def _fence(line: str) -> Optional[re.Match[str]]:
    if line[:3] not in ("```", "~~~"):
        return None
    return _FENCES[0].match(line) or _FENCES[1].match(line)


def _is_rule(line: str) -> bool:
    return line[:3] in ("***", "---", "___") and any(r.match(line) for r in _RULES)


class ExperimentalMarkdownSyntaxTextSplitter:
    """Splits Markdown at headers, fenced code blocks and horizontal rules, keeping every
    other character of the text (LangChain's experimental splitter).

    >>> from ferrochunk.langchain import ExperimentalMarkdownSyntaxTextSplitter
    >>> docs = ExperimentalMarkdownSyntaxTextSplitter().split_text("# A\\nx\\n```py\\ny\\n```\\n")
    >>> [(d.page_content, d.metadata) for d in docs]
    [('x\\n', {'Header 1': 'A'}), ('```py\\ny\\n```\\n', {'Code': 'py', 'Header 1': 'A'})]
    """

    def __init__(
        self,
        headers_to_split_on: Optional[list[tuple[str, str]]] = None,
        return_each_line: bool = False,
        strip_headers: bool = True,
    ) -> None:
        self.chunks: list[Document] = []
        self.current_chunk = Document(page_content="")
        self.current_header_stack: list[tuple[int, str]] = []
        self.strip_headers = strip_headers
        if headers_to_split_on:
            self.splittable_headers = dict(headers_to_split_on)
        else:
            self.splittable_headers = dict(_DEFAULT_HEADERS)
        self.return_each_line = return_each_line

    def split_text(self, text: str) -> list[Document]:
        """Documents for the sections, code blocks and rule-separated parts of ``text``."""
        self.chunks.clear()
        self.current_chunk = Document(page_content="")
        self.current_header_stack.clear()
        lines = text.splitlines(keepends=True)
        if lines and not isinstance(lines[0], str):
            _HEADER.match(lines[0])  # bytes: LangChain's TypeError, from the same regex
        pending: list[str] = []  # the current chunk's lines
        i, n = 0, len(lines)
        while i < n:
            line = lines[i]
            i += 1
            header = self._match_header(line)
            if header is not None:
                self._complete(pending, {})
                pending = [] if self.strip_headers else [line]
                self._resolve_header_stack(len(header.group(1)), header.group(2))
                continue
            fence = _fence(line)
            if fence is not None:
                self._complete(pending, {})
                i, block = self._code_block(lines, i)
                self._complete(block, {"Code": fence.group(1)})
                pending = []
            elif _is_rule(line):
                self._complete(pending, {})
                pending = []
            else:
                pending.append(line)
        self._complete(pending, {})
        if self.return_each_line:
            return [
                Document(page_content=line, metadata=chunk.metadata)
                for chunk in self.chunks
                for line in chunk.page_content.splitlines()
                if line and not line.isspace()
            ]
        return self.chunks

    def _match_header(self, line: str) -> Optional[re.Match[str]]:
        if not line.startswith("#"):
            return None
        match = _HEADER.match(line)
        if match and match.group(1) in self.splittable_headers:
            return match
        return None

    @staticmethod
    def _code_block(lines: list[str], i: int) -> tuple[int, list[str]]:
        """``(next index, lines)`` of the fenced block whose opening line is ``lines[i - 1]``:
        up to the next fence line, or nothing at all when no fence closes it."""
        for k in range(i, len(lines)):
            if _fence(lines[k]) is not None:
                return k + 1, lines[i - 1 : k + 1]
        return len(lines), []

    def _resolve_header_stack(self, header_depth: int, header_text: str) -> None:
        stack = self.current_header_stack
        for i, (depth, _) in enumerate(stack):
            if depth >= header_depth:
                self.current_header_stack = stack = stack[:i]
                break
        stack.append((header_depth, header_text))

    def _complete(self, lines: list[str], metadata: dict[str, str]) -> None:
        """Close a chunk: kept unless it is empty or whitespace, with the headers in force."""
        content = "".join(lines)
        if content and not content.isspace():
            for depth, value in self.current_header_stack:
                key = self.splittable_headers.get("#" * depth)
                if key is not None:
                    metadata[key] = value
            self.chunks.append(Document(page_content=content, metadata=metadata))


__all__ = ["ExperimentalMarkdownSyntaxTextSplitter"]
