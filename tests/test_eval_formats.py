"""The boundary judge for reStructuredText and AsciiDoc (ferrochunk/eval/formats.py) and the
dangling-heading measure, on small hand-made texts whose answers are known."""

from __future__ import annotations

from ferrochunk.eval.boundaries import boundary_measures, ends_mid_sentence
from ferrochunk.eval.formats import code_and_tables, ends_with_heading

RST = "Intro line\nwrapped here\n\nExample::\n\n    code\n    more\n\n- item one\n- item two\n"
ADOC = "== Title\n\nText here\n\n----\ncode\n----\n\nNAME\n----\nname line\n"


def test_rst_block_starts_and_code() -> None:
    cut = RST.index("wrapped")  # a chunk ending after "Intro line": inside a paragraph
    assert ends_mid_sentence(RST, cut - 1, RST[: cut - 1], "rst")
    end = RST.index("- item two") - 1  # before the next list item: a block start
    assert not ends_mid_sentence(RST, end, RST[:end], "rst")
    ((a, b),) = code_and_tables("rst", RST)
    assert RST[a:b] == "code\n    more"


def test_asciidoc_delimited_code_not_title_underlines() -> None:
    ((a, b),) = code_and_tables("asciidoc", ADOC)  # "NAME\n----" is a title, not a block
    assert ADOC[a:b] == "----\ncode\n----"
    end = ADOC.index("----\ncode") + len("----\ncode\n----")
    assert not ends_mid_sentence(ADOC, end, ADOC[:end], "asciidoc")


def test_dangling_headings() -> None:
    assert ends_with_heading("markdown", "text\n\n## Next")
    assert ends_with_heading("markdown", "text\n\nNext\n----")
    assert not ends_with_heading("markdown", "text\n\n---")  # a rule after a blank line
    assert ends_with_heading("rst", "text\n\nNext\n====")
    assert ends_with_heading("asciidoc", "text\n\n=== Next")
    assert not ends_with_heading("rst", "text ends here.")
    text = "# A\n\nBody.\n\n# B\n\nMore.\n"
    spans = [(0, text.index("# B") + 3), (text.index("More"), len(text) - 1)]
    m = boundary_measures([text], [spans], 100)
    assert m["dangling_headings_pct"] == 50.0


def test_asciidoc_container_closers_are_not_titles() -> None:
    text = "Intro.\n\n=====\n+----+\n| ab |\n+----+\n=====\n\nMore text.\n"
    end = text.index("\n\nMore")
    spans = [(0, end), (end + 2, len(text) - 1)]
    assert ends_with_heading("asciidoc", text[:end])  # alone, the last lines look like one
    m = boundary_measures([text], [spans], 100, formats=["asciidoc"])
    assert m["dangling_headings_pct"] == 0.0
    title = "Intro.\n\nA Title\n=======\n\nMore text.\n"
    end = title.index("\n\nMore")
    spans = [(0, end), (end + 2, len(title) - 1)]
    m = boundary_measures([title], [spans], 100, formats=["asciidoc"])
    assert m["dangling_headings_pct"] == 50.0
