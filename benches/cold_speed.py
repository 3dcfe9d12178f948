"""Cold speed vs LangChain in paired rounds: the tables of docs/benchmarks.md.

Each round runs every implementation back to back on fresh copies of the texts (new ``str``
objects made before the clock starts, so no UTF-8 form cached in a string by an earlier pass
helps) with ferrochunk's token caches emptied, then once more on the same objects (warm,
labelled). A ratio is the median over rounds of that round's ratio, which other work on a
shared machine disturbs least. Times are the process's CPU time, so being descheduled by other
work does not count; every split runs on one thread (``FERROCHUNK_NUM_THREADS=1``: en-prose's
one file is over 1 MB, and token counting of such a text would otherwise run on every core,
whose CPU times add up). The letters table is the exception: wall clock, one thread and all.
Every output is checked identical to LangChain's first. Outputs are kept until the clock
stops, as by a caller collecting chunks (``--free-outputs``: each dropped as soon as it is
made, as in a streaming pipeline).

    python benches/cold_speed.py [--rounds N] [--free-outputs] [split short tokens ...]
    python benches/cold_speed.py --processes 12 --rounds 21 split   # median of 12 processes

A ratio moves between processes more than between the rounds of one (in one run of twelve
LangChain split a quarter slower than in the others, for the whole process), so
``--processes N`` runs the paired tables (split, short, tokens, header) in N fresh
interpreters one after another and reports each row's median and range over them.

Run on the release build (``scripts/setup.sh``).
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import ferrochunk
from ferrochunk import tokens
from ferrochunk.bench import fresh, host_line, load_average, num_threads

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/corpus.py
from corpus import NAMES, megabytes, paragraphs, texts

Split = Callable[[str], object]
SIZE, OVERLAP = 1000, 200


# Whether each output is dropped as soon as it is made (`--free-outputs`), as in a pipeline
# that embeds and forgets each document's chunks, instead of kept until the clock stops, as
# by a caller collecting a corpus's chunks. Kept is the default and the harder case: the
# chunks are written to memory not just freed (so not in the CPU caches), and freeing them
# (the same work for every implementation, their outputs being equal) is not timed.
FREE_OUTPUTS = False

# The paired tables' rows as printed, for `--rows-to` (one process of `--processes`).
ROWS: list[dict[str, object]] = []


def _seconds(fn: Split, items: list[str]) -> float:
    """CPU seconds to split every item (see `FREE_OUTPUTS`)."""
    outputs = []
    start = time.process_time()
    for text in items:
        out = fn(text)
        if not FREE_OUTPUTS:
            outputs.append(out)
        del out
    seconds = time.process_time() - start
    del outputs
    return seconds


def paired(impls: dict[str, Split], items: list[str], rounds: int) -> dict[str, tuple]:
    """``{name: (cold s, warm s, cold ratio to the first impl)}``, medians of paired rounds."""
    cold: dict[str, list[float]] = {name: [] for name in impls}
    warm: dict[str, list[float]] = {name: [] for name in impls}
    for _ in range(rounds):
        for name, fn in impls.items():
            copies = [fresh(t) for t in items]
            tokens.clear_caches()
            cold[name].append(_seconds(fn, copies))
            warm[name].append(_seconds(fn, copies))
    base = next(iter(impls))
    return {
        name: (
            statistics.median(cold[name]),
            statistics.median(warm[name]),
            statistics.median(b / t for b, t in zip(cold[base], cold[name])),
        )
        for name in impls
    }


def _check(impls: dict[str, Split], items: list[str], texts_of: Callable) -> None:
    """Every implementation's output equals the first one's (LangChain's)."""
    outs = {name: [texts_of(name, fn(t)) for t in items] for name, fn in impls.items()}
    want = next(iter(outs.values()))
    for name, out in outs.items():
        assert out == want, f"{name} differs from {next(iter(outs))}"


def _texts_of(name: str, out: object) -> object:
    return [c.text for c in out] if name.endswith("native") else out  # type: ignore[attr-defined]


def _table(title: str, rows: list[tuple[str, str, float, dict[str, tuple]]]) -> None:
    print(f"\n### {title}\n")
    print("| corpus | implementation | cold MB/s | cold vs LangChain | warm MB/s |")
    print("|---|---|---:|---:|---:|")
    for corpus, name, mb, result in rows:
        cold_s, warm_s, ratio = result
        print(f"| {corpus} | {name} | {mb / cold_s:.1f} | {ratio:.1f}x | {mb / warm_s:.1f} |")
        row = {"title": title, "corpus": corpus, "name": name, "mb": mb}
        ROWS.append(row | {"cold": cold_s, "warm": warm_s, "ratio": ratio})


class Slices:
    """The floor of a group of splitters: each text's chunks as CPython's own slices of it,
    ``[text[a:b] for a, b in spans]``, at the places (and of the lengths) of another
    implementation's chunks. Every implementation returning those strings pays about this
    much to make them (LangChain too, in its own way), so its ratio to LangChain is a
    ceiling for a splitter that makes them no faster. Called on the texts in the order they
    were given, as :func:`paired` does; a chunk that is not a slice of its text (pieces
    re-joined) is stood in for by a slice of its length."""

    def __init__(self, fn: Split, items: list[str]) -> None:
        self.spans = [_spans(text, fn(text)) for text in items]
        self.calls = 0

    def __call__(self, text: str) -> list[str]:
        spans = self.spans[self.calls % len(self.spans)]
        self.calls += 1
        return [text[a:b] for a, b in spans]


def _spans(text: str, chunks: object) -> list[tuple[int, int]]:
    """Where each chunk is in ``text`` (searched from just after the previous one)."""
    spans, at = [], 0
    for chunk in chunks:  # type: ignore[attr-defined]
        start = text.find(chunk, at)
        start = min(at, len(text) - len(chunk)) if start < 0 else start
        spans.append((start, start + len(chunk)))
        at = start + 1
    return spans


def recursive_splitters() -> dict[str, Split]:
    """LangChain's recursive splitter, the drop-in and the native API, at SIZE/OVERLAP."""
    import langchain_text_splitters as lc

    return {
        "langchain Recursive": lc.RecursiveCharacterTextSplitter(
            chunk_size=SIZE, chunk_overlap=OVERLAP
        ).split_text,
        "ferrochunk Recursive": ferrochunk.RecursiveCharacterTextSplitter(
            chunk_size=SIZE, chunk_overlap=OVERLAP
        ).split_text,
        "ferrochunk.split native": ferrochunk.Splitter(SIZE, chunk_overlap=OVERLAP).split,
    }


def split_section(rounds: int) -> None:
    import langchain_text_splitters as lc

    impls = recursive_splitters()
    chars = {
        "langchain Character": lc.CharacterTextSplitter(
            chunk_size=SIZE, chunk_overlap=OVERLAP
        ).split_text,
        "ferrochunk Character": ferrochunk.CharacterTextSplitter(
            chunk_size=SIZE, chunk_overlap=OVERLAP
        ).split_text,
    }
    rows = []
    for corpus in NAMES:
        items = list(texts(corpus))
        mb = megabytes(texts(corpus))
        for group in (impls, chars):
            _check(group, items, _texts_of)
            ours = list(group.values())[1]
            floor = {"floor: CPython slices of its chunks": Slices(ours, items)}
            result = paired(group | floor, items, rounds)
            rows += [(corpus, n, mb, r) for n, r in result.items()]
    _table(f"Character splitting, chunk_size={SIZE}, chunk_overlap={OVERLAP}", rows)


def short_section(rounds: int) -> None:
    """Many short documents (rows, messages, short pages): every paragraph of the three
    corpora, split as a document of its own, most shorter than the chunk size."""
    import langchain_text_splitters as lc

    items = list(paragraphs())
    impls = recursive_splitters()
    tokens.use_bundled_ranks_in_tiktoken()  # tiktoken.get_encoding cannot download here
    kwargs = {"encoding_name": "cl100k_base", "chunk_size": 512, "chunk_overlap": 50}
    sized = {}
    for name, module in (("langchain", lc), ("ferrochunk", ferrochunk)):
        splitter = module.RecursiveCharacterTextSplitter.from_tiktoken_encoder(**kwargs)
        sized[f"{name} from_tiktoken_encoder(cl100k_base, 512, 50)"] = splitter.split_text
    corpus, mb, rows = f"{len(items)} paragraphs", megabytes(tuple(items)), []
    for group in (impls, sized):
        _check(group, items, _texts_of)
        rows += [(corpus, n, mb, r) for n, r in paired(group, items, rounds).items()]
    _table(f"Short documents, chunk_size={SIZE}, chunk_overlap={OVERLAP} (tokens: 512, 50)", rows)


def token_section(rounds: int) -> None:
    import langchain_text_splitters as lc

    tokens.use_bundled_ranks_in_tiktoken()  # tiktoken.get_encoding cannot download here
    kwargs = {"encoding_name": "cl100k_base", "chunk_size": 512, "chunk_overlap": 50}
    rows = []
    for cls in ("RecursiveCharacterTextSplitter", "TokenTextSplitter"):
        impls = {
            f"langchain {cls}": getattr(lc, cls).from_tiktoken_encoder(**kwargs).split_text,
            f"ferrochunk {cls}": getattr(ferrochunk, cls)
            .from_tiktoken_encoder(**kwargs)
            .split_text,
        }
        for corpus in NAMES:
            items = list(texts(corpus))
            _check(impls, items, lambda _, out: out)
            result = paired(impls, items, rounds)
            rows += [(corpus, n, megabytes(texts(corpus)), r) for n, r in result.items()]
    _table("Token splitting, from_tiktoken_encoder(cl100k_base, 512, 50), caches emptied", rows)


HEADERS = [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3"), ("####", "Header 4")]
HEADER_OPTIONS = {
    "": {},
    "strip_headers=False": {"strip_headers": False},
    "return_each_line": {"return_each_line": True},
    "return_each_line, strip_headers=False": {"return_each_line": True, "strip_headers": False},
}


def _documents(_: str, out: object) -> object:
    return [(d.page_content, d.metadata) for d in out]  # type: ignore[attr-defined]


def header_section(rounds: int) -> None:
    """``MarkdownHeaderTextSplitter`` (headers ``#`` to ``####``) in each of its usual settings,
    on the two Markdown corpora; the timed call is ``split_text`` (Documents included)."""
    import langchain_text_splitters as lc

    rows = []
    for corpus in ("en-markdown", "zh-markdown"):
        items = list(texts(corpus))
        mb = megabytes(texts(corpus))
        for label, options in HEADER_OPTIONS.items():
            impls = {
                f"langchain {label}".strip(): lc.MarkdownHeaderTextSplitter(
                    HEADERS, **options
                ).split_text,
                f"ferrochunk {label}".strip(): ferrochunk.MarkdownHeaderTextSplitter(
                    HEADERS, **options
                ).split_text,
            }
            _check(impls, items, _documents)
            rows += [(corpus, n, mb, r) for n, r in paired(impls, items, rounds).items()]
    _table("MarkdownHeaderTextSplitter, headers # to ####, one document at a time", rows)


def random_letters(n: int, seed: int = 9) -> str:
    """``n`` pseudo-random lowercase ASCII letters (made from bytes: no list of ``n`` strs)."""
    table = bytes.maketrans(bytes(range(256)), bytes(97 + b % 26 for b in range(256)))
    return random.Random(seed).randbytes(n).translate(table).decode("ascii")


def document(megabytes_: int) -> str:
    """The three corpora concatenated and repeated to about ``megabytes_`` MB of UTF-8."""
    base = "".join("".join(texts(name)) for name in NAMES)
    target = megabytes_ * 1_000_000
    repeated = base * (target // len(base.encode("utf-8")) + 1)
    return repeated[: target * len(base) // len(base.encode("utf-8"))]


def _one(
    fn: Split, text: str, rounds: int, clock: Callable[[], float] = time.process_time
) -> float:
    """Median seconds (of ``clock``: CPU time unless told) to split a fresh copy of ``text``."""
    times = []
    for _ in range(rounds):
        copy = fresh(text)
        start = clock()
        out = fn(copy)
        if FREE_OUTPUTS:
            del out
        times.append(clock() - start)
        del copy
        out = None  # kept until the clock stopped (see `FREE_OUTPUTS`)
    return statistics.median(times)


def scaling_section(rounds: int) -> None:
    print("\n### One document, 1 MB vs 100 MB (fresh copy each round)\n")
    print("| implementation | 1 MB: MB/s | 100 MB: MB/s | 100 MB / 1 MB |")
    print("|---|---:|---:|---:|")
    impls = {
        "ferrochunk Recursive": ferrochunk.RecursiveCharacterTextSplitter(
            chunk_size=SIZE, chunk_overlap=OVERLAP
        ).split_text,
        "ferrochunk.split native": ferrochunk.Splitter(SIZE, chunk_overlap=OVERLAP).split,
    }
    small, large = document(1), document(100)
    mb_small, mb_large = len(small.encode()) / 1e6, len(large.encode()) / 1e6
    for name, fn in impls.items():
        a = mb_small / _one(fn, small, rounds * 4)
        b = mb_large / _one(fn, large, max(3, rounds // 2))
        print(f"| {name} | {a:.0f} | {b:.0f} | {b / a:.2f} |")


def nosep_section(rounds: int) -> None:
    print("\n### A string with no separator (50 MB of letters, fresh copy each round)\n")
    print("| implementation | MB/s |")
    print("|---|---:|")
    text = random_letters(50_000_000)
    impls = {
        "ferrochunk Recursive": ferrochunk.RecursiveCharacterTextSplitter(
            chunk_size=SIZE, chunk_overlap=OVERLAP
        ).split_text,
        "ferrochunk.split native": ferrochunk.Splitter(SIZE, chunk_overlap=OVERLAP).split,
    }
    for name, fn in impls.items():
        print(f"| {name} | {50 / _one(fn, text, max(3, rounds // 2)):.0f} |")


def letters_section(rounds: int) -> None:
    """Counting cl100k tokens of one run of letters without a break: random letters, and
    the English prose corpus with everything but letters removed. Wall-clock time: a text
    of a megabyte or more is counted across the process's threads (the run in parts,
    ``bpe/parallel.rs``), so one thread (``FERROCHUNK_NUM_THREADS=1``) is shown beside it."""
    import re

    cpus = len(os.sched_getaffinity(0))
    print("\n### Counting cl100k tokens of one run of letters (caches emptied, wall clock)\n")
    print("| text | threads | 5 MB: MB/s | 50 MB: MB/s | time 50 MB / time 5 MB |")
    print("|---|---:|---:|---:|---:|")
    enc = ferrochunk.get_encoding("cl100k_base")
    prose = re.sub("[^A-Za-z]", "", "".join(texts("en-prose")))
    sources = {
        "random letters": random_letters,
        "en-prose, letters only": lambda n: (prose * (n // len(prose) + 1))[:n],
        "one letter repeated": lambda n: "a" * n,
    }

    def count(t: str) -> int:
        tokens.clear_caches()
        return enc.count(t, disallowed_special=())

    for name, make in sources.items():
        for threads in (1, cpus):
            seconds = {}
            with num_threads(threads):
                for mb in (5, 50):
                    text = make(mb * 1_000_000)
                    seconds[mb] = _one(count, text, max(1, rounds // 3), time.perf_counter)
            print(
                f"| {name} | {threads} | {5 / seconds[5]:.1f} | {50 / seconds[50]:.1f} | "
                f"{seconds[50] / seconds[5]:.1f} |"
            )


SECTIONS = {
    "split": split_section,
    "short": short_section,
    "tokens": token_section,
    "header": header_section,
    "scaling": scaling_section,
    "nosep": nosep_section,
    "letters": letters_section,
}


PAIRED = ("split", "short", "tokens", "header")


def across_processes(args: argparse.Namespace, sections: list[str]) -> None:
    """The paired ``sections`` run in ``args.processes`` fresh interpreters, one after
    another (each its own rounds, checks and tables, printed to nothing), then each row's
    median and range over the processes."""
    runs = []
    flags = ["--free-outputs"] if args.free_outputs else []
    for _ in range(args.processes):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "rows.json"
            command = [sys.executable, __file__, "--rounds", str(args.rounds), *flags]
            command += ["--rows-to", str(path), *sections]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            runs.append(json.loads(path.read_text()))
    _spread_tables(runs)


def _spread_tables(runs: list[list[dict]]) -> None:
    """Per row: the medians over processes of its cold and warm speeds and of its ratio
    (each process's a median of paired rounds), and the lowest and highest ratio."""
    rows: dict[tuple[str, str, str, int], list[dict]] = {}
    for run in runs:
        seen_in_run: dict[tuple[str, str, str], int] = {}
        for row in run:
            # A name may recur in a table (each group's floor row): rows are told apart by
            # their order among their namesakes.
            key = (row["title"], row["corpus"], row["name"])
            seen_in_run[key] = seen_in_run.get(key, -1) + 1
            rows.setdefault((*key, seen_in_run[key]), []).append(row)
    title = None
    for (table, corpus, name, _), seen in rows.items():
        if table != title:
            title = table
            print(f"\n### {table} ({len(runs)} processes)\n")
            print(
                "| corpus | implementation | cold MB/s | cold vs LangChain | lowest-highest |"
                " warm MB/s |"
            )
            print("|---|---|---:|---:|---:|---:|")
        mb, ratios = seen[0]["mb"], [row["ratio"] for row in seen]
        cold = mb / statistics.median(row["cold"] for row in seen)
        warm = mb / statistics.median(row["warm"] for row in seen)
        spread = f"{min(ratios):.1f}-{max(ratios):.1f}x"
        ratio = statistics.median(ratios)
        print(f"| {corpus} | {name} | {cold:.1f} | {ratio:.1f}x | {spread} | {warm:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument(
        "--free-outputs",
        action="store_true",
        help="drop each output as soon as it is made (timed) instead of keeping it",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help=f"run in N fresh processes and report medians and ranges ({', '.join(PAIRED)})",
    )
    parser.add_argument("--rows-to", type=Path, help=argparse.SUPPRESS)  # for --processes
    parser.add_argument("sections", nargs="*", help=f"any of {', '.join(SECTIONS)} (default: all)")
    args = parser.parse_args()
    unknown = set(args.sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    if args.processes < 1:
        parser.error(f"--processes must be at least 1, got {args.processes}")
    print(f"{' '.join(sys.argv[1:]) or 'all'}: {host_line()}, commit {commit()}")
    if args.processes > 1:
        sections = args.sections or list(PAIRED)
        if set(sections) - set(PAIRED):
            parser.error(f"--processes runs only the paired tables: {', '.join(PAIRED)}")
        across_processes(args, sections)
        print(f"\nAt the end: {load_average()}.")
        return
    logging.disable(logging.WARNING)  # LangChain's size warnings, alike for both sides
    # The harness's own objects (LangChain's and pydantic's modules, ~55k) out of the cyclic
    # collector's view: otherwise a full collection, ~70 ms here walking them, lands in
    # whichever pass crosses its threshold (one row read 1.8x in one run and 11x in the
    # next). Collections the passes set off still count, walking what they made. (Collecting
    # before every pass as well made every allocating pass 1.3-1.5x slower, the floor too.)
    gc.collect()
    gc.freeze()
    global FREE_OUTPUTS
    FREE_OUTPUTS = args.free_outputs
    for name in args.sections or SECTIONS:
        if name == "letters":  # wall clock, one thread and all (its own `num_threads`)
            SECTIONS[name](args.rounds)
            continue
        # CPU time, which adds threads up: one thread, as LangChain. A text of 1 MB or more
        # (en-prose's one file) would otherwise be tokenized on every core.
        with num_threads(1):
            SECTIONS[name](args.rounds)
    if args.rows_to is not None:
        args.rows_to.write_text(json.dumps(ROWS))
    print(f"\nAt the end: {load_average()}.")


def commit() -> str:
    """The checkout's commit (with ``+`` if files differ from it), or ``unknown``."""
    root = Path(__file__).resolve().parents[1]
    try:
        git = ["git", "-C", str(root)]
        head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True)
        dirty = subprocess.run([*git, "status", "--porcelain", "-uno"], capture_output=True)
    except OSError:  # no git
        return "unknown"
    if head.returncode != 0:
        return "unknown"
    return head.stdout.decode().strip() + ("+" if dirty.stdout.strip() else "")


if __name__ == "__main__":
    main()
