"""Speed and quality of HtmlChunker and PdfChunker; prints a Markdown table.

    python benches/formats_speed.py [--rounds 5] [--pages 100] [--size 1000]

Rows: a PDF of ``--pages`` pages that fpdf2 writes from a known source
(``tests/pdf_documents.py``: headings, paragraphs over page breaks, hyphenation, a running
header and page numbers); PLY's HTML manual (its sdist from PyPI, cached; the row is left
out without it); and the English Markdown corpus (``../shared/corpus``) rendered to HTML by
markdown-it, an independent renderer. Time: CPU seconds of this process (``process_time``)
to render and chunk each document, cold (a new chunker and the document's bytes each
round), the median of ``--rounds``. Quality, judged from the source (the written PDF) or
from lxml's reading of the page (``tests/html_judge.py``): paragraphs that fit beside the
headings right above them but are not whole in one chunk, and running headers, page
numbers, script or navigation text found in a chunk.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # corpus.py, pdf_documents.py, html_judge.py
import corpus  # noqa: E402
from ferrochunk import HtmlChunker, PdfChunker  # noqa: E402


def cpu(run: Callable[[], Any], rounds: int) -> tuple[float, Any]:
    """The median CPU seconds of ``run()`` over ``rounds``, and its last result."""
    times, result = [], None
    for _ in range(rounds):
        start = time.process_time()
        result = run()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def pdf_row(pages: int, size: int, rounds: int) -> list[str]:
    import pdf_documents

    sections = 1
    written = pdf_documents.write_pdf(pdf_documents.outline(0, sections))
    while written.pages < pages:  # grow the outline until it fills the pages asked for
        sections = max(sections + 1, sections * pages // max(1, written.pages))
        written = pdf_documents.write_pdf(pdf_documents.outline(0, sections))
    seconds, chunks = cpu(lambda: PdfChunker(size).split(written.data), rounds)
    fit = [p for p in written.paragraphs if len(p.text) + p.headings <= size]
    cut = sum(not any(p.text in c.text for c in chunks) for p in fit)
    leaked = sum(
        pdf_documents.HEADER in c.text or any(b.strip().isdigit() for b in c.text.split("\n\n"))
        for c in chunks
    )
    label = f"PDF, {written.pages} pages (fpdf2)"
    mb = len(written.data) / 1e6
    return [label, f"{mb:.2f} MB", f"{seconds:.3f}", f"{written.pages / seconds:.0f} pages/s",
            f"{len(fit)}", f"{cut}", f"{leaked}"]  # fmt: skip


def html_row(label: str, pages: list[bytes], size: int, rounds: int) -> list[str]:
    from html_judge import normalize, read_page

    def run() -> list:
        chunker = HtmlChunker(size)
        return [chunker.split(page) for page in pages]

    seconds, results = cpu(run, rounds)
    fit = cut = leaked = 0
    for page, chunks in zip(pages, results):
        judged = read_page(page)
        texts = [normalize(c.text) for c in chunks]
        for text, _, heading in judged.paragraphs:
            if len(text) + heading <= size:
                fit += 1
                cut += not any(text in t for t in texts)
        # (furniture whose text the page also shows, as a <title> its <h1>, is no leak)
        furniture = [f for f in judged.furniture if len(f) >= 20 and f not in judged.text]
        leaked += sum(any(f in t for t in texts) for f in furniture)
    mb = sum(map(len, pages)) / 1e6
    return [label, f"{mb:.2f} MB", f"{seconds:.3f}", f"{mb / seconds:.1f} MB/s",
            f"{fit}", f"{cut}", f"{leaked}"]  # fmt: skip


def markdown_pages() -> list[bytes]:
    """The English Markdown corpus as HTML pages, rendered by markdown-it."""
    from markdown_it import MarkdownIt

    render = MarkdownIt("commonmark").enable("table").render
    return [
        f"<html><body><nav>Docs index</nav>{render(p.read_text('utf-8'))}</body></html>".encode()
        for p in corpus.files("en-markdown", suffixes=(".md",))
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--size", type=int, default=1000)
    args = parser.parse_args()
    import lxml.html  # noqa: F401 (imported before the clock starts, as a program would)
    import pypdfium2  # noqa: F401

    rows = [pdf_row(args.pages, args.size, args.rounds)]
    try:
        import html_judge

        ply = html_judge.real_pages()
        rows.append(html_row("HTML, PLY's manual (2 pages)", list(ply.values()), args.size,
                             args.rounds))  # fmt: skip
    except html_judge.Unavailable as error:
        print(f"(PLY's manual left out: {error})", file=sys.stderr)
    if corpus.CORPUS.is_dir():
        pages = markdown_pages()
        rows.append(html_row(f"HTML, en-markdown via markdown-it ({len(pages)} pages)", pages,
                             args.size, args.rounds))  # fmt: skip
    print(f"chunk_size={args.size}, median of {args.rounds} rounds, CPU time")
    print()
    print("| document | input | CPU s | rate | paragraphs that fit | cut | furniture leaked |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
