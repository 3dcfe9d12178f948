"""LangChain's ``MarkdownHeaderTextSplitter`` line scan (mirrors ``rust/markdown/header.rs``):
the reference engine, and the one calling a subclass's hooks (in both stacks), which
:func:`ferrochunk.engines.header_engine` builds.
"""

from __future__ import annotations

from typing import Any, Optional

from ...documents import Document, make_document
from ...frontend.markdown_header import Block, HeaderRule, Metadata, aggregate, custom_title


def clean_line(line: str) -> str:
    """LangChain's per-line normalisation: strip, then drop non-printable characters."""
    return "".join(filter(str.isprintable, line.strip()))


def match_header(line: str, rule: HeaderRule) -> Optional[str]:
    """The header text if ``line`` is a header for ``rule``. A line that is both a custom
    header and a standard one (``"** a**"`` for ``"**"``) takes the custom reading, as
    LangChain does: its title is what lies between the two markers."""
    sep = rule.sep
    if rule.custom:
        title = custom_title(line, sep)
        if title is not None:
            return title
    if line.startswith(sep) and (len(line) == len(sep) or line[len(sep)] == " "):
        return line[len(sep) :].strip()
    return None


class HeaderEngine:
    """The line scan: blocks of stripped lines with the header metadata in force."""

    def __init__(self, rules: list[HeaderRule], return_each_line: bool, strip_headers: bool):
        self.rules = rules
        self.return_each_line = return_each_line
        self.strip_headers = strip_headers

    def split(self, text: str, names: list[Any]) -> list[Document]:
        """The documents of the blocks, aggregated unless ``return_each_line``; metadata
        keyed by ``names[id]``."""
        blocks = self._scan(text)
        if not self.return_each_line:
            blocks = aggregate(blocks, self.strip_headers)
        return [make_document(c, {names[k]: v for k, v in m.items()}) for c, m in blocks]

    def _match(self, line: str, rule: HeaderRule) -> Optional[str]:
        return match_header(line, rule)

    def _scan(self, text: str) -> list[Block]:
        blocks: list[Block] = []
        content: list[str] = []
        meta: Metadata = {}
        stack: list[tuple[int, int]] = []  # (level, name id) of open named headers
        fence = ""

        def flush(metadata: Metadata) -> None:
            if content:
                blocks.append(("\n".join(content), dict(metadata)))
                content.clear()

        for raw in text.split("\n"):
            line = clean_line(raw)
            if not fence:
                if line.startswith("```") and line.count("```") == 1:
                    fence = "```"
                elif line.startswith("~~~"):
                    fence = "~~~"
            elif line.startswith(fence):
                fence = ""  # the closing line is then read as an ordinary line
            if fence:
                content.append(line)
                continue
            before = dict(meta)
            for rule in self.rules:
                title = self._match(line, rule)
                if title is None:
                    continue
                if rule.name is not None:
                    while stack and stack[-1][0] >= rule.level:
                        meta.pop(stack.pop()[1], None)
                    stack.append((rule.level, rule.name))
                    meta[rule.name] = title
                flush(before)
                if not self.strip_headers:
                    content.append(line)
                break
            else:
                if line:
                    content.append(line)
                else:
                    flush(meta)
        flush(meta)
        return blocks


class HookedHeaderEngine(HeaderEngine):
    """The reference line scan asking ``splitter._is_custom_header`` of every line and
    header marker, and handing its lines to ``splitter.aggregate_lines_to_chunks``: the scan
    of a subclass overriding one of those hooks, in both stacks."""

    def __init__(self, splitter: Any, rules: list[HeaderRule]) -> None:
        super().__init__(rules, bool(splitter.return_each_line), bool(splitter.strip_headers))
        self.splitter = splitter

    def _match(self, line: str, rule: HeaderRule) -> Optional[str]:
        sep = rule.sep
        if self.splitter._is_custom_header(line, sep):
            return line[len(sep) : -len(sep)].strip()
        return match_header(line, rule._replace(custom=False))  # the standard reading

    def split(self, text: str, names: list[Any]) -> list[Document]:
        lines: list[dict[str, Any]] = [
            {"content": c, "metadata": {names[k]: v for k, v in m.items()}}
            for c, m in self._scan(text)
        ]
        if not self.return_each_line:
            chunks: list[Document] = self.splitter.aggregate_lines_to_chunks(lines)
            return chunks

        return [Document(page_content=x["content"], metadata=x["metadata"]) for x in lines]


__all__ = ["HeaderEngine", "HookedHeaderEngine", "clean_line", "custom_title", "match_header"]
