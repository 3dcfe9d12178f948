"""``PdfChunker`` on PDFs that fpdf2 writes here from a known source (``pdf_documents.py``):
what was written (paragraphs, headings, pages) judges what is read back; markdown-it reads
the rendition's headings back."""

from __future__ import annotations

import pickle
import re
import sys

import pytest

pytest.importorskip("pypdfium2")
pytest.importorskip("fpdf")

import ferrochunk
import pdf_documents
from ferrochunk import PdfChunker, get_encoding
from pdf_documents import HEADER, outline, write_pdf


@pytest.fixture(scope="module", params=[(0, 1), (1, 1), (2, 2), (3, 2)], ids=str)
def written(request: pytest.FixtureRequest) -> pdf_documents.Written:
    seed, columns = request.param  # one column, or two as a paper's
    return write_pdf(outline(seed, sections=6), columns=columns)


def read_back(markdown: str) -> dict[str, list]:
    """The headings, paragraphs and code blocks markdown-it reads in a rendition."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(markdown)
    found: dict[str, list] = {"headings": [], "paragraphs": [], "code": []}
    for i, t in enumerate(tokens):
        if t.type == "heading_open":
            found["headings"].append((int(t.tag[1]), tokens[i + 1].content))
        elif t.type == "paragraph_open":
            found["paragraphs"].append(tokens[i + 1].content)
        elif t.type == "fence":
            found["code"].append(t.content.removesuffix("\n"))
    return found


def test_the_rendition_holds_what_was_written(written) -> None:
    rendition = PdfChunker().render(written.data)
    assert written.pages >= 4 and rendition.pages == written.pages
    seen = read_back(rendition.text)
    assert seen["paragraphs"] == [p.text for p in written.paragraphs]
    assert seen["headings"] == written.headings
    # code: every line and its indentation; its blank lines, but one at a page break
    assert [_lines(c) for c in seen["code"]] == [_lines(c) for c in written.code]
    for got, (code, (first, last)) in zip(seen["code"], zip(written.code, written.code_pages)):
        assert got == code or first != last
    for paragraph in written.paragraphs:
        assert rendition.page_at(rendition.text.index(paragraph.text)) == paragraph.page
    assert HEADER not in rendition.text
    assert not [p for p in seen["paragraphs"] if p.strip().isdigit()]  # no page number left
    assert all(word in rendition.text for word in written.hyphenated)


def _lines(code: str) -> list[str]:
    return [line for line in code.split("\n") if line.strip()]


def test_the_documents_hold_the_hard_cases() -> None:
    import pypdfium2

    from ferrochunk.formats.pdf_lines import read_lines

    documents = [write_pdf(outline(seed, sections=6)) for seed in (0, 1, 2)]
    assert all(d.hyphenated and d.code for d in documents)
    assert any(p.page != p.last_page for d in documents for p in d.paragraphs)  # over a page
    pages, _ = read_lines(pypdfium2, write_pdf(outline(2, sections=6), columns=2).data)
    assert any(line.x0 > line.page_width / 2 for line in pages[0])  # a second column


@pytest.mark.parametrize("size", [300, 800, 3000])
def test_chunks_keep_paragraphs_headings_and_pages(written, size: int) -> None:
    chunker = PdfChunker(size)
    rendition = chunker.render(written.data)
    chunks = chunker.split_rendition(rendition, {"source": "r.pdf"})
    assert chunks == chunker.split(written.data, {"source": "r.pdf"})
    for c in chunks:
        assert rendition.text[c.start : c.end] == c.text
        assert rendition.text.encode()[c.byte_start : c.byte_end] == c.text.encode()
        assert len(c.text) <= size and c.metadata["source"] == "r.pdf"
        assert 1 <= c.metadata["page_start"] <= c.metadata["page_end"] <= written.pages
        assert HEADER not in c.text
    for paragraph in written.paragraphs:
        holding = [c for c in chunks if paragraph.text in c.text]
        if len(paragraph.text) + paragraph.headings > size:
            continue
        assert len(holding) == 1, f"paragraph cut: {paragraph.text[:60]!r}"
        (c,) = holding
        assert paragraph.heading_path in c.metadata["heading_paths"]
        assert c.metadata["page_start"] <= paragraph.page <= paragraph.last_page
        assert paragraph.last_page <= c.metadata["page_end"]
    for code in read_back(rendition.text)["code"]:  # (the test above holds it to the source)
        if len(code) + 8 <= size:
            assert [c for c in chunks if code in c.text], f"code cut: {code[:40]!r}"
    assert [c.metadata["page_start"] for c in chunks] == sorted(
        c.metadata["page_start"] for c in chunks
    )


def test_tokens_batches_and_pickling(written, tmp_path) -> None:
    counter = get_encoding("cl100k_base").length_function()
    chunker = PdfChunker(120, length_function=counter)
    chunks = chunker.split(written.data)
    assert all(c.token_count is not None and c.token_count <= 120 for c in chunks)
    path = tmp_path / "r.pdf"
    path.write_bytes(written.data)
    second = write_pdf(outline(9, sections=1), header=False).data
    batch = chunker.split_batch([path, str(path), second], [{"n": 1}, {"n": 2}, None])
    assert batch[0] == chunker.split(written.data, {"n": 1})
    assert [c.text for c in batch[1]] == [c.text for c in chunks]
    assert batch[2] == chunker.split(second)
    copy = pickle.loads(pickle.dumps(PdfChunker(500, min_size=0)))
    assert copy.split(second) == PdfChunker(500, min_size=0).split(second)


def test_a_single_page_without_repeats_keeps_its_header_lines() -> None:
    body = "One paragraph, the body text of this page. It says more than its header."
    written = write_pdf([(1, "Only Title"), (0, body)])
    text = PdfChunker().render(written.data).text
    # one page: nothing repeats, so its header line is text; the lone page number is not
    assert text == f"{HEADER} - page 1\n\n# Only Title\n\n{body}\n\n"


def test_a_pdf_without_text_is_a_clear_error() -> None:
    from fpdf import FPDF

    pdf = FPDF()
    for _ in range(2):
        pdf.add_page()
        pdf.rect(20, 20, 100, 60, style="F")  # a "scan": marks, no text layer
    with pytest.raises(ValueError, match=r"no text layer on any of its 2 pages .* OCR"):
        PdfChunker().split(bytes(pdf.output()))


def test_bad_input_names_what_to_change(tmp_path, monkeypatch) -> None:
    chunker = PdfChunker(100)
    with pytest.raises(ValueError, match=r"cannot open the PDF: .*is it a PDF"):
        chunker.split(b"%PDF-1.4 not really")
    from fpdf import FPDF
    from fpdf.enums import EncryptionMethod

    locked = FPDF()
    locked.add_page()
    locked.set_font("Helvetica", size=12)
    locked.cell(0, 10, "Secret text.")
    locked.set_encryption(
        owner_password="o", user_password="u", encryption_method=EncryptionMethod.RC4
    )
    with pytest.raises(ValueError, match=r"cannot open the PDF: .*password.*unencrypted"):
        chunker.split(bytes(locked.output()))
    with pytest.raises(TypeError, match="PDF source must be a path or bytes, got int"):
        chunker.split(3)
    with pytest.raises(ValueError, match=re.escape("cannot read PDF file")):
        chunker.split(tmp_path / "missing.pdf")
    with pytest.raises(ValueError, match=r"metadata keys \['page_start'\] are set by"):
        chunker.split(write_pdf([(0, "x.")]).data, {"page_start": 3})
    with pytest.raises(ValueError, match="min_size must be between"):
        PdfChunker(100, min_size=200)
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    with pytest.raises(ImportError, match=r"needs pypdfium2: pip install 'ferrochunk\[pdf\]'"):
        chunker.split(b"%PDF")
    assert ferrochunk.PdfChunker is PdfChunker


def test_the_benchmark_runs() -> None:
    import subprocess

    from corpus import ROOT

    done = subprocess.run(
        [
            sys.executable,
            "benches/formats_speed.py",
            "--rounds",
            "1",
            "--pages",
            "3",
            "--no-real-pdfs",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split(" | ") for line in done.stdout.splitlines() if line.startswith("| PDF")]
    assert len(rows) == 1 and rows[0][4].startswith("0 of ") and rows[0][5] == "0 chunks"
