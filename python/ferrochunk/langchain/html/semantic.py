"""``HTMLSemanticPreservingSplitter``: header sections of HTML with chosen elements (tables,
lists, ...) kept whole, links and media turned into Markdown, long sections cut by the
recursive splitter (Rust engine here).

BeautifulSoup reads and edits the HTML exactly as in LangChain; the walk that gathers each
section's text follows LangChain's order step by step (placeholders ``PRESERVED_<n>``
numbered across the whole text, whitespace-only text kept until the final collapse).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Callable, Literal, Optional, Union

from ...documents import BaseDocumentTransformer, Document
from ...split.textsplitter import RecursiveCharacterTextSplitter
from .deps import beta, import_bs4, import_nltk

_NO_BS4 = "Could not import BeautifulSoup. Please install it with 'pip install bs4'."
_SPACES = re.compile(r"\s+")
_PUNCTUATION = re.compile(r"[^\w\s]")


class _Section:
    """What the walk has gathered since the last header."""

    def __init__(self) -> None:
        self.headers: dict[str, str] = {}
        self.content: list[str] = []
        self.preserved: dict[str, str] = {}
        self.count = 0  # placeholders made so far (never reset)


@beta()
class HTMLSemanticPreservingSplitter(BaseDocumentTransformer):
    """Split HTML content preserving semantic structure (LangChain's beta class)."""

    def __init__(
        self,
        headers_to_split_on: list[tuple[str, str]],
        *,
        max_chunk_size: int = 1000,
        chunk_overlap: int = 0,
        separators: Optional[list[str]] = None,
        elements_to_preserve: Optional[list[str]] = None,
        preserve_links: bool = False,
        preserve_images: bool = False,
        preserve_videos: bool = False,
        preserve_audio: bool = False,
        custom_handlers: Optional[dict[str, Callable[[Any], str]]] = None,
        stopword_removal: bool = False,
        stopword_lang: str = "english",
        normalize_text: bool = False,
        external_metadata: Optional[dict[str, str]] = None,
        allowlist_tags: Optional[list[str]] = None,
        denylist_tags: Optional[list[str]] = None,
        preserve_parent_metadata: bool = False,
        keep_separator: Union[bool, Literal["start", "end"]] = True,
    ) -> None:
        import_bs4(_NO_BS4)
        self._headers_to_split_on = sorted(headers_to_split_on)
        self._max_chunk_size = max_chunk_size
        self._elements_to_preserve = elements_to_preserve or []
        self._preserve_links = preserve_links
        self._preserve_images = preserve_images
        self._preserve_videos = preserve_videos
        self._preserve_audio = preserve_audio
        self._custom_handlers = custom_handlers or {}
        self._stopword_removal = stopword_removal
        self._stopword_lang = stopword_lang
        self._normalize_text = normalize_text
        self._external_metadata = external_metadata or {}
        self._allowlist_tags = allowlist_tags
        self._preserve_parent_metadata = preserve_parent_metadata
        self._keep_separator = keep_separator
        if allowlist_tags:
            header_tags = [header[0] for header in headers_to_split_on]
            self._allowlist_tags = list(set(allowlist_tags + header_tags))
        self._denylist_tags = denylist_tags
        if denylist_tags:
            self._denylist_tags = [
                tag for tag in denylist_tags if tag not in [h[0] for h in headers_to_split_on]
            ]
        sizes: dict[str, Any] = {"chunk_size": max_chunk_size, "chunk_overlap": chunk_overlap}
        if separators:
            sizes["separators"] = separators
        self._recursive_splitter = RecursiveCharacterTextSplitter(
            keep_separator=keep_separator, **sizes
        )
        if self._stopword_removal:
            nltk = import_nltk()
            nltk.download("stopwords")
            self._stopwords = set(nltk.corpus.stopwords.words(self._stopword_lang))

    def split_text(self, text: str) -> list[Document]:
        """Documents for one HTML text."""
        beautiful_soup, _, _ = import_bs4(_NO_BS4)
        soup = beautiful_soup(text, "html.parser")
        self._process_media(soup)
        if self._preserve_links:
            self._process_links(soup)
        if self._allowlist_tags or self._denylist_tags:
            self._filter_tags(soup)
        return self._process_html(soup)

    def transform_documents(self, documents: Sequence[Document], **kwargs: Any) -> list[Document]:
        """Split each document (its metadata under the split's when asked to keep it)."""
        out = []
        for doc in documents:
            splits = self.split_text(doc.page_content)
            if self._preserve_parent_metadata:
                splits = [
                    Document(page_content=s.page_content, metadata={**doc.metadata, **s.metadata})
                    for s in splits
                ]
            out.extend(splits)
        return out

    # -- editing the soup ------------------------------------------------------------------

    def _process_media(self, soup: Any) -> None:
        """Images, videos and audio (as asked) become ``![kind:src](src)`` text wrappers."""
        for wanted, kind, tag in (
            (self._preserve_images, "image", "img"),
            (self._preserve_videos, "video", "video"),
            (self._preserve_audio, "audio", "audio"),
        ):
            if not wanted:
                continue
            for element in soup.find_all(tag):
                src = element.get("src", "")
                wrapper = soup.new_tag("media-wrapper")
                wrapper.string = f"![{kind}:{src}]({src})"
                element.replace_with(wrapper)

    @staticmethod
    def _process_links(soup: Any) -> None:
        """Links become ``[text](href)`` strings."""
        _, _, navigable_string = import_bs4(_NO_BS4)
        for a_tag in soup.find_all("a"):
            href = a_tag.get("href", "")
            a_tag.replace_with(navigable_string(f"[{a_tag.get_text(strip=True)}]({href})"))

    def _filter_tags(self, soup: Any) -> None:
        if self._allowlist_tags:
            for tag in soup.find_all(True):
                if tag.name not in self._allowlist_tags:
                    tag.decompose()
        if self._denylist_tags:
            for tag in soup.find_all(self._denylist_tags):
                tag.decompose()

    def _normalize_and_clean_text(self, text: str) -> str:
        if self._normalize_text:
            text = _PUNCTUATION.sub("", text.lower())
            text = _SPACES.sub(" ", text).strip()
        if self._stopword_removal:
            text = " ".join(word for word in text.split() if word not in self._stopwords)
        return text

    # -- walking ---------------------------------------------------------------------------

    def _process_html(self, soup: Any) -> list[Document]:
        _, tag_cls, _ = import_bs4(_NO_BS4)
        documents: list[Document] = []
        section = _Section()
        self._walk(soup.find_all(None, recursive=False), section, documents, tag_cls)
        if section.content:
            documents.extend(self._section_documents(section))
        return documents

    def _walk(
        self, elements: Any, section: _Section, documents: list[Document], tag_cls: Any
    ) -> None:
        """LangChain's ``_process_element``: headers close the section, preserved elements
        become placeholders, other elements are descended into (their own text after
        their children's) or, without child tags, taken as text."""
        header_names = dict(self._headers_to_split_on)
        for elem in elements:
            if elem.name in header_names:
                if section.content:
                    documents.extend(self._section_documents(section))
                    section.content.clear()
                    section.preserved.clear()
                section.headers = {header_names[elem.name]: elem.get_text(strip=True)}
            elif elem.name in self._elements_to_preserve:
                placeholder = f"PRESERVED_{section.count}"
                section.preserved[placeholder] = self._element_text(elem, tag_cls)
                section.content.append(placeholder)
                section.count += 1
            else:
                children = elem.find_all(None, recursive=False)
                if children:
                    self._walk(children, section, documents, tag_cls)
                    own = " ".join(elem.find_all(string=True, recursive=False))
                    if own:
                        section.content.append(self._normalize_and_clean_text(own))
                else:
                    text = self._element_text(elem, tag_cls)
                    if text:
                        section.content.append(text)

    def _element_text(self, element: Any, tag_cls: Any) -> str:
        """An element's text: a custom handler's, else its children's joined by spaces."""
        if isinstance(element, tag_cls):
            if element.name in self._custom_handlers:
                return self._custom_handlers[element.name](element)
            text = ""
            for child in element.children:
                child_text = self._element_text(child, tag_cls).strip()
                if text and child_text:
                    text += " "
                text += child_text
            return self._normalize_and_clean_text(text)
        if hasattr(element, "string") and isinstance(element.string, str):
            return self._normalize_and_clean_text(element.string)
        return ""

    def _section_documents(self, section: _Section) -> list[Document]:
        return self._create_documents(section.headers, " ".join(section.content), section.preserved)

    # -- documents -------------------------------------------------------------------------

    def _create_documents(
        self, headers: dict[str, str], content: str, preserved_elements: dict[str, str]
    ) -> list[Document]:
        content = _SPACES.sub(" ", content).strip()
        metadata = {**headers, **self._external_metadata}
        if len(content) <= self._max_chunk_size:
            page_content = self._reinsert_preserved_elements(content, preserved_elements)
            return [Document(page_content=page_content, metadata=metadata)]
        return self._further_split_chunk(content, metadata, preserved_elements)

    def _further_split_chunk(
        self, content: str, metadata: dict[Any, Any], preserved_elements: dict[str, str]
    ) -> list[Document]:
        """Cut by the recursive splitter; every piece shares the section's metadata dict."""
        out = []
        for split in self._recursive_splitter.split_text(content):
            text = self._reinsert_preserved_elements(split, preserved_elements).strip()
            if text:
                out.append(Document(page_content=text, metadata=metadata))
        return out

    @staticmethod
    def _reinsert_preserved_elements(content: str, preserved_elements: dict[str, str]) -> str:
        """Placeholders back to their elements' text, latest first (``PRESERVED_10``
        before ``PRESERVED_1``)."""
        for placeholder, preserved in reversed(preserved_elements.items()):
            content = content.replace(placeholder, preserved.strip())
        return content


__all__ = ["HTMLSemanticPreservingSplitter"]
