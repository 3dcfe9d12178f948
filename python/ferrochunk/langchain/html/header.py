"""``HTMLHeaderTextSplitter``: documents per HTML element or per header section.

BeautifulSoup (``html.parser``) reads the HTML exactly as in LangChain and the same
depth-first walk decides what belongs to which header; ours tracks each node's depth on the
walk's stack instead of counting its parents again at every node.
"""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from io import StringIO
from typing import IO, Any, Optional, Union

from ...documents import Document
from .deps import deprecated, import_bs4

_NO_BS4 = "Unable to import BeautifulSoup. Please install via `pip install bs4`."


class _Chunk:
    """Texts waiting to become one aggregated document, under the headers in force."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def close(self, headers: dict[str, tuple[str, int, int]]) -> Optional[Document]:
        if not self.lines:
            return None
        text = "  \n".join(line for line in self.lines if line.strip())
        self.lines.clear()
        if not text.strip():
            return None
        return Document(page_content=text, metadata={k: v[0] for k, v in headers.items()})


def _level(tag: str) -> int:
    """``h2`` -> 2; a header tag without a number sorts after all (LangChain's 9999)."""
    try:
        return int(tag[1:])
    except ValueError:
        return 9999


class HTMLHeaderTextSplitter:
    """Splits HTML into documents under the headers (``h1``, ``h2``, ...) they follow.

    >>> from ferrochunk.langchain import HTMLHeaderTextSplitter
    >>> s = HTMLHeaderTextSplitter([("h1", "Title")])
    >>> [(d.page_content, d.metadata) for d in s.split_text("<h1>A</h1><p>x</p><p>y</p>")]
    [('A', {'Title': 'A'}), ('x  \\ny', {'Title': 'A'})]
    """

    def __init__(
        self, headers_to_split_on: list[tuple[str, str]], return_each_element: bool = False
    ) -> None:
        self.headers_to_split_on = sorted(headers_to_split_on, key=lambda x: int(x[0][1:]))
        self.header_mapping = dict(self.headers_to_split_on)
        self.header_tags = [tag for tag, _ in self.headers_to_split_on]
        self.return_each_element = return_each_element

    def split_text(self, text: str) -> list[Document]:
        """Documents for an HTML string."""
        return self.split_text_from_file(StringIO(text))

    @deprecated(
        since="1.1.2",
        removal="2.0.0",
        package="langchain-text-splitters",  # the warning names LangChain's version
        addendum="Fetch the HTML content from the URL yourself and pass it to `split_text`.",
    )
    def split_text_from_url(self, url: str, timeout: int = 10, **kwargs: Any) -> list[Document]:
        """Documents for the HTML at ``url`` (fetched with LangChain's SSRF-safe client)."""
        from langchain_core._security._transport import ssrf_safe_client

        with ssrf_safe_client() as client:
            response = client.get(url, timeout=timeout)
            response.raise_for_status()
            return self.split_text(response.text)

    def split_text_from_file(self, file: Union[str, IO[str]]) -> list[Document]:
        """Documents for an HTML file (a path, read as UTF-8, or an open text file)."""
        if isinstance(file, str):
            html_content = pathlib.Path(file).read_text(encoding="utf-8")
        else:
            html_content = file.read()
        return list(self._generate_documents(html_content))

    def _generate_documents(self, html_content: str) -> Iterator[Document]:
        beautiful_soup, tag_cls, _ = import_bs4(_NO_BS4)
        soup = beautiful_soup(html_content, "html.parser")
        body = soup.body or soup
        # header name -> (text, level, DOM depth), in the order they were set
        active: dict[str, tuple[str, int, int]] = {}
        chunk = _Chunk()
        stack = [(body, len(list(body.parents)))]
        while stack:
            node, depth = stack.pop()
            children = list(node.children)
            stack.extend((c, depth + 1) for c in reversed(children) if isinstance(c, tag_cls))
            tag = getattr(node, "name", None)
            if not tag:
                continue
            texts = (str(s).strip() for s in node.find_all(string=True, recursive=False))
            node_text = " ".join(t for t in texts if t)
            if not node_text:
                continue
            if tag in self.header_tags:
                if not self.return_each_element:
                    doc = chunk.close(active)
                    if doc:
                        yield doc
                level = _level(tag)
                for key in [k for k, (_, lvl, _) in active.items() if lvl >= level]:
                    del active[key]
                active[self.header_mapping[tag]] = (node_text, level, depth)
                yield Document(
                    page_content=node_text, metadata={k: v[0] for k, v in active.items()}
                )
                continue
            for key in [k for k, (_, _, d) in active.items() if depth < d]:
                del active[key]
            if self.return_each_element:
                yield Document(
                    page_content=node_text, metadata={k: v[0] for k, v in active.items()}
                )
            else:
                chunk.lines.append(node_text)
        if not self.return_each_element:
            doc = chunk.close(active)
            if doc:
                yield doc


__all__ = ["HTMLHeaderTextSplitter"]
