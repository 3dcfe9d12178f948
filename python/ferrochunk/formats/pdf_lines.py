"""The text lines of a PDF, in pdfium's reading order, with what layout needs of each: its
page, font size, weight, left edge and vertical position (pypdfium2's raw text-page API,
one call per line end rather than per character, so 100 pages read in a fraction of a
second)."""

from __future__ import annotations

import ctypes
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

# pdfium marks a word it joined across a line end at the hyphen (U+FFFE; \x02 in older
# builds) and drops the line break: the hyphen goes, the word is whole.
_JOINED = str.maketrans("", "", "\ufffe\x02\x00")
_HYPHENS = ("\ufffe", "\x02")
_LINE = re.compile(r"[^\r\n\ufffe\x02]+")
# (cmbx, cmssbx: TeX's Computer Modern bold extended; PDFium gives them a weight near 550)
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demi", "cmbx", "cmssbx", "cmb10")
_MONO_NAMES = ("mono", "courier", "typewriter", "cmtt", "consol", "menlo", "lmtt", "sfmono")
_FIXED_PITCH = 1  # the FixedPitch flag of a PDF font descriptor
_NUMBERED = re.compile(r"\d{1,5}\s")


@dataclass(frozen=True)
class Line:
    """One line of text as pdfium reads it (coordinates in points, y upwards)."""

    page: int  # from 0
    text: str  # without the line break; hyphenated words pdfium joined are whole
    size: float  # font size of its first character
    bold: bool  # its first and last characters are bold
    mono: bool  # ... and monospaced (code)
    x0: float  # left edge of its first character
    x1: float  # right edge of its last character
    top: float  # top of its first character (the font's ascent)
    first_bottom: float  # bottom of its first character (the font's descent)
    bottom: float  # bottom of its last character (lower when pdfium joined two lines)
    page_height: float
    page_width: float


def read_lines(pdfium: Any, data: bytes) -> tuple[list[list[Line]], int]:
    """The lines of each page, and how many characters the PDF's text layer has."""
    raw = pdfium.raw
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        raise ValueError(f"cannot open the PDF: {error} (is it a PDF, and unencrypted?)") from None
    pages, characters = [], 0
    try:
        for number in range(len(document)):
            page = document[number]
            width, height = page.get_size()
            textpage = page.get_textpage()
            try:
                text = _page_text(raw, textpage)
                characters += len(text.strip())
                pages.append(list(_lines(raw, textpage.raw, text, number, (width, height))))
            finally:
                textpage.close()
                page.close()
    finally:
        document.close()
    return pages, characters


def _page_text(raw: Any, textpage: Any) -> str:
    """The page's text, one code point per pdfium character index (a character outside the
    BMP takes two indices: its second is a NUL, removed with the markers)."""
    count = raw.FPDFText_CountChars(textpage.raw)
    text = textpage.get_text_range() if count > 0 else ""
    if len(text) == count:
        return text
    units = [raw.FPDFText_GetUnicode(textpage.raw, i) for i in range(count)]
    chars = []
    for i, unit in enumerate(units):
        if 0xD800 <= unit < 0xDC00 and i + 1 < count and 0xDC00 <= units[i + 1] < 0xE000:
            chars.append(chr(0x10000 + ((unit - 0xD800) << 10) + (units[i + 1] - 0xDC00)))
        elif 0xDC00 <= unit < 0xE000 and chars and ord(chars[-1][0]) >= 0x10000:
            chars.append("\x00")
        else:
            chars.append(chr(unit) if not 0xD800 <= unit < 0xE000 else "\ufffd")
    return "".join(chars)


def _lines(
    raw: Any, textpage: Any, text: str, page: int, page_size: tuple[float, float]
) -> Iterator[Line]:
    """The visual lines of the page: pdfium's lines, split again where pdfium ran two
    visual lines together (the text drops by a line, found by bisection)."""
    rect = raw.FS_RECTF()
    name = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    by_flags = ctypes.byref(flags)

    def box(index: int) -> tuple[float, float, float, float]:
        raw.FPDFText_GetLooseCharBox(textpage, index, rect)
        return rect.left, rect.top, rect.right, rect.bottom

    def font(index: int) -> tuple[bool, bool]:
        """Whether the character's font is bold, and whether it is monospaced."""
        raw.FPDFText_GetFontInfo(textpage, index, name, 128, by_flags)
        bold, mono = _font_names(name.value)
        bold = bold or raw.FPDFText_GetFontWeight(textpage, index) >= 600
        return bold, mono or bool(flags.value & _FIXED_PITCH)

    def line(first: int, last: int, hyphen: bool) -> Line:
        words = text[first : last + 1].translate(_JOINED).split()
        x0, top, _, first_bottom = box(first)
        _, _, x1, bottom = box(last)
        (bold_first, mono_first), (bold_last, mono_last) = font(first), font(last)
        return Line(
            page=page,
            text=" ".join(words) + ("-" if hyphen else ""),
            size=round(raw.FPDFText_GetFontSize(textpage, first), 2),
            bold=bold_first and bold_last,
            # (a listing's line numbers are often in the text font: "80 \\def\\x{}")
            mono=mono_last and (mono_first or bool(_NUMBERED.match(text, first))),
            x0=x0,
            x1=x1,
            top=top,
            first_bottom=first_bottom,
            bottom=bottom,
            page_height=page_size[1],
            page_width=page_size[0],
        )

    for first, last, hyphen in _segments(text):
        size = raw.FPDFText_GetFontSize(textpage, first)
        while box(first)[3] - box(last)[3] > 0.8 * size:  # two visual lines in one
            split = _first_below(text, first, last, box(first)[3] - 0.8 * size, box)
            end = split - 1
            while end > first and text[end].isspace():
                end -= 1
            yield line(first, end, False)
            first = split
            size = raw.FPDFText_GetFontSize(textpage, first)
        yield line(first, last, hyphen)


@functools.lru_cache(maxsize=256)
def _font_names(name: bytes) -> tuple[bool, bool]:
    """Whether a font's name says bold, and monospaced."""
    font = name.decode("latin-1").lower()
    return any(w in font for w in _BOLD_NAMES), any(w in font for w in _MONO_NAMES)


def _segments(text: str) -> Iterator[tuple[int, int, bool]]:
    """``(first, last, hyphenated)``: the indices of the first and last non-space
    characters of each line, and whether pdfium marked a hyphen at its end."""
    for match in _LINE.finditer(text):
        segment = match.group()
        if not segment.translate(_JOINED).strip():
            continue
        first = match.start() + len(segment) - len(segment.lstrip())
        last = match.end() - 1 - (len(segment) - len(segment.rstrip()))
        yield first, last, text[match.end() : match.end() + 1] in _HYPHENS


def _first_below(text: str, first: int, last: int, level: float, box: Any) -> int:
    """The first character after ``first`` whose bottom is below ``level`` (``last``'s
    is): a bisection over the characters that are not spaces (pdfium's generated spaces
    have no box of their own)."""
    candidates = [i for i in range(first + 1, last + 1) if not text[i].isspace()]
    low, high = 0, len(candidates) - 1
    while low < high:
        middle = (low + high) // 2
        if box(candidates[middle])[3] < level:
            high = middle
        else:
            low = middle + 1
    return candidates[low]
