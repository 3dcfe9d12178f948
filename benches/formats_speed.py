"""Speed and quality of HtmlChunker and PdfChunker; prints a Markdown table.

    python benches/formats_speed.py [--rounds 5] [--pages 100] [--size 1000]

Rows: a PDF of ``--pages`` pages that fpdf2 writes from a known source
(``tests/pdf_documents.py``: headings, paragraphs over page breaks, hyphenation, code, a
running header and page numbers); two real manuals from Debian packages (Asymptote's,
texinfo, and gnuplot's, LaTeX; ``apt-get download`` of pinned versions into
``~/.cache/ferrochunk-corpora/pdf``, never committed; left out when apt cannot fetch them);
PLY's HTML manual (its sdist from PyPI, cached; the row is left
out without it); and the English Markdown corpus (``../shared/corpus``) rendered to HTML by
markdown-it, an independent renderer. Time: CPU seconds of this process (``process_time``)
to render and chunk each document, cold (a new chunker and the document's bytes each
round), the median of ``--rounds``. Quality, judged from the source (the written PDF) or
from lxml's reading of the page (``tests/html_judge.py``): paragraphs that fit beside the
headings right above them but are not whole in one chunk, and running headers, page
numbers, script or navigation text found in a chunk. For the real PDFs, whose paragraphs no
source gives, leaks are the running-header lines (a pattern per manual, written from the
PDF) found in the text PDFium gives for each page, and then in the chunks.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
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
            f"{cut} of {len(fit)}", f"{leaked} chunks", headed(chunks)]  # fmt: skip


def headed(chunks: list) -> str:
    return f"{sum(bool(c.metadata['heading_path']) for c in chunks) / len(chunks):.0%}"


CACHE = Path.home() / ".cache" / "ferrochunk-corpora" / "pdf"
# package: (version, the PDF in it, its running header as a regular expression)
DEBIAN_PDFS = {
    "asymptote-doc": (
        "2.85+ds-1",
        "usr/share/doc/asymptote/asymptote.pdf",
        r"Chapter \d+: [^\n\[\]]{1,60}? \d{1,3}\b",
    ),
    "gnuplot-doc": (
        "5.4.4+dfsg1-2",
        "usr/share/doc/gnuplot/gnuplot.pdf",
        r"\bgnuplot 5\.4 \d{1,3}\b|\b\d{1,3} gnuplot 5\.4\b(?!\.)",
    ),
}


def debian_pdf(package: str) -> Path | None:
    """The cached PDF of a Debian package (fetched once with apt-get download), or None."""
    version, member, _ = DEBIAN_PDFS[package]
    target = CACHE / Path(member).name
    if target.is_file():
        return target
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["apt-get", "download", "-q", f"{package}={version}"],
            cwd=tmp, capture_output=True, text=True, check=False,
        )  # fmt: skip
        deb = next(Path(tmp).glob("*.deb"), None)
        if done.returncode or deb is None:
            print(f"({package} left out: {done.stderr.strip()[-200:]})", file=sys.stderr)
            return None
        subprocess.run(["dpkg-deb", "-x", str(deb), f"{tmp}/x"], check=True)
        CACHE.mkdir(parents=True, exist_ok=True)
        shutil.copy(Path(tmp) / "x" / member, target)
    return target


def real_pdf_row(package: str, size: int, rounds: int) -> list[str] | None:
    import pypdfium2

    path = debian_pdf(package)
    if path is None:
        return None
    data = path.read_bytes()
    seconds, chunks = cpu(lambda: PdfChunker(size).split(data), rounds)
    header = re.compile(DEBIAN_PDFS[package][2])
    document = pypdfium2.PdfDocument(data)
    raw = sum(len(header.findall(page.get_textpage().get_text_range())) for page in document)
    pages = len(document)
    leaked = sum(len(header.findall(c.text)) for c in chunks)
    label = f"PDF, {path.name} ({package}, {pages} pages)"
    return [label, f"{len(data) / 1e6:.2f} MB", f"{seconds:.3f}", f"{pages / seconds:.0f} pages/s",
            "(no source)", f"{leaked} of {raw} header lines", headed(chunks)]  # fmt: skip


def html_row(label: str, pages: list[bytes], size: int, rounds: int) -> list[str]:
    from html_judge import normalize, read_page

    def run() -> list:
        chunker = HtmlChunker(size)
        return [chunker.split(page) for page in pages]

    seconds, results = cpu(run, rounds)
    fit = cut = leaked = 0
    every = [c for chunks in results for c in chunks]
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
            f"{cut} of {fit}", f"{leaked} texts", headed(every)]  # fmt: skip


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
    parser.add_argument("--no-real-pdfs", action="store_true", help="leave out the manuals")
    args = parser.parse_args()
    import lxml.html  # noqa: F401 (imported before the clock starts, as a program would)
    import pypdfium2  # noqa: F401

    rows = [pdf_row(args.pages, args.size, args.rounds)]
    if not args.no_real_pdfs:
        rows += filter(None, (real_pdf_row(p, args.size, args.rounds) for p in DEBIAN_PDFS))
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
    print("| document | input | CPU s | rate | paragraphs cut | furniture leaked | headed |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
