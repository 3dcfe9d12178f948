"""``ferrochunk chunk``: a corpus (files, folders, JSON Lines, Parquet, stdin) to chunks in
JSON Lines or Parquet.

Reading, decoding, splitting and serialising run in Rust on all cores
(``_native.CorpusJob``); Python walks folders (as the job asks for inputs, so the pool
starts on the first files at once), reads Parquet batches, writes what Rust hands back (in
input order, as it comes) and shows progress.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from typing import Any

from .. import _native, parallel  # noqa: F401 (parallel: the fork hook for the pools)
from . import UsageError, auto
from .checks import check_incremental, check_input_options, check_options, possible_kinds
from .chunkers import add_chunker_options, chunk_size, counter, recursive_splitter
from .inputs import DEFAULT_GLOBS, Walk, job_inputs
from .messages import Messages
from .options import threads
from .outputs import atomic_output, format_of, open_writer
from .progress import Progress, summary


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        help="files or folders, '-' for stdin (default: stdin when it is a pipe or a file, "
        "else the bundled sample)",
    )
    parser.add_argument(
        "--glob",
        action="append",
        metavar="PATTERN",
        help=f"file names to take from folders, repeatable (default: {' '.join(DEFAULT_GLOBS)}"
        ", each also .gz)",
    )
    parser.add_argument(
        "--input-format",
        choices=("auto", "text", "jsonl", "parquet"),
        default="auto",
        help="how to read inputs (auto: by suffix; stdin is text)",
    )
    parser.add_argument("--text-field", help="JSON Lines field with the text (default: text)")
    parser.add_argument("--id-field", help="JSON Lines field with the document id")
    parser.add_argument("--text-column", help="Parquet column with the text (default: text)")
    parser.add_argument("--id-column", help="Parquet column with the document id")
    add_chunker_options(parser, auto=True)
    parser.add_argument("--out", "-o", default="-", help="output file (default: stdout)")
    parser.add_argument(
        "--format", choices=("jsonl", "parquet"), help="output format (default: by --out suffix)"
    )
    parser.add_argument(
        "--threads",
        type=threads,
        default=None,
        metavar="N",
        help="worker threads, or 'auto': FERROCHUNK_NUM_THREADS, RAYON_NUM_THREADS, else the "
        "CPUs this process may use",
    )
    progress = parser.add_mutually_exclusive_group()
    progress.add_argument(
        "--progress",
        action="store_true",
        default=None,
        help="show a progress bar even when stderr is not a terminal (folders are then "
        "walked before the job starts, for the total)",
    )
    progress.add_argument("--no-progress", dest="progress", action="store_false")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress, no summary")
    parser.add_argument(
        "--incremental",
        action="store_true",
        help="re-chunk only the sources that changed since the last run to --out (state in "
        ".OUT.ferrochunk-state), resume a killed run, and write a delta of chunk ids",
    )
    parser.add_argument(
        "--delta",
        metavar="FILE",
        help="with --incremental: where the delta goes (default: OUT with .delta before "
        "its suffix)",
    )


def run(args: argparse.Namespace) -> int:
    """Chunk every input; exit 1 if any was skipped, 2 for a usage error or an output that
    cannot be written."""
    check_options(args)
    job_args, markdown = _chunker(args)
    fmt = format_of(args.out, args.format)
    check_incremental(args, fmt)
    start = time.perf_counter()
    try:
        if args.incremental:
            (docs, chunks, nbytes), skipped = _chunk_incremental(args, job_args)
        else:
            (docs, chunks, nbytes), skipped = _chunk(args, job_args, markdown, fmt)
    except BrokenPipeError:
        raise  # the reader went away: ``cli.main`` ends quietly
    except OSError as err:  # a write failed (a full disk, say): the reading never raises
        raise UsageError(f"cannot write {args.out}: {_reason(err)}") from None
    if not args.quiet:
        summary(docs, chunks, nbytes, time.perf_counter() - start, skipped)
        if args.chunker == "auto":
            print(auto.by_type(args.types), file=sys.stderr)
    return 1 if skipped else 0


def _chunk(
    args: argparse.Namespace, job_args: dict[str, Any], markdown: bool, fmt: str
) -> tuple[list[int], int]:
    """Runs the job: ``[documents, chunks, UTF-8 bytes of text]`` and how many inputs
    were skipped."""
    with ExitStack() as stack:
        paths, sample = _paths(args.paths, stack)
        globs = args.glob or (auto.GLOBS if args.chunker == "auto" else DEFAULT_GLOBS)
        kinds = frozenset({"text"}) if sample else possible_kinds(paths, globs, args.input_format)
        check_input_options(args, paths, kinds)
        walk = Walk(paths, globs, args.input_format, output=args.out)
        messages = Messages(walk)
        if walk.empty:
            messages.tell(Progress(0, False))
            raise UsageError("nothing to chunk")
        try:
            where = stack.enter_context(atomic_output(args.out))
            writer = _writer(where, fmt, markdown, args.chunker, stack)
        except OSError as err:
            raise UsageError(f"cannot write {args.out}: {_reason(err)}") from None
        stack.callback(writer.close)
        show = (sys.stderr.isatty() if args.progress is None else args.progress) and not args.quiet
        if show:  # a bar's rate and ETA need the total: walk everything first
            walk.eager()
        progress = Progress(None if walk.unsized else walk.total_bytes, show)
        stack.enter_context(progress)
        held: list[Any] = []  # HTML and PDF files, chunked after the job (--chunker auto)
        if args.chunker == "auto":
            inputs = auto.job_inputs(walk, args.text_column or "text", args.id_column, held)
        else:
            inputs = job_inputs(walk, args.text_column or "text", args.id_column)
        job = _job(
            args,
            inputs=inputs,
            format=writer.native_format,
            output=writer.path,
            threads=args.threads,
            text_field=args.text_field or "text",
            id_field=args.id_field,
            **job_args,
        )
        totals = [0, 0, 0]
        for payload, docs, chunks, disk_bytes, text_bytes, bad, _ in job:
            writer.write(payload)
            walk.skipped += bad
            totals = [totals[0] + docs, totals[1] + chunks, totals[2] + text_bytes]
            progress.resize(walk.total_bytes)
            progress.update(disk_bytes, text_bytes)
            messages.tell(progress)
        if args.chunker == "auto":
            args.types = writer.documents
            for source in held:
                docs, chunks, text_bytes = auto.chunk_rendered(
                    source, writer, walk, args, job_args.get("length")
                )
                totals = [totals[0] + docs, totals[1] + chunks, totals[2] + text_bytes]
                progress.update(source.size, text_bytes)
                messages.tell(progress)
        messages.tell(progress)
    return totals, len(walk.skipped)


def _writer(where: str, fmt: str, markdown: bool, chunker: str, stack: ExitStack) -> Any:
    """The output's writer; with ``--chunker auto`` one that types every row."""
    if chunker != "auto":
        return open_writer(where, fmt, markdown)
    file = sys.stdout.buffer if where == "-" else stack.enter_context(open(where, "wb"))
    return auto.TypedWriter(file)


def _chunk_incremental(args: argparse.Namespace, job_args: dict[str, Any]) -> tuple[list[int], int]:
    """An incremental run (``cli/incremental.py``); its report is printed with the summary."""
    from .incremental import incremental_run

    report, walk = incremental_run(args, job_args)
    if not args.quiet:
        tell_report(report)
    return [report.documents, report.chunks, report.text_bytes], len(walk.skipped)


def tell_report(report: Any) -> None:
    """The incremental lines of the summary."""
    if report.full:
        print(f"ferrochunk: incremental: {report.full}", file=sys.stderr)
    parts = [f"{report.unchanged} unchanged", f"{report.chunked} chunked ({report.new} new)"]
    if report.resumed:
        parts.append(f"{report.resumed} resumed from the killed run")
    if report.kept:
        parts.append(f"{len(report.kept)} kept from the last run (unreadable now)")
    parts.append(f"{report.deleted} deleted")
    print(
        f"ferrochunk: incremental: {report.sources} sources: {', '.join(parts)}; delta "
        f"+{report.added} -{report.removed} chunk ids in {report.delta}",
        file=sys.stderr,
    )


def _reason(err: OSError) -> str:
    """An OS error's message without its errno (Rust's errors carry none in ``strerror``)."""
    return err.strerror or str(err).split(" (os error")[0]


def _job(args: argparse.Namespace, **kwargs: Any) -> Any:
    try:
        return _native.CorpusJob(**kwargs)
    except OSError as err:
        raise UsageError(f"cannot write {args.out}: {_reason(err)}") from None
    except ValueError as err:  # FERROCHUNK_NUM_THREADS or RAYON_NUM_THREADS out of range
        raise UsageError(str(err)) from None


def _paths(paths: Sequence[str], stack: ExitStack) -> tuple[Sequence[str], bool]:
    """The inputs, and whether they are the bundled sample: with no paths, standard input
    when something is piped or redirected into it (as Unix filters do), else the sample."""
    if paths:
        return paths, False
    if _stdin_is_data():
        return ["-"], False
    from importlib import resources  # only for the bundled sample: 15 ms of imports

    sample = stack.enter_context(resources.as_file(resources.files("ferrochunk") / "sample"))
    return [str(sample)], True


def _stdin_is_data() -> bool:
    """Whether standard input is a pipe or a file (not a terminal, nor ``/dev/null`` as
    cron and test runners give)."""
    try:
        mode = os.fstat(0).st_mode
    except OSError:  # closed
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISREG(mode)


def _chunker(args: argparse.Namespace) -> tuple[dict[str, Any], bool]:
    """The CorpusJob arguments for the chosen chunker, and whether it is Markdown."""
    size = chunk_size(args)
    try:
        if args.chunker == "tokens":
            return _tokens(args, size), False
        length = counter(args.encoding)
        if args.chunker in ("markdown", "text", "auto"):
            return _markdown(args, size, length, auto=args.chunker != "markdown"), True
        return _recursive(args, size, length), False
    except KeyError as err:  # its str() is the repr of its argument: quoted
        raise UsageError(str(err.args[0]) if err.args else str(err)) from None
    except (TypeError, ValueError) as err:
        raise UsageError(str(err)) from None


def _recursive(args: argparse.Namespace, size: int, counter: Any) -> dict[str, Any]:
    splitter = recursive_splitter(args, size, counter)
    specs = splitter._rust_specs()
    if specs is None:
        raise ValueError("these separators need Python's re, which the CLI does not run")
    return {
        "engine": splitter.native_core(),
        "settings": splitter.settings,
        "separators": [(pattern, is_regex) for pattern, is_regex, _ in specs],
        "length": counter,
    }


def _markdown(args: argparse.Namespace, size: int, counter: Any, auto: bool) -> dict[str, Any]:
    from .. import _native
    from ..frontend.patterns import to_rust
    from ..markdown.chunker import MarkdownChunker, NativeMarkdownEngine

    chunker = MarkdownChunker(
        size,
        min_size=args.min_size,
        separators="cjk" if args.cjk else "default",
        length_function=counter,
        chunk_overlap=args.chunk_overlap or 0,
    )
    engine = chunker._engine
    if not isinstance(engine, NativeMarkdownEngine):
        raise ValueError("these separators need Python's re, which the CLI does not run")
    native = engine._native
    if auto:  # the markup of each file by its suffix (rust/structure/mod.rs, Markup::Auto)
        seps = [to_rust(p) or "" for p in chunker.separators]
        args_ = (chunker.chunk_size, chunker.min_size, seps, chunker.settings)
        native = _native.MarkdownChunker(
            *args_, chunker.chunk_overlap, "auto", chunker.sentence_cuts
        )
    return {"engine": native, "settings": chunker.settings, "length": counter}


def _tokens(args: argparse.Namespace, size: int) -> dict[str, Any]:
    from ..tokens.tokenizer import _check_window, get_encoding

    overlap = size // 5 if args.chunk_overlap is None else args.chunk_overlap
    _check_window(size, overlap)
    encoding = args.encoding or "cl100k_base"
    return {
        "engine": get_encoding(encoding)._native,
        "settings": f"tokens-v1|size={size}|overlap={overlap}|encoding={encoding}",
        "size": size,
        "overlap": overlap,
    }
