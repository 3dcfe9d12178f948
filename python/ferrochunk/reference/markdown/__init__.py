"""Markdown structure in pure Python (mirrors ``rust/markdown/``): :mod:`.lines` and
:mod:`.blocks` (block structure), :mod:`.chunk`, :mod:`.chunker` (packing, and the reference
``MarkdownChunker``), :mod:`.overlap`, :mod:`.parent`, :mod:`.build` (ids and metadata),
:mod:`.header` (LangChain's header splitter)."""
