"""Blocks of a document as an independent parser sees them, at exact code-point offsets:
markdown-it-py for Markdown (paragraphs, list items, table rows), docutils for
reStructuredText (paragraphs, list items, definition-list items, table rows).

A parser reports a block's text without its container markup (list markers, indentation,
quote markers); the block is mapped back to the source by matching that text line by line,
allowing only whitespace (and ``>``) at the start of each following line, and blank
lines between. A block whose text
is not found that way, or is found more than once in its document, is not mapped: it is
skipped and counted, never placed by guesswork. So ``text[start:end]`` is always the block's
own source.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

LINE_LEAD = r"\n(?:[ \t>]*\n)*[ \t>]*"  # a line break, blank lines, indentation


@dataclass(frozen=True)
class Parsed:
    """One block: its kind (``paragraph``, ``list item``, ``table row``...) and span."""

    kind: str
    start: int
    end: int


def pattern(block_text: str) -> re.Pattern[str]:
    """The block's lines, each stripped, with any indentation or ``>`` before each line
    after the first."""
    lines = [line.strip() for line in block_text.strip().split("\n")]
    return re.compile(LINE_LEAD.join(re.escape(line) for line in lines if line))


def locate(text: str, block_text: str) -> tuple[int, int] | None:
    """The one span of ``text`` whose lines are ``block_text``'s (``None``: none or several)."""
    if not block_text.strip():
        return None
    found = list(pattern(block_text).finditer(text))
    return (found[0].start(), found[0].end()) if len(found) == 1 else None


def markdown_blocks(text: str) -> tuple[list[Parsed], Counter[str]]:
    """Paragraphs, list-item paragraphs and table body rows of Markdown; and what could not
    be mapped, by kind."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    return _mapped(text, _md_texts(tokens))


def _md_texts(tokens: list[Any]) -> Iterator[tuple[str, str]]:
    depth = {"list_item": 0, "tbody": 0, "blockquote": 0}
    for i, t in enumerate(tokens):
        for name in depth:
            depth[name] += t.type == f"{name}_open"
            depth[name] -= t.type == f"{name}_close"
        if t.type == "inline" and tokens[i - 1].type == "paragraph_open":
            kind = "list item" if depth["list_item"] else "paragraph"
            yield ("quote " if depth["blockquote"] else "") + kind, t.content
        elif t.type == "tr_open" and depth["tbody"]:
            cells = []
            for u in tokens[i + 1 :]:
                if u.type == "tr_close":
                    break
                if u.type == "inline":
                    cells.append(re.escape(u.content))
            yield "table row", "\x00" + r"[ \t]*\|[ \t]*".join(cells)


def _mapped(text: str, blocks: Iterator[tuple[str, str]]) -> tuple[list[Parsed], Counter[str]]:
    out, lost = [], Counter[str]()
    for kind, body in blocks:
        if body.startswith("\x00"):  # a table row: its cells' pattern, one whole line
            span = _row(text, body[1:])
        else:
            span = locate(text, body)
        if span is None:
            lost[kind] += 1
        else:
            out.append(Parsed(kind, *span))
    out.sort(key=lambda p: (p.start, p.end))
    return out, lost


def _row(text: str, cells: str) -> tuple[int, int] | None:
    """The one line that is exactly these cells (with ``|`` or spaces between), stripped."""
    row = re.compile(rf"^[ \t]*\|?[ \t]*{cells}[ \t]*\|?[ \t]*$", re.MULTILINE)
    found = list(row.finditer(text)) if cells else []
    if len(found) != 1:
        return None
    a, b = found[0].span()
    line = text[a:b]
    return a + len(line) - len(line.lstrip()), a + len(line.rstrip())


def rst_blocks(text: str) -> tuple[list[Parsed], Counter[str]]:
    """Paragraphs (by their container: list item, definition...), definition-list items and
    table rows of reStructuredText (docutils; Sphinx's own directives and roles are
    unknown to it, so their content is not read); and what could not be mapped, by kind."""
    return _mapped(text, _rst_texts(_doctree(text)))


def _doctree(text: str) -> Any:
    try:
        from docutils.core import publish_doctree
    except ImportError:
        raise ImportError("reading RST needs docutils: pip install 'ferrochunk[eval]'") from None
    settings = {
        "report_level": 5,
        "halt_level": 5,
        "file_insertion_enabled": False,
        "raw_enabled": False,
        "warning_stream": False,
    }
    return publish_doctree(text, settings_overrides=settings)


def _rst_texts(tree: Any) -> Iterator[tuple[str, str]]:
    from docutils import nodes

    kinds = {
        nodes.list_item: "list item",
        nodes.definition: "definition",
        nodes.field_body: "field",
        nodes.entry: None,
        nodes.system_message: None,
    }
    for node in tree.findall(lambda n: isinstance(n, (nodes.paragraph, nodes.row))):
        if isinstance(node, nodes.row):
            cells = [e.astext() for e in node.children]
            if all("\n" not in c and c for c in cells):
                yield "table row", "\x00" + r"[ \t]*\|?[ \t]*".join(map(re.escape, cells))
            continue
        kind = kinds.get(type(node.parent), "paragraph")
        if kind and node.rawsource:
            yield kind, node.rawsource
    for item in tree.findall(nodes.definition_list_item):
        if item.rawsource:
            yield "definition-list item", item.rawsource
