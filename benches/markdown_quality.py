# ruff: noqa: RUF002 - CJK punctuation in the docs is the point
"""Chunk quality and speed on the shared Markdown corpus; prints a Markdown table.

    python benches/markdown_quality.py [--size 1000]

Measures, at equal target size (characters), for ferrochunk's MarkdownChunker, LangChain's
``RecursiveCharacterTextSplitter.from_language(MARKDOWN)`` and semantic-text-splitter's
``MarkdownSplitter`` (when installed):
- mid-sentence: % of chunks whose end is neither a sentence end (. ! ? 。！？；… possibly
  followed by a closing quote or bracket) nor the end of a block (end of text, blank
  line, or a line that starts a heading, fence, table row, list item or quote);
- cut: % of fenced code blocks and tables (markdown-it-py's reading, any depth) that fit
  in the target size but are not inside a single chunk;
- tiny: % of chunks under 20 % of the target size;
- MB/s over the whole folder (UTF-8 bytes / CPU time of this process, best of 5; CPU
  time rather than wall time because the machine's cores are shared).
Then, on zh-markdown, the MarkdownChunker with the default separators against the CJK
preset (mid-sentence %, chunk count, tiny chunks). Also the speed of LangChain's usual
recipe (MarkdownHeaderTextSplitter, then RecursiveCharacterTextSplitter on each section)
against ferrochunk's chunker, which gives heading paths too.
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path
from typing import Callable

from markdown_it import MarkdownIt

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"
SENTENCE_END = re.compile(
    "[.!?\u3002\uff01\uff1f\uff1b\u2026][\"'\u201d\u2019)\\]\u300d\u300f\uff09]*$"
)
BLOCK_START = re.compile(r"[ \t]*(#|```|~~~|\||[-*+] |\d+[.)] |>|$)")
PARSER = MarkdownIt("commonmark").enable("table")
Spans = list[tuple[int, int]]


def locate(text: str, chunks: list[str]) -> Spans:
    """Offsets of chunk texts found in order (for splitters that do not report them)."""
    spans, pos = [], 0
    for chunk in chunks:
        at = text.find(chunk, pos)
        if at < 0:
            at = text.find(chunk)
        spans.append((at, at + len(chunk)))
        pos = at + 1
    return spans


def ends_mid_sentence(text: str, end: int, chunk: str) -> bool:
    if SENTENCE_END.search(chunk.rstrip()):
        return False
    rest = text[end:]
    nl = rest.find("\n")
    if nl < 0:
        return rest.strip() != ""
    if rest[:nl].strip():
        return True  # the chunk stops inside a line
    return not BLOCK_START.match(rest[nl + 1 :].split("\n", 1)[0])


def regions(text: str, size: int) -> Spans:
    """Fenced code blocks and tables (as spans) that fit in ``size``."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    out = []
    for t in PARSER.parse(text):
        if t.type in ("fence", "table_open") and t.map:
            a, b = t.map[0], max(t.map[0], t.map[1] - 1)
            while b > a and not lines[b].strip():
                b -= 1
            start = starts[a] + len(lines[a]) - len(lines[a].lstrip())
            end = starts[b] + len(lines[b].rstrip())
            if end - start <= size:
                out.append((start, end))
    return out


def quality(texts: list[str], split: Callable[[str], Spans], size: int) -> dict[str, float]:
    chunks = mid = tiny = fits = cut = 0
    for text in texts:
        spans = split(text)
        chunks += len(spans)
        for a, b in spans:
            mid += ends_mid_sentence(text, b, text[a:b])
            tiny += (b - a) < size * 0.2
        for a, b in regions(text, size):
            fits += 1
            cut += not any(s <= a and b <= e for s, e in spans)
    return {
        "chunks": chunks,
        "mid-sentence %": 100 * mid / max(chunks, 1),
        "code/tables cut %": 100 * cut / max(fits, 1),
        "tiny (<20%) %": 100 * tiny / max(chunks, 1),
    }


def speed(texts: list[str], run: Callable[[str], object], repeat: int = 5) -> float:
    total = sum(len(t.encode("utf-8")) for t in texts)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for text in texts:
            run(text)
        best = min(best, time.process_time() - t0)
    return total / best / 1e6


def contenders(size: int, cjk: bool) -> dict[str, Callable[[str], Spans]]:
    from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

    import ferrochunk

    ours = ferrochunk.MarkdownChunker(chunk_size=size, separators="cjk" if cjk else "default")
    lc = RecursiveCharacterTextSplitter.from_language(
        Language.MARKDOWN, chunk_size=size, chunk_overlap=0
    )
    out = {
        "ferrochunk MarkdownChunker": lambda t: [(c.start, c.end) for c in ours.split(t)],
        "LangChain RCTS.from_language(MARKDOWN)": lambda t: locate(t, lc.split_text(t)),
    }
    try:
        from semantic_text_splitter import MarkdownSplitter

        sts = MarkdownSplitter(size)
        out["semantic-text-splitter MarkdownSplitter"] = lambda t: [
            (a, a + len(c)) for a, c in sts.chunk_indices(t)
        ]
    except ImportError:
        pass
    return out


def langchain_recipe(size: int) -> Callable[[str], object]:
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    headers = [("#", "h1"), ("##", "h2"), ("###", "h3")]
    md = MarkdownHeaderTextSplitter(headers, strip_headers=False)
    rc = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=0)
    return lambda t: rc.split_documents(md.split_text(t))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1000)
    args = parser.parse_args()
    from langchain_text_splitters import MarkdownHeaderTextSplitter as LangChainHeaders

    import ferrochunk

    print(f"target size {args.size} characters\n")
    print("| corpus | splitter | chunks | mid-sentence % | code/tables cut % | tiny % | MB/s |")
    print("|---|---|---|---|---|---|---|")
    for name in ("en-markdown", "zh-markdown"):
        texts = [p.read_text(encoding="utf-8") for p in sorted((CORPUS / name).glob("*.md"))]
        for label, split in contenders(args.size, cjk=name.startswith("zh")).items():
            q = quality(texts, split, args.size)
            mbs = speed(texts, split)
            print(
                f"| {name} | {label} | {q['chunks']} | {q['mid-sentence %']:.1f} | "
                f"{q['code/tables cut %']:.1f} | {q['tiny (<20%) %']:.1f} | {mbs:.1f} |"
            )
    print("\nCJK preset on zh-markdown (MarkdownChunker; separators cut long paragraphs only):\n")
    print("| size | separators | chunks | mid-sentence % | tiny (<20%) % |")
    print("|---|---|---|---|---|")
    zh = [p.read_text(encoding="utf-8") for p in sorted((CORPUS / "zh-markdown").glob("*.md"))]
    for size in sorted({args.size, 200}):
        for preset in ("default", "cjk"):
            chunker = ferrochunk.MarkdownChunker(chunk_size=size, separators=preset)
            q = quality(zh, lambda t, c=chunker: [(x.start, x.end) for x in c.split(t)], size)
            print(
                f"| {size} | {preset} | {q['chunks']} | {q['mid-sentence %']:.1f} | "
                f"{q['tiny (<20%) %']:.1f} |"
            )
    print("\n| corpus | pipeline | MB/s | speed-up |")
    print("|---|---|---|---|")
    for name in ("en-markdown", "zh-markdown"):
        texts = [p.read_text(encoding="utf-8") for p in sorted((CORPUS / name).glob("*.md"))]
        base = speed(texts, langchain_recipe(args.size))
        ours = ferrochunk.MarkdownChunker(chunk_size=args.size)
        fast = speed(texts, ours.split)
        print(f"| {name} | LangChain MarkdownHeaderTextSplitter + RCTS | {base:.1f} | 1.0x |")
        print(f"| {name} | ferrochunk MarkdownChunker | {fast:.1f} | {fast / base:.1f}x |")
        headers = [("#", "h1"), ("##", "h2"), ("###", "h3")]
        ours_hdr = ferrochunk.MarkdownHeaderTextSplitter(headers)
        theirs_hdr = LangChainHeaders(headers)
        a, b = speed(texts, theirs_hdr.split_text), speed(texts, ours_hdr.split_text)
        print(
            f"| {name} | MarkdownHeaderTextSplitter: LangChain / ferrochunk drop-in | "
            f"{a:.1f} / {b:.1f} | {b / a:.1f}x |"
        )


if __name__ == "__main__":
    main()
