# ruff: noqa: RUF002 - CJK punctuation in the docs is the point
"""Chunk quality and speed on the shared Markdown corpus; prints a Markdown table.

    python benches/markdown_quality.py [--size 1000]

Measures (ferrochunk.eval.boundaries, shared with ``ferrochunk eval``), at equal target size
(characters), for ferrochunk's MarkdownChunker, LangChain's
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
import sys
import time
from pathlib import Path
from typing import Callable

from ferrochunk.eval.boundaries import boundary_measures
from ferrochunk.eval.chunkers import locate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
import corpus

Spans = list[tuple[int, int]]


def quality(texts: list[str], split: Callable[[str], Spans], size: int) -> dict[str, float]:
    """The boundary measures (ferrochunk.eval.boundaries) under this table's names."""
    m = boundary_measures(texts, [split(t) for t in texts], size)
    return {
        "chunks": m["chunks"],
        "mid-sentence %": m["mid_sentence_pct"],
        "code/tables cut %": m["cut_blocks_pct"],
        "tiny (<20%) %": m["tiny_pct"],
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
        texts = list(corpus.texts(name))
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
    zh = list(corpus.texts("zh-markdown"))
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
        texts = list(corpus.texts(name))
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
