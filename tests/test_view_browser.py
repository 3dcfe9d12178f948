"""The view in real headless Chromium (``tests/browser.py``): every chunk and every cut with
its reason is in the DOM the page's script built, the console is clean, the screenshot's
pixels show the bands, and a 5 MB document renders in under 3 s."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import html as lxml_html

import ferrochunk
from browser import render, screenshot
from ferrochunk.view import view

ROOT = Path(__file__).resolve().parents[1]
# The band colours of page.css (.b0, .b1), as RGB.
BANDS = [(0xFF, 0xD6, 0xA5), (0xBD, 0xE0, 0xFE)]


def dom_of(rendered):
    return lxml_html.fromstring(rendered.dom.encode("utf-8"))


def check_dom(tree, chunkers, text):
    """Every chunk of every column covered by a segment, every cut marked with the reason
    the chunker gave, and the segments spell the text."""
    columns = tree.xpath('//div[@class="col"]')
    assert len(columns) == len(chunkers)
    for col, chunker in zip(columns, chunkers):
        chunks = chunker.split(text)
        reasons = [c.reason for c in chunker.cuts(text)] if hasattr(chunker, "cuts") else None
        covered = set()
        for seg in col.xpath('.//span[contains(@class, "seg")]'):
            covered.update(int(i) for i in seg.get("data-cs", "").split())
        assert covered == set(range(len(chunks)))
        cuts = col.xpath('.//span[contains(@class, "cut")]')
        assert [int(c.get("data-chunk")) for c in cuts] == sorted(
            range(len(chunks)), key=lambda i: (chunks[i].end, i)
        )
        if reasons is not None:
            got = {int(c.get("data-chunk")): c.get("data-reason") for c in cuts}
            assert [got[i] for i in range(len(chunks))] == reasons
        shown = "".join(s.text or "" for s in col.xpath('.//span[contains(@class, "seg")]'))
        assert shown == text


def test_readme_and_a_comparison_render_with_every_chunk(tmp_path):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    chunkers = [ferrochunk.Splitter(300, chunk_overlap=80), ferrochunk.MarkdownChunker(300)]
    page = tmp_path / "v.html"
    view(text, chunkers[0], compare=chunkers[1], out=page)
    rendered = render(page, tmp_path / "profile")
    assert rendered.console == []
    check_dom(dom_of(rendered), chunkers, text)
    # Overlaps are shaded: the splitter's overlap leaves segments in two chunks.
    assert dom_of(rendered).xpath('//span[contains(@class, " ov")]')


def test_console_errors_are_caught(tmp_path):
    """The console check can fail: a page whose script throws is reported."""
    page = tmp_path / "broken.html"
    page.write_text("<html><body><script>console.error('boom'); null.x;</script></body></html>")
    console = render(page, tmp_path / "profile").console
    assert any("boom" in line for line in console)
    assert any("Uncaught" in line for line in console)


def test_screenshot_shows_the_bands(tmp_path):
    from PIL import Image

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    page, png = tmp_path / "v.html", tmp_path / "v.png"
    view(text, ferrochunk.Splitter(200, chunk_overlap=0), out=page)
    screenshot(page, png, tmp_path / "profile")
    image = Image.open(png).convert("RGB")
    assert image.size == (1400, 900)
    colours = {rgb: n for n, rgb in image.getcolors(maxcolors=1 << 24)}
    counts = {rgb: colours.get(rgb, 0) for rgb in BANDS}
    assert all(n > 2000 for n in counts.values()), counts  # pixels of both band colours


def test_five_megabytes_render_in_under_three_seconds(tmp_path):
    import corpus

    texts = corpus.texts("en-prose") + corpus.texts("en-markdown")
    text = ""
    while len(text.encode("utf-8")) < 5_000_000:
        text += "\n\n".join(texts)
    text = text.encode("utf-8")[:5_000_000].decode("utf-8", "ignore")
    splitter = ferrochunk.Splitter(1000)
    page = tmp_path / "big.html"
    view(text, splitter, tokens=None, out=page)
    rendered = render(page, tmp_path / "profile")
    assert rendered.console == []
    body = re.search(r'<body[^>]*data-rendered="(\d+)"', rendered.dom)
    assert body is not None
    ms = int(body.group(1))
    chunks = len(splitter.split(text))
    print(f"5 MB ({len(text):,} chars, {chunks:,} chunks): {ms} ms in Chromium")
    assert ms < 3000
    cuts = re.findall(r'class="cut r-\w+" data-chunk="\d+"', rendered.dom)
    assert len(cuts) == len(splitter.split(text))


@pytest.fixture(autouse=True)
def _quiet_profile(tmp_path):
    (tmp_path / "profile").mkdir()
