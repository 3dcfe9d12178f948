"""LangChain's ``MarkdownHeaderTextSplitter`` (mirrors ``rust/markdown_header.rs``).

The line scan is an engine (pure Python here, Rust in :mod:`ferrochunk.markdown_header`);
the class around it (arguments, documents, aggregation API) is shared, so both behave alike
by construction. Behaviour reproduced from ``langchain_text_splitters`` 1.1, quirks
included: lines are stripped and lose their non-printable characters, a fence is a line
starting with three backticks (and no second triple) or tildes, a header is a line starting
with one of the ``headers_to_split_on`` markers followed by a space or nothing, blank lines
end a block, and blocks with equal metadata are joined with ``"  \\n"``.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

from ..documents import Document

Metadata = dict[int, str]  # header-name id -> header text, in insertion order
Block = tuple[str, Metadata]


class HeaderRule(NamedTuple):
    """One entry of ``headers_to_split_on``, resolved: ``name`` is an id, or None to skip."""

    sep: str
    name: Optional[int]
    level: int
    custom: bool


def clean_line(line: str) -> str:
    """LangChain's per-line normalisation: strip, then drop non-printable characters."""
    return "".join(filter(str.isprintable, line.strip()))


def _custom_title(line: str, sep: str) -> Optional[str]:
    """The title of a ``**Title**``-style custom header, or None when ``line`` is not one:
    exactly one ``sep`` on each side, something between, and not only ``sep`` characters."""
    n = len(sep)
    if n == 0 or len(line) < 2 * n + 1 or not (line.startswith(sep) and line.endswith(sep)):
        return None
    if line[n:].startswith(sep) or line[:-n].endswith(sep):
        return None
    title = line[n:-n].strip()
    if title and not all(c in sep for c in title.replace(" ", "")):
        return title
    return None


def match_header(line: str, rule: HeaderRule) -> Optional[str]:
    """The header text if ``line`` is a header for ``rule`` (standard first, then custom)."""
    sep = rule.sep
    if line.startswith(sep) and (len(line) == len(sep) or line[len(sep)] == " "):
        return line[len(sep) :].strip()
    if rule.custom:
        return _custom_title(line, sep)
    return None


class HeaderEngine:
    """The line scan: blocks of stripped lines with the header metadata in force."""

    def __init__(self, rules: list[HeaderRule], return_each_line: bool, strip_headers: bool):
        self.rules = rules
        self.return_each_line = return_each_line
        self.strip_headers = strip_headers

    def split(self, text: str) -> list[Block]:
        """Blocks ``(content, metadata)``, aggregated unless ``return_each_line``."""
        blocks = self._scan(text)
        return blocks if self.return_each_line else aggregate(blocks, self.strip_headers)

    def _scan(self, text: str) -> list[Block]:
        blocks: list[Block] = []
        content: list[str] = []
        meta: Metadata = {}
        stack: list[tuple[int, Optional[int]]] = []  # (level, name id) of open headers
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
                title = match_header(line, rule)
                if title is None:
                    continue
                if rule.name is not None:
                    while stack and stack[-1][0] >= rule.level:
                        meta.pop(stack.pop()[1], None)  # type: ignore[arg-type]
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


def aggregate(blocks: list[Block], strip_headers: bool) -> list[Block]:
    """LangChain's ``aggregate_lines_to_chunks`` on ``(content, metadata)`` blocks."""
    out: list[list[Any]] = []
    for content, meta in blocks:
        if out and out[-1][1] == meta:
            out[-1][0] += "  \n" + content
        elif (
            out
            and len(out[-1][1]) < len(meta)
            and out[-1][0].split("\n")[-1][0] == "#"
            and not strip_headers
        ):
            out[-1][0] += "  \n" + content
            out[-1][1] = meta
        else:
            out.append([content, meta])
    return [(c, m) for c, m in out]


class MarkdownHeaderTextSplitter:
    """Splitting markdown files based on specified headers (LangChain's class).

    >>> from ferrochunk import MarkdownHeaderTextSplitter
    >>> s = MarkdownHeaderTextSplitter([("#", "H1"), ("##", "H2")])
    >>> [(d.page_content, d.metadata) for d in s.split_text("# A\\nx\\n## B\\ny")]
    [('x', {'H1': 'A'}), ('y', {'H1': 'A', 'H2': 'B'})]
    """

    def __init__(
        self,
        headers_to_split_on: list[tuple[str, str]],
        return_each_line: bool = False,
        strip_headers: bool = True,
        custom_header_patterns: Optional[dict[str, int]] = None,
    ) -> None:
        self.return_each_line = return_each_line
        self.headers_to_split_on = sorted(
            headers_to_split_on, key=lambda split: len(split[0]), reverse=True
        )
        self.strip_headers = strip_headers
        self.custom_header_patterns = custom_header_patterns or {}

    def _rules(self) -> tuple[list[HeaderRule], list[Any]]:
        names: list[Any] = []
        rules = []
        for sep, name in self.headers_to_split_on:
            custom = sep in self.custom_header_patterns
            level = self.custom_header_patterns[sep] if custom else sep.count("#")
            name_id = None
            if name is not None:
                if name not in names:
                    names.append(name)
                name_id = names.index(name)
            rules.append(HeaderRule(sep, name_id, level, custom))
        return rules, names

    def _make_engine(self, rules: list[HeaderRule]) -> Any:
        return HeaderEngine(rules, bool(self.return_each_line), bool(self.strip_headers))

    def split_text(self, text: str) -> list[Document]:
        """Split a Markdown text into documents carrying their headers as metadata."""
        rules, names = self._rules()
        blocks = self._make_engine(rules).split(text)
        return [
            Document(page_content=content, metadata={names[k]: v for k, v in meta.items()})
            for content, meta in blocks
        ]

    def aggregate_lines_to_chunks(self, lines: list[dict[str, Any]]) -> list[Document]:
        """Combine ``{"content", "metadata"}`` lines with common metadata into documents."""
        blocks = [(line["content"], line["metadata"]) for line in lines]
        return [
            Document(page_content=c, metadata=m) for c, m in aggregate(blocks, self.strip_headers)
        ]


__all__ = ["HeaderEngine", "HeaderRule", "MarkdownHeaderTextSplitter", "aggregate"]
