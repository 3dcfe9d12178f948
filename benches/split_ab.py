"""Splitting with another build's extension against this one, in paired rounds inside one
process: the effect of a change on the split engines (docs/benchmarks.md).

On a shared machine speed drifts by tens of percent between runs, and even between fresh
processes of one run, so comparing two builds in separate runs says little. Here the other
build's extension module is loaded beside the installed one (e.g. main's build copied
aside before rebuilding) and each round splits fresh copies of a corpus with both, in
alternating order; a ratio is the median of the rounds' ratios (other / this: above 1, this
build is faster), and the outputs must agree. Outputs are kept until the clock stops, as in
``cold_speed.py``.

    python benches/split_ab.py OTHER_NATIVE_SO [--rounds N] [--corpora en-markdown ...]
        [--engines native recursive character markdown tokens native-tokens
         token-text chunker header header-lines] [--outputs-differ]

``--corpora paragraphs``: every paragraph of the three corpora as a document of its own
(many short documents, as ``cold_speed.py short``).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import logging
import statistics
import sys
import time
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Callable

import ferrochunk
from ferrochunk import _native
from ferrochunk.bench import fresh
from letters_ab import load_extension

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
from corpus import NAMES, paragraphs, texts

SIZE, OVERLAP = 1000, 200
Split = Callable[[str], list]


def native_split(module: ModuleType) -> Split:
    """`Splitter(1000, chunk_overlap=200).split` on `module`'s engine: `Chunk`s with offsets."""
    splitter = ferrochunk.Splitter(SIZE, chunk_overlap=OVERLAP)
    a, specs = splitter._args, splitter._rust_specs()
    keep, strip = a["keep_separator"], a["strip_whitespace"]
    engine = module.Splitter(SIZE, OVERLAP, specs, keep, strip, True)
    meta = MappingProxyType({})
    return lambda text: engine.split(text, meta, None)[0]


def dropin_split(module: ModuleType, cls: type) -> Split:
    """A drop-in's `split_text` engine built on `module` (its `TextEngine`)."""
    seam = importlib.import_module("ferrochunk.engines.split")  # where the engine is built
    saved, seam._native = seam._native, module
    try:
        splitter = cls(chunk_size=SIZE, chunk_overlap=OVERLAP)
        engine = splitter._engine(splitter._key())
    finally:
        seam._native = saved
    return lambda text: engine.split_text(text, len, lambda *_: None)


def token_split(module: ModuleType, native: bool = False) -> Split:
    """`from_tiktoken_encoder(encoding_name="cl100k_base", chunk_size=512, chunk_overlap=50)`'s
    engine (or, ``native``, `Splitter(512, chunk_overlap=50)` sized alike) counting in
    `module`'s tokenizer, its token caches emptied before every pass (`Split.before_pass`)."""
    policy = ferrochunk.get_encoding("cl100k_base").special_policy(set(), "all")
    counter = module.TokenCounter(module.Encoder("cl100k_base"), *policy)
    splitter = ferrochunk.Splitter(512, chunk_overlap=50)
    a, specs = splitter._args, splitter._rust_specs()
    engine = module.Splitter(512, 50, specs, "start", a["strip_whitespace"], True)
    if native:
        meta = MappingProxyType({})
        split = lambda text: engine.split(text, meta, counter)[0]  # noqa: E731
    else:
        split = lambda text: engine.split_text(text, counter)  # noqa: E731
    split.before_pass = module.clear_token_caches  # type: ignore[attr-defined]
    return split


def token_windows_split(module: ModuleType) -> Split:
    """`TokenTextSplitter(encoding_name="cl100k_base", chunk_size=512, chunk_overlap=50)`'s
    engine on `module`, its token caches emptied before every pass."""
    policy = ferrochunk.get_encoding("cl100k_base").special_policy(set(), "all")
    encoder = module.Encoder("cl100k_base")
    split = lambda text: encoder.split_lossy(text, 512, 50, *policy)  # noqa: E731
    split.before_pass = module.clear_token_caches  # type: ignore[attr-defined]
    return split


def chunker_split(module: ModuleType) -> Split:
    """`MarkdownChunker()`'s native `split` (chunk_size 1000, the default separators) on
    `module`'s engine: `Chunk`s with offsets and structure metadata."""
    from ferrochunk.frontend.patterns import to_rust

    chunker = ferrochunk.MarkdownChunker()
    patterns = [to_rust(s) if s else "" for s in chunker.separators]
    engine = module.MarkdownChunker(
        chunker.chunk_size,
        chunker.min_size,
        patterns,
        chunker.settings,
        chunker.chunk_overlap,
        chunker.format,
        chunker.sentence_cuts,
    )
    return lambda text: engine.split(text, {}, None, None, False, None)[0]


HEADERS = [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3"), ("####", "Header 4")]


def header_split(module: ModuleType, **options: bool) -> Split:
    """`MarkdownHeaderTextSplitter(HEADERS, **options).split_text` on `module`'s line scan
    and `Document` maker (the drop-in's path when the native maker passed its check)."""
    from ferrochunk.documents import Document

    splitter = ferrochunk.MarkdownHeaderTextSplitter(HEADERS, **options)
    rules, names = splitter._rules()
    flags = bool(splitter.return_each_line), bool(splitter.strip_headers)
    engine = module.HeaderSplitter([tuple(r) for r in rules], *flags)
    maker = module.DocumentMaker(Document, Document(page_content="").type)
    return lambda text: engine.split(text, names, maker)


def paired(
    builds: dict[str, Split], items: list[str], rounds: int, same: bool = True
) -> tuple[dict, list]:
    """``({build: median s}, [per-round ratio other / this])``; outputs checked equal unless
    ``same`` is false (a change of cut rules times two different outputs)."""

    def texts_of(chunks: list) -> list[str]:
        return [getattr(chunk, "text", chunk) for chunk in chunks]

    first = [texts_of(builds["other"](t)) for t in items]
    if same and first != [texts_of(builds["this"](t)) for t in items]:
        raise SystemExit("the builds' outputs differ (--outputs-differ times them anyway)")
    seconds: dict[str, list[float]] = {name: [] for name in builds}
    for r in range(rounds):
        for name in ("other", "this") if r % 2 == 0 else ("this", "other"):
            copies = [fresh(t) for t in items]
            getattr(builds[name], "before_pass", lambda: None)()
            outputs = []
            start = time.process_time()
            for text in copies:
                outputs.append(builds[name](text))
            seconds[name].append(time.process_time() - start)
            del outputs
    ratios = [o / t for o, t in zip(seconds["other"], seconds["this"])]
    return {k: statistics.median(v) for k, v in seconds.items()}, ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="the other build's _native .so")
    parser.add_argument("--rounds", type=int, default=201)
    parser.add_argument("--corpora", nargs="*", default=list(NAMES))
    parser.add_argument("--engines", nargs="*", default=["native", "recursive", "character"])
    parser.add_argument(
        "--outputs-differ",
        action="store_true",
        help="time builds whose chunks differ (a change of cut rules), without the check",
    )
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    other = load_extension(args.other)
    makers = {
        "native": native_split,
        "recursive": lambda m: dropin_split(m, ferrochunk.RecursiveCharacterTextSplitter),
        "character": lambda m: dropin_split(m, ferrochunk.CharacterTextSplitter),
        "markdown": lambda m: dropin_split(m, ferrochunk.MarkdownTextSplitter),
        "tokens": token_split,
        "native-tokens": lambda m: token_split(m, native=True),
        "token-text": token_windows_split,
        "chunker": chunker_split,
        "header": header_split,
        "header-lines": lambda m: header_split(m, return_each_line=True),
    }
    # As in cold_speed.py: the harness's objects out of the collector's view, so a full
    # collection walking them does not land in one build's pass.
    gc.collect()
    gc.freeze()
    print("| corpus | engine | other ms | this ms | other / this, paired median | quartiles |")
    print("|---|---|---:|---:|---:|---|")
    for name in args.corpora:
        items = paragraphs() if name == "paragraphs" else texts(name)
        for engine in args.engines:
            builds = {"other": makers[engine](other), "this": makers[engine](_native)}
            medians, ratios = paired(builds, items, args.rounds, not args.outputs_differ)
            q1, _, q3 = statistics.quantiles(ratios, n=4)
            print(
                f"| {name} | {engine} | {medians['other'] * 1e3:.2f} | "
                f"{medians['this'] * 1e3:.2f} | {statistics.median(ratios):.3f} | "
                f"{q1:.3f}-{q3:.3f} |"
            )


if __name__ == "__main__":
    main()
