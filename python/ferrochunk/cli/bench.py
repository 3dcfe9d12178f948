"""``ferrochunk bench``: speed against the reference and LangChain (see ``ferrochunk.bench``)."""

from __future__ import annotations

import argparse

from . import UsageError
from .options import non_negative, positive


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--corpus",
        help="folder of corpora: each sub-folder one, the files beside them one more "
        "(default: ../shared/corpus, else the bundled sample)",
    )
    parser.add_argument("--rounds", type=positive, default=5, help="timed rounds per measurement")
    parser.add_argument("--chunk-size", type=positive, default=1000, help="characters per chunk")
    parser.add_argument(
        "--chunk-overlap",
        type=non_negative,
        help="overlap (default: a fifth of the chunk size, as `chunk` and `Splitter`)",
    )


def run(args: argparse.Namespace) -> int:
    if args.chunk_overlap is None:
        args.chunk_overlap = args.chunk_size // 5
    if args.chunk_overlap > args.chunk_size:
        size, overlap = args.chunk_size, args.chunk_overlap
        raise UsageError(f"--chunk-overlap ({overlap}) must not exceed --chunk-size ({size})")
    from ..bench import run_cli
    from .corpora import load_corpora

    try:
        corpora = load_corpora(args.corpus)
    except ValueError as err:
        raise UsageError(str(err)) from None
    return run_cli(args, corpora)
