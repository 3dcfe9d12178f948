"""The Markdown block scanner (``rust/markdown/blocks.rs``, mirrored by
``reference/markdown/blocks.py``) on CommonMark's container and paragraph rules, judged by
markdown-it-py through the chunker's output (heading paths; fences kept whole when they
fit). Rust == reference on every input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_markdown import both, check_against_parser, check_spans, code_line, fence_char, sentence

# -- fences in nested list items -----------------------------------------------------------


@st.composite
def nested_list(draw, column: int = 0, depth: int = 0) -> list[str]:
    """Lines of a list up to three deep: a nested list starts at its parent's content
    column or four columns in (the common editor style); some items hold a fence at their
    content column, right after the item's text or after a blank line."""
    lines = []
    for k in range(draw(st.integers(1, 3))):
        marker = draw(st.sampled_from(["-", "*", f"{k + 1}.", f"{k + 1})"]))
        content = column + len(marker) + 1
        lines.append(" " * column + f"{marker} {draw(sentence)}")
        if draw(st.booleans()):
            fence = draw(fence_char)
            body = draw(st.lists(code_line, max_size=4))
            gap = [""] if draw(st.booleans()) else []
            pad = " " * content
            lines += gap + [pad + line if line else "" for line in [fence, *body, fence]]
        if depth < 2 and draw(st.booleans()):
            child = draw(st.sampled_from([content, column + 4]))
            lines += draw(nested_list(child, depth + 1))
    return lines


@given(nested_list(), st.sampled_from(["", "\n\n# After\n\ntext after"]), st.integers(8, 200))
def test_fence_in_nested_list_item_is_kept_whole(lines, tail, size) -> None:
    text = "\n".join(lines) + tail + "\n"
    chunks = both(text, chunk_size=size, min_size=0)
    check_spans(text, chunks, size)
    check_against_parser(text, chunks, size)


# -- link reference definitions before a setext underline ----------------------------------

definition = st.sampled_from(
    [
        "[d]: https://example.com/docs",
        '[d]: /url "title"',
        "[Foo bar]: <my url> 'x'",
        "[a\\]b]: /u (t)",
        "  [x]: <>",
        # not definitions: the paragraph can be a heading
        '[d]: /url "t" junk',
        "[d] : /url",
        "[ ]: /x",
        "[d]: a b",
    ]
)


@given(
    st.lists(definition, min_size=1, max_size=3),
    st.lists(sentence, max_size=2),
    st.sampled_from(["---", "===", "--", "-----"]),
)
def test_link_definitions_make_no_setext_heading(definitions, text_lines, underline) -> None:
    """CommonMark: definitions that open a paragraph are not its text; with nothing left
    there is no heading (``---`` is then a thematic break, ``===`` text)."""
    lines = ["# Guide", "", *definitions, *text_lines, underline, "", "Footer text.", ""]
    text = "\n".join(lines)
    chunks = both(text, chunk_size=20, min_size=0)
    check_spans(text, chunks, 20)
    check_against_parser(text, chunks, 20)


# -- a list item without a paragraph takes no lazy line ------------------------------------

AFTER_ITEM = "Installation\n---\n\nBody text here.\n"


@pytest.mark.parametrize(
    "item",
    ["-\n", "1. <div>\n", "- # Setup\n", "- ```\n  code\n  ```\n", "- a\n\n      code\n"],
    ids=["empty", "html", "atx", "fence", "indented-code"],
)
def test_setext_heading_after_list_item_without_paragraph(item) -> None:
    """CommonMark: only paragraph text takes a lazy continuation line, so the line after
    an empty item, an HTML block, a heading or code starts a block of its own."""
    text = item + AFTER_ITEM
    chunks = both(text, chunk_size=20, min_size=0)
    check_spans(text, chunks, 20)
    check_against_parser(text, chunks, 20)
