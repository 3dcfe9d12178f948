"""``langchain_text_splitters.jsx``: ``JSFrameworkTextSplitter`` for React, Vue, Svelte."""

from __future__ import annotations

import re
from typing import Any, Optional

from ..split.textsplitter import RecursiveCharacterTextSplitter

# Opening tags (self-closing ones too, as LangChain's pattern reads them).
_OPENING_TAG = re.compile(r"<\s*([a-zA-Z0-9]+)[^>]*>")
_JS_SEPARATORS = [
    "\nexport ",
    " export ",
    "\nfunction ",
    "\nasync function ",
    " async function ",
    "\nconst ",
    "\nlet ",
    "\nvar ",
    "\nclass ",
    " class ",
    "\nif ",
    " if ",
    "\nfor ",
    " for ",
    "\nwhile ",
    " while ",
    "\nswitch ",
    " switch ",
    "\ncase ",
    " case ",
    "\ndefault ",
    " default ",
]
_LAST = ["<>", "\n\n", "&&\n", "||\n"]


class JSFrameworkTextSplitter(RecursiveCharacterTextSplitter):
    """Splits JSX, Vue and Svelte code at JavaScript statements and at the component tags
    the text opens (Rust engine; the tags are found per text, so each call has its own
    separators and ``self._separators`` never grows).

    >>> from ferrochunk.langchain import JSFrameworkTextSplitter
    >>> code = "<App>\\n  <p>x</p>\\n</App>\\nconst y = 1;"
    >>> JSFrameworkTextSplitter(chunk_size=30).split_text(code)
    ['<App>\\n  <p>x</p>\\n</App>', 'const y = 1;']
    """

    def __init__(
        self,
        separators: Optional[list[str]] = None,
        chunk_size: int = 2000,
        chunk_overlap: int = 0,
        **kwargs: Any,
    ) -> None:
        super().__init__(chunk_size=chunk_size, chunk_overlap=chunk_overlap, **kwargs)
        self._separators = separators or []

    def split_text(self, text: str) -> list[str]:
        """Split at the user's separators, JavaScript statements, then component tags."""
        tags = dict.fromkeys(_OPENING_TAG.findall(text))  # first occurrence order
        components = [f"<{tag}" for tag in tags]
        return self._split_text(text, self._separators + _JS_SEPARATORS + components + _LAST)


__all__ = ["JSFrameworkTextSplitter"]
