"""HTML to a Markdown rendition, through lxml's HTML parser (the tree a browser would build).

What is kept, as Markdown: ``h1``-``h6`` as ATX headings of that level; ``p``, ``div`` and
other blocks as paragraphs (inline markup as its plain text, whitespace collapsed as a
browser collapses it); ``pre`` as fenced code (language from a ``language-``/``lang-``/
``highlight-`` class); ``table`` as a pipe table (its first row the header); ``ul``/``ol``
as lists, a code block or table inside an item standing on its own; what a ``blockquote``
holds as blocks of its own (pages indent code with ``blockquote``; a ``>`` on each line
would bury the code block). What is dropped: scripts, styles, forms, embedded media and
page furniture: ``nav``, ``aside``, a page's own ``header``/``footer`` (those not inside an
``article``, ``main`` or ``section``, which HTML gives the banner and contentinfo roles),
elements with an ARIA role of page furniture, ``hidden`` or ``aria-hidden`` elements, and
Sphinx's permalinks (``a.headerlink``).
"""

from __future__ import annotations

import re
from typing import Any

from .rendition import escape_block_start

DROPPED_TAGS = frozenset(
    "head script style noscript template nav aside iframe object embed svg canvas "
    "form button select textarea dialog".split()
)
# ARIA landmark roles of page furniture (navigation bars, site banners, sidebars, search).
DROPPED_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search"})
SECTIONING = frozenset({"article", "main", "section"})
HEADINGS = {f"h{n}": n for n in range(1, 7)}
BLOCKS = frozenset(
    "address article blockquote body center dd details div dl dt fieldset figcaption figure "
    "footer header hgroup hr html li main ol p pre section summary table ul caption".split()
)
_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang|highlight)-([\w+#.-]+)")


def dropped(element: Any) -> bool:
    """Whether ``element`` (and all inside it) is page furniture, not content."""
    tag = element.tag
    if not isinstance(tag, str):
        return True  # comments and processing instructions
    if tag in DROPPED_TAGS:
        return True
    get = element.get
    if get("role") in DROPPED_ROLES or get("hidden") is not None:
        return True
    if get("aria-hidden") == "true" or (tag == "a" and "headerlink" in (get("class") or "")):
        return True
    if tag in ("header", "footer"):
        return not any(a.tag in SECTIONING for a in element.iterancestors())
    return False


def collapse(text: str) -> str:
    """Whitespace runs as one space, as a browser lays out inline text."""
    return " ".join(text.split())


def plain_text(element: Any) -> str:
    """The text inside ``element`` without what :func:`dropped` removes, collapsed."""
    parts: list[str] = []
    _gather(element, parts)
    return collapse("".join(parts))


def _gather(element: Any, parts: list[str]) -> None:
    if element.text:
        parts.append(element.text)
    for child in element:
        if not dropped(child):
            parts.append(" " if child.tag == "br" else "")
            _gather(child, parts)
            parts.append(" " if child.tag in BLOCKS or child.tag in HEADINGS else "")
        if child.tail:
            parts.append(child.tail)


class Builder:
    """Markdown blocks from an element tree, in document order."""

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.inline: list[str] = []

    def markdown(self) -> str:
        self.flush()
        return "".join(block + "\n\n" for block in self.blocks)

    def flush(self) -> None:
        # (empty blocks are dropped here too: a renderer may return "")
        self.blocks[:] = [block for block in self.blocks if block]
        text = collapse("".join(self.inline))
        self.inline.clear()
        if text:
            self.blocks.append(escape_block_start(text))

    def children(self, element: Any) -> None:
        if element.text:
            self.inline.append(element.text)
        for child in element:
            self.walk(child)
            if child.tail:
                self.inline.append(child.tail)

    def walk(self, element: Any) -> None:
        if dropped(element):
            return
        tag = element.tag
        render = _RENDERERS.get(tag)
        if render is not None:
            self.flush()
            block = render(element)
            self.blocks.extend([block] if isinstance(block, str) else block)
        elif tag == "br":
            self.inline.append(" ")
        elif tag in BLOCKS:
            self.flush()
            self.children(element)
            self.flush()
        else:  # inline markup: its text joins the paragraph around it
            self.children(element)


def heading(element: Any) -> str:
    text = plain_text(element)
    return f"{'#' * HEADINGS[element.tag]} {text}" if text else ""


def code_block(element: Any) -> str:
    parts: list[str] = []
    _raw(element, parts)
    code = "".join(parts).strip("\n")
    if not code.strip():
        return ""
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall("`+", code)), default=0))
    return f"{fence}{_language(element)}\n{code}\n{fence}"


def _raw(element: Any, parts: list[str]) -> None:
    """Preformatted text as written (``<br>`` as a line break)."""
    if element.text:
        parts.append(element.text)
    for child in element:
        if child.tag == "br":
            parts.append("\n")
        elif not dropped(child):
            _raw(child, parts)
        if child.tail:
            parts.append(child.tail)


def _language(pre: Any) -> str:
    candidates = [pre, *pre.iterchildren("code"), *list(pre.iterancestors())[:2]]
    for element in candidates:
        found = _LANGUAGE.search(element.get("class") or "")
        if found:
            return found.group(1)
    return ""


def table(element: Any) -> str:
    rows = []
    for row in element.iter("tr"):
        if next(row.iterancestors("table"), None) is not element or dropped(row):
            continue  # a nested table's row, or hidden
        cells = [c for c in row if c.tag in ("td", "th") and not dropped(c)]
        rows.append([plain_text(c).replace("|", "\\|") for c in cells])
    rows = [r for r in rows if any(r)]
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    lines = ["| " + " | ".join(r + [""] * (width - len(r))) + " |" for r in rows]
    lines.insert(1, "|" + " --- |" * width)
    caption = next(element.iterchildren("caption"), None)
    title = plain_text(caption) if caption is not None else ""
    return (title + "\n\n" if title else "") + "\n".join(lines)


def items(element: Any) -> list[str]:
    """A list: each item's blocks, the first after its marker, the others indented; code
    blocks, tables and headings inside an item stand as blocks of their own between runs
    of the list, so that they stay whole (the Markdown chunker cuts a long item inside)."""
    ordered = element.tag == "ol"
    start = int(element.get("start", "1")) if (element.get("start") or "").isdigit() else 1
    blocks: list[str] = []
    run: list[str] = []  # the lines of the list since the last block that stands alone
    for number, item in enumerate(element.iterchildren("li"), start):
        if dropped(item):
            continue
        inner = Builder()
        inner.children(item)
        inner.flush()
        marker = f"{number}. " if ordered else "- "
        kept: list[str] = []
        for block in [*inner.blocks, None]:
            if block is None or block.startswith(("```", "|", "#")):
                if kept or (block is None and marker.strip()):
                    run.append(_item(marker, kept))
                    marker, kept = " " * len(marker), []
                if block is not None:
                    blocks.extend(["\n".join(run), block] if run else [block])
                    run = []
            else:
                kept.append(block)
    return [*blocks, "\n".join(run)] if run else blocks


def _item(marker: str, blocks: list[str]) -> str:
    """An item's blocks after its marker (or after spaces, going on after a block)."""
    pad = " " * len(marker)
    text = "\n\n".join(blocks).replace("\n", "\n" + pad).replace(pad + "\n", "\n")
    return (marker + text).rstrip()


_RENDERERS = {
    **dict.fromkeys(HEADINGS, heading),
    "pre": code_block,
    "table": table,
    "ul": items,
    "ol": items,
}


def render_html(root: Any) -> str:
    """The Markdown rendition of a parsed document (lxml's ``html`` element)."""
    builder = Builder()
    builder.walk(root)
    return builder.markdown()
