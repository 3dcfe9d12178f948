"""Speed comparison of ferrochunk, its pure-Python reference and the peers (``ferrochunk bench``).

Every implementation chunks each corpus with the same settings; LangChain-compatible ones are
checked for identical output. Rounds are paired: in each round every implementation splits
fresh copies of the texts (new ``str`` objects made before its clock starts, so nothing CPython
cached inside a string during an earlier pass, such as its UTF-8 form, helps: *cold*, what a
user splitting documents just read gets), then the same objects once more (*warm*). Figures
are medians over rounds; a ratio is the median of the rounds' ratios to LangChain.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional

if TYPE_CHECKING:
    from .cli.corpora import Corpora

SplitFn = Callable[[str], list[str]]


@dataclass
class Result:
    """One implementation on one corpus."""

    corpus: str
    name: str
    mb_per_s: float  # cold: fresh strings every round
    warm_mb_per_s: float  # the same strings again
    ratio: float  # median over rounds of (baseline's cold time / this cold time)
    identical: Optional[bool]  # None: a different algorithm, not comparable


def fresh(text: str) -> str:
    """An equal ``str`` that is a new object, with nothing cached in it (no UTF-8 form)."""
    if len(text) < 2:
        return text  # a single code point: nothing for CPython to cache
    half = len(text) // 2
    return text[:half] + text[half:]


@contextmanager
def num_threads(threads: int) -> Iterator[None]:
    """``FERROCHUNK_NUM_THREADS`` set to ``threads`` inside the block (read at each call: a
    long text's ``count`` or ``encode`` then uses that many), restored after."""
    saved = os.environ.get("FERROCHUNK_NUM_THREADS")
    os.environ["FERROCHUNK_NUM_THREADS"] = str(threads)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("FERROCHUNK_NUM_THREADS", None)
        else:
            os.environ["FERROCHUNK_NUM_THREADS"] = saved


def implementations(
    chunk_size: int, chunk_overlap: int
) -> tuple[dict[str, SplitFn], dict[str, str]]:
    """Name -> split function, for every implementation importable here; and name -> why
    not, for the peers left out (the table says so)."""
    import ferrochunk
    from ferrochunk import reference

    impls: dict[str, SplitFn] = {
        "ferrochunk": ferrochunk.RecursiveCharacterTextSplitter(
            chunk_size=chunk_size, chunk_overlap=chunk_overlap
        ).split_text,
        "ferrochunk native": _native_texts(
            ferrochunk.Splitter(chunk_size, chunk_overlap=chunk_overlap)
        ),
        "reference": reference.RecursiveCharacterTextSplitter(
            chunk_size=chunk_size, chunk_overlap=chunk_overlap
        ).split_text,
    }
    missing: dict[str, str] = {}
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        impls["langchain"] = RecursiveCharacterTextSplitter(
            chunk_size=chunk_size, chunk_overlap=chunk_overlap
        ).split_text
    except ImportError:
        missing["langchain"] = _not_installed("langchain-text-splitters")
    try:
        from semantic_text_splitter import TextSplitter

        impls["semantic-text-splitter"] = TextSplitter(
            (chunk_size - chunk_overlap, chunk_size), overlap=chunk_overlap
        ).chunks
    except ImportError:
        missing["semantic-text-splitter"] = _not_installed("semantic-text-splitter")
    except ValueError as err:  # its sizes are a range: (size - overlap, size)
        missing["semantic-text-splitter"] = f"refuses these settings: {err}"
    return impls, missing


def _not_installed(package: str) -> str:
    return f'not installed (pip install "ferrochunk[bench]", or {package} alone)'


def _native_texts(splitter: object) -> SplitFn:
    def run(text: str) -> list[str]:
        return [c.text for c in splitter.split(text)]  # type: ignore[attr-defined]

    return run


COMPATIBLE = {"ferrochunk", "ferrochunk native", "reference", "langchain"}


def _timed(fn: SplitFn, texts: Sequence[str]) -> tuple[float, list[list[str]]]:
    start = time.perf_counter()
    out = [fn(t) for t in texts]
    return time.perf_counter() - start, out


def compare(corpora: dict[str, list[str]], impls: dict[str, SplitFn], rounds: int) -> list[Result]:
    """Every implementation on every corpus in paired rounds, checked against LangChain (or
    the reference)."""
    results = []
    for corpus, texts in corpora.items():
        mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
        baseline = "langchain" if "langchain" in impls else "reference"
        expected = [impls[baseline](t) for t in texts]
        cold: dict[str, list[float]] = {name: [] for name in impls}
        warm: dict[str, list[float]] = {name: [] for name in impls}
        same: dict[str, bool] = dict.fromkeys(impls, True)
        for _ in range(rounds):
            for name, fn in impls.items():
                copies = [fresh(t) for t in texts]
                seconds, out = _timed(fn, copies)
                cold[name].append(seconds)
                warm[name].append(_timed(fn, copies)[0])
                same[name] = same[name] and out == expected
        for name in impls:
            ratios = [b / t for b, t in zip(cold[baseline], cold[name])]
            results.append(
                Result(
                    corpus,
                    name,
                    mb / statistics.median(cold[name]),
                    mb / statistics.median(warm[name]),
                    statistics.median(ratios),
                    same[name] if name in COMPATIBLE else None,
                )
            )
    return results


def table(results: list[Result]) -> str:
    """A Markdown table: cold MB/s and ratio to LangChain (or the reference), warm MB/s, and
    whether the output was identical."""
    base = "LangChain" if any(r.name == "langchain" for r in results) else "the reference"
    lines = [
        f"| corpus | implementation | cold MB/s | cold vs {base} | warm MB/s | identical output |",
        "|---|---|---:|---:|---:|---|",
    ]
    for r in results:
        same = {True: "yes", False: "**NO**", None: "n/a (other algorithm)"}[r.identical]
        lines.append(
            f"| {r.corpus} | {r.name} | {r.mb_per_s:.1f} | {r.ratio:.1f}x | "
            f"{r.warm_mb_per_s:.1f} | {same} |"
        )
    return "\n".join(lines)


def host_line() -> str:
    """When and on what the figures are taken: UTC time, ferrochunk's version, Python, the
    CPUs and the load average (1, 5 and 15 minutes). On a shared machine the ratios to
    LangChain move with the host's load by as much as a fifth (ferrochunk's time is mostly
    memory traffic, LangChain's interpretation; docs/benchmarks.md), so a table says what
    load it was taken under."""
    from . import __version__

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"{now}, ferrochunk {__version__}, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {load_average()}"
    )


def load_average() -> str:
    """``load average a b c`` (1, 5 and 15 minutes), or that it is unknown on this system."""
    try:
        return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except (AttributeError, OSError):  # no getloadavg (Windows) or none readable
        return "load average unknown"


def run_cli(args: argparse.Namespace, corpora: Corpora) -> int:
    """``ferrochunk bench``: print the comparison table; exit 1 if any output differs."""
    impls, missing = implementations(args.chunk_size, args.chunk_overlap)
    start = host_line()
    results = compare(corpora.texts, impls, max(args.rounds, 1))
    print(
        f"chunk_size={args.chunk_size} chunk_overlap={args.chunk_overlap}, median of "
        f"{args.rounds} paired rounds; cold: fresh str objects every round, warm: the same "
        f"objects again\n{corpora.line()}\n{start}; at the end, {load_average()}\n"
    )
    print(table(results))
    for name, why in missing.items():
        print(f"not measured: {name}: {why}")
    return 1 if any(r.identical is False for r in results) else 0
