"""``ferrochunk`` command line: ``chunk`` files to JSON Lines, ``bench`` against the peers.

The chunking job runs in Rust end to end (read, check UTF-8, split, serialise) on all cores,
a bounded batch of files at a time; Python only walks folders and reports progress.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from importlib import resources
from typing import IO, Optional

from . import _native
from .split.splitter import Splitter

SUFFIXES = (".md", ".txt")
BATCH_BYTES = 32 * 1024 * 1024
BATCH_FILES = 512
EVAL_HELP = "score chunkers by retrieval on questions (ferrochunk eval --help)"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``ferrochunk`` script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["eval"]:  # its own parser: ferrochunk/eval/cli.py
        from .eval.cli import main as eval_main

        return eval_main(argv[1:])
    args = _parser().parse_args(argv)
    if args.command == "bench":
        from .bench import run_cli

        return run_cli(args)
    return _chunk(args)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ferrochunk", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    chunk = sub.add_parser("chunk", help="chunk .md/.txt files (or the bundled sample) to JSONL")
    chunk.add_argument("paths", nargs="*", help="files or folders (default: bundled sample)")
    _size_options(chunk)
    chunk.add_argument("--out", "-o", default="-", help="output .jsonl file (default: stdout)")
    chunk.add_argument("--threads", type=int, default=0, help="worker threads (0: all cores)")
    chunk.add_argument("--quiet", "-q", action="store_true", help="no progress or summary")
    bench = sub.add_parser("bench", help="compare speed with the reference and LangChain")
    bench.add_argument("--corpus", help="folder of corpora (default: ../shared/corpus or sample)")
    bench.add_argument("--rounds", type=int, default=5, help="timed rounds per measurement")
    _size_options(bench)
    sub.add_parser("eval", help=EVAL_HELP, add_help=False)  # parsed by ferrochunk/eval/cli.py
    return parser


def _size_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--chunk-size", type=int, default=1000, help="characters per chunk")
    parser.add_argument("--chunk-overlap", type=int, default=200, help="characters of overlap")


def _chunk(args: argparse.Namespace) -> int:
    try:
        splitter = Splitter(args.chunk_size, args.chunk_overlap)
    except (TypeError, ValueError) as err:
        print(f"ferrochunk: {err}", file=sys.stderr)
        return 2
    with ExitStack() as stack:
        paths, missing = _collect(args.paths, stack)
        out = sys.stdout.buffer if args.out == "-" else stack.enter_context(open(args.out, "wb"))
        progress = Progress(sum(_size(p) for p in paths), enabled=not args.quiet)
        skipped = [(p, "no such file or folder") for p in missing]
        totals = [0, 0, 0]  # documents, chunks, bytes
        for batch in _batches(paths):
            jsonl, docs, chunks, nbytes, bad = _native.chunk_files(
                batch, splitter.native_core(), args.threads
            )
            out.write(jsonl)
            totals = [totals[0] + docs, totals[1] + chunks, totals[2] + nbytes]
            skipped += bad
            progress.update(sum(_size(p) for p in batch))
        out.flush()
    progress.finish()
    for path, reason in skipped:
        print(f"ferrochunk: skipped {path}: {reason}", file=sys.stderr)
    if not args.quiet:
        _summary(*totals, progress.elapsed, len(skipped))
    return 1 if skipped else 0


def _collect(paths: Sequence[str], stack: ExitStack) -> tuple[list[str], list[str]]:
    """Files to chunk (folders walked for .md/.txt, sorted) and paths that do not exist."""
    if not paths:
        sample = stack.enter_context(resources.as_file(resources.files(__package__) / "sample"))
        paths = [str(sample)]
    files: list[str] = []
    missing: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            files.extend(_walk(path))
        elif os.path.exists(path):
            files.append(path)
        else:
            missing.append(path)
    return files, missing


def _walk(folder: str) -> Iterator[str]:
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(SUFFIXES):
                yield os.path.join(root, name)


def _batches(paths: list[str]) -> Iterator[list[str]]:
    """Groups of files of bounded total size, so memory stays bounded on huge corpora."""
    batch: list[str] = []
    size = 0
    for path in paths:
        batch.append(path)
        size += _size(path)
        if size >= BATCH_BYTES or len(batch) >= BATCH_FILES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _summary(docs: int, chunks: int, nbytes: int, seconds: float, skipped: int) -> None:
    mb = nbytes / 1e6
    rate = mb / seconds if seconds > 0 else float("inf")
    note = f", {skipped} skipped" if skipped else ""
    print(
        f"ferrochunk: {docs} documents, {chunks} chunks, {mb:.2f} MB in {seconds:.2f} s "
        f"({rate:.0f} MB/s){note}",
        file=sys.stderr,
    )


class Progress:
    """A one-line progress bar on stderr, shown for runs longer than half a second."""

    def __init__(self, total: int, enabled: bool, stream: IO[str] = sys.stderr) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.start = time.perf_counter()
        self.stream = stream
        self.enabled = enabled and (stream.isatty() or bool(os.environ.get("FERROCHUNK_PROGRESS")))
        self.shown = False

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def update(self, nbytes: int) -> None:
        self.done += nbytes
        if not self.enabled or self.elapsed < 0.5:
            return
        frac = min(self.done / self.total, 1.0)
        bar = "#" * int(frac * 30)
        rate = self.done / 1e6 / self.elapsed
        self.stream.write(
            f"\r[{bar:<30}] {frac:4.0%} {self.done / 1e6:.1f}/{self.total / 1e6:.1f} MB "
            f"{rate:.0f} MB/s"
        )
        self.stream.flush()
        self.shown = True

    def finish(self) -> None:
        if self.shown:
            self.stream.write("\n")


if __name__ == "__main__":
    raise SystemExit(main())
