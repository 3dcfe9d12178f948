"""PDFs written at test time with fpdf2 from a known source: headings of three levels,
paragraphs that run over page breaks, words hyphenated at line ends, a running header with
the page number in it and a page-number footer. What was written (each paragraph's text,
heading path and first page) is the judge of what ``PdfChunker`` reads back."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

WORDS = (
    "the data model keeps every record in order while readers scan a page of text and "
    "writers append new rows to a log that grows with time so each query finds what it "
    "needs without a full pass over the store"
).split()
LONG_WORDS = (
    "internationalization responsibilities characteristically documentation "
    "implementations synchronization transformational approximately"
).split()
HEADER = "ACME Systems Quarterly Review"
STYLES = {1: ("B", 20), 2: ("B", 15), 3: ("B", 11)}  # heading level: (style, size)
BODY = 11


@dataclass
class Paragraph:
    text: str
    heading_path: tuple[str, ...]
    page: int = 0  # where its first line is (from 1)
    last_page: int = 0
    # the Markdown length of the headings right above it (a heading never ends a chunk,
    # so a paragraph fits a chunk when it fits beside them)
    headings: int = 0


@dataclass
class Written:
    """What a generated PDF holds."""

    data: bytes
    paragraphs: list[Paragraph] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    hyphenated: list[str] = field(default_factory=list)  # words cut at a line end
    code: list[str] = field(default_factory=list)  # the code blocks, in Courier
    code_pages: list[tuple[int, int]] = field(default_factory=list)  # first and last page
    pages: int = 0


def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 16))]
    for _ in range(rng.randint(0, 2)):
        words.insert(rng.randrange(1, len(words)), rng.choice(LONG_WORDS))
    return " ".join(words).capitalize() + "."


CODE = -1  # the level of a code block in an outline


def snippet(rng: random.Random) -> str:
    """A few lines of code, indented, a blank line in some."""
    name = rng.choice(WORDS)
    lines = [f"def {name}_{rng.randint(1, 99)}(rows, limit={rng.randint(1, 9)}):"]
    for _ in range(rng.randint(1, 4)):
        item, field = rng.sample(WORDS, 2)
        lines.append(f"    for {item} in rows[:{rng.randint(1, 50)}]:")
        lines.append(f"        total += {item}.{field} * {rng.randint(2, 9)}")
    if rng.random() < 0.5:
        lines += ["", "    return total"]
    return "\n".join(lines)


def outline(seed: int, sections: int) -> list[tuple[int, str]]:
    """``(level, text)``: level 0 is a paragraph, :data:`CODE` a code block."""
    rng = random.Random(seed)
    items: list[tuple[int, str]] = []
    for s in range(sections):
        items.append((1, f"Chapter {s + 1} {rng.choice(WORDS).title()} Systems"))
        for sub in range(rng.randint(1, 3)):
            items.append((2, f"Section {s + 1}.{sub + 1} Design of {rng.choice(WORDS)}"))
            if rng.random() < 0.4:
                items.append((3, f"Notes on {rng.choice(WORDS)} handling"))
            for _ in range(rng.randint(1, 4)):
                items.append((0, " ".join(sentence(rng) for _ in range(rng.randint(1, 6)))))
                if rng.random() < 0.25:
                    items.append((CODE, snippet(rng)))
    return items


def write_pdf(
    items: list[tuple[int, str]], *, header: bool = True, indent: float = 6, columns: int = 1
) -> Written:
    """The PDF of ``items`` (see :func:`outline`), laid out line by line, the first line
    of a paragraph indented by ``indent`` mm (as typeset text is: a paragraph that ends
    at the foot of a page and one that goes on look alike without it), in one column or two
    (the second column filled after the first, as a paper's are)."""
    from fpdf import FPDF

    class Document(FPDF):
        column, body_top = 0, 0.0

        def header(self) -> None:
            if header:
                self.set_font("Helvetica", size=9)
                self.cell(0, 8, f"{HEADER} - page {self.page_no()}", align="C")
                self.ln(14)
            self.body_top = self.get_y()

        @property
        def accept_page_break(self) -> bool:  # (a property in fpdf2)
            offset = self.x - self.l_margin  # a line's indentation, kept in the next column
            last = self.column + 1 >= columns
            self.set_column(0 if last else self.column + 1)
            self.set_x(self.l_margin + offset)
            if not last:
                self.set_y(self.body_top)
            return last

        def set_column(self, column: int) -> None:
            self.column = column
            gap = 8
            width = (self.w - 20 - gap * (columns - 1)) / columns
            left = 10 + column * (width + gap)
            self.set_left_margin(left)
            self.set_right_margin(self.w - left - width)

        def footer(self) -> None:
            self.set_y(-15)
            self.set_font("Helvetica", size=9)
            self.cell(0, 10, str(self.page_no()), align="C")

    pdf = Document(format="A4")
    pdf.set_auto_page_break(True, margin=22)
    pdf.set_column(0)
    pdf.add_page()
    written = Written(b"")
    path: list[str] = []
    above = 0
    for level, text in items:
        if level == CODE:
            pdf.set_font("Courier", "", 10)
            first = pdf.page_no()
            for line in text.split("\n"):
                indent = len(line) - len(line.lstrip())
                if pdf.will_page_break(5):  # (moves to the next column, or asks for a page)
                    pdf.add_page(same=True)
                pdf.set_x(pdf.l_margin + pdf.get_string_width(" " * indent))
                pdf.cell(0, 5, line.strip(), new_x="LMARGIN", new_y="NEXT")
            written.code.append(text)
            written.code_pages.append((first, pdf.page_no()))
            pdf.ln(4)
            continue
        if level:
            style, size = STYLES[level]
            pdf.set_font("Helvetica", style, size)
            pdf.ln(4)
            pdf.cell(0, size * 0.55, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
            path[level - 1 :] = [text]
            written.headings.append((level, text))
            above += level + 1 + len(text) + 2
            continue
        pdf.set_font("Helvetica", "", BODY)
        paragraph = Paragraph(text, tuple(path), headings=above)
        above = 0
        for i, line in enumerate(wrap(pdf, text, pdf.epw, written.hyphenated, indent)):
            if i == 0 and indent:
                pdf.set_x(pdf.l_margin + indent)
            pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
            if i == 0:
                paragraph.page = pdf.page_no()
        paragraph.last_page = pdf.page_no()
        written.paragraphs.append(paragraph)
        pdf.ln(4)
    written.pages = pdf.page_no()
    written.data = bytes(pdf.output())
    return written


def wrap(pdf, text: str, width: float, hyphenated: list[str], indent: float = 0) -> list[str]:
    """Greedy lines of ``text`` no wider than ``width`` (the first ``indent`` less); a long
    word that does not fit is hyphenated when its first part does."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        width_now = width - (indent if not lines else 0)
        candidate = f"{line} {word}".strip()
        if pdf.get_string_width(candidate) <= width_now:
            line = candidate
            continue
        if len(word) >= 10 and word.isalpha() and word.islower():
            cut = max(
                (
                    i
                    for i in range(4, len(word) - 3)
                    if pdf.get_string_width(f"{line} {word[:i]}-") <= width_now
                ),
                default=0,
            )
            if cut:
                lines.append(f"{line} {word[:cut]}-")
                hyphenated.append(word)
                line = word[cut:]
                continue
        lines.append(line)
        line = word
    return [*lines, line] if line else lines
