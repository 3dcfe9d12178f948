"""The judge of the HTML tests and benchmark, independent of ``ferrochunk.formats``: what a
page holds as lxml sees it (headings and their nesting, paragraphs, code, tables) and what
must not reach a chunk (script, style and navigation text), read with XPath by the rules
docs/formats.md states; and real pages, the HTML manual in PLY's sdist (PyPI, fetched with
``pip download`` into a cache once; tests skip, saying why, when it cannot be had)."""

from __future__ import annotations

import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

from sdists import Unavailable, fetch_sdist  # noqa: F401 (Unavailable: what real_pages raises)

HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
CACHE = Path(sys.prefix) / "ferrochunk-cache"
SDIST = ("ply", "3.11")  # its doc/ply.html and doc/internal.html: a real 250 KB manual
# docs/formats.md: what HtmlChunker drops, as XPath.
FURNITURE = (
    "//head | //script | //style | //noscript | //template | //nav | //aside | //iframe"
    " | //object | //embed | //svg | //canvas | //form | //button | //select | //textarea"
    " | //dialog | //*[@hidden] | //*[@aria-hidden='true'] | //a[contains(@class, 'headerlink')]"
    " | //*[@role='navigation' or @role='banner' or @role='contentinfo'"
    " or @role='complementary' or @role='search']"
    " | //header[not(ancestor::article or ancestor::main or ancestor::section)]"
    " | //footer[not(ancestor::article or ancestor::main or ancestor::section)]"
)


def normalize(text: str) -> str:
    """Text compared without whitespace runs and Markdown's backslash escapes."""
    return " ".join(text.replace("\\", "").split())


@dataclass
class Page:
    """What lxml finds in a page once its furniture is gone."""

    headings: list[tuple[int, str]] = field(default_factory=list)
    # (normalized text, the heading path above it, the length of the heading line right
    # before it: a heading never ends a chunk, so the two must fit together) of every <p>
    paragraphs: list[tuple[str, tuple[str, ...], int]] = field(default_factory=list)
    code: list[str] = field(default_factory=list)  # <pre> texts, lines stripped
    furniture: list[str] = field(default_factory=list)  # normalized texts of what is dropped
    text: str = ""  # the normalized text of what is kept


def read_page(markup: str | bytes) -> Page:
    import lxml.html

    root = lxml.html.document_fromstring(markup)
    page = Page()
    for element in root.xpath(FURNITURE):
        if element.getparent() is not None:
            page.furniture.append(normalize(element.text_content()))
            element.drop_tree()
    for br in root.iter("br"):
        br.tail = " " + (br.tail or "")
    page.text = normalize(root.text_content())
    path: list[tuple[int, str]] = []
    after = 0  # the length of the heading line just before, if it is just before
    for element in root.iter(*HEADINGS, "p", "pre", "table", "ul", "ol", "dl"):
        text = normalize(element.text_content())
        if element.tag == "pre":
            page.code.append(code_lines(element.text_content()))
        elif element.tag == "p" and text:
            page.paragraphs.append((text, tuple(t for _, t in path), after))
        elif element.tag in HEADINGS and text:
            level = int(element.tag[1])
            path = [(n, t) for n, t in path if n < level] + [(level, text)]
            page.headings.append((level, text))
            after = level + 1 + len(text) + 2
            continue
        after = 0 if text else after
    return page


def code_lines(text: str) -> str:
    """Code compared line by line without trailing blanks, or blank lines at its ends."""
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def real_pages(cache: Path = CACHE) -> dict[str, bytes]:
    """``{name: bytes}`` of the HTML files in the pinned sdist, from the cache or PyPI."""
    name, version = SDIST
    archive = fetch_sdist(f"{name}=={version}", cache, timeout=120)
    with tarfile.open(archive) as tar:
        return {
            m.name.rsplit("/", 1)[-1]: tar.extractfile(m).read()  # type: ignore[union-attr]
            for m in tar.getmembers()
            if m.isfile() and m.name.endswith(".html")
        }
