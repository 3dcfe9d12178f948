"""``ferrochunk view FILE… -o view.html``: the chunks of files in one HTML page, or in the
terminal (``--terminal``, with ``rich``), chosen by ``ferrochunk chunk``'s chunker options;
``--compare "OPTIONS"`` puts a second chunker's chunks beside them."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import Any, NoReturn

from .._atomic import write_text
from ..cli import UsageError
from ..cli.checks import check_options
from ..cli.chunkers import add_chunker_options, public_chunker


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", help="text files to show (UTF-8)")
    parser.add_argument("--out", "-o", default="view.html", help="the HTML page to write")
    add_chunker_options(parser)
    parser.add_argument(
        "--compare",
        metavar="OPTIONS",
        help="a second chunker, side by side: its chunker options in one argument, e.g. "
        '"--chunker markdown --chunk-size 500"; a peer first: "langchain --chunk-size 500"',
    )
    parser.add_argument(
        "--tokens",
        default="cl100k_base",
        metavar="ENCODING",
        help="show sizes in tokens of this encoding too ('none': only the chunker's counts)",
    )
    parser.add_argument(
        "--terminal", action="store_true", help="print the chunks in the terminal (needs rich)"
    )


class _CompareParser(argparse.ArgumentParser):
    """Parses ``--compare``'s value; a mistake in it is the command's one-line usage error."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"--compare {self.prog!r}: {message}")


def compare_args(text: str) -> argparse.Namespace:
    """``--compare``'s chunker options, parsed as the command's own are (``peer``: the
    peer named first, else ``None``)."""
    from .peers import PEERS

    parser = _CompareParser(prog=text, add_help=False)
    add_chunker_options(parser)
    try:
        words = shlex.split(text)
    except ValueError as err:  # an unclosed quote
        raise UsageError(f"--compare {text!r}: {err}") from None
    name = words.pop(0) if words and words[0] in PEERS else None
    args = parser.parse_args(words)
    args.peer = name
    return args


def _chunker(args: argparse.Namespace, path: str) -> Any:
    if getattr(args, "peer", None):
        from ..cli.chunkers import chunk_size
        from .peers import peer

        size = chunk_size(args)
        overlap = size // 5 if args.chunk_overlap is None else args.chunk_overlap
        return peer(args.peer, size, overlap)
    check_options(_with_defaults(args))
    try:
        return public_chunker(args, path)
    except (TypeError, ValueError) as err:
        raise UsageError(str(err)) from None


def _with_defaults(args: argparse.Namespace) -> argparse.Namespace:
    """``check_options`` reads the progress options ``chunk`` has; ``view`` has none."""
    return argparse.Namespace(**{"progress": None, "quiet": False, **vars(args)})


def run(args: argparse.Namespace) -> int:
    """Write the page (or print the terminal view); exit 2 for a usage error."""
    for path in args.paths:
        if not Path(path).is_file():
            raise UsageError(f"{path}: no such file")
    other = compare_args(args.compare) if args.compare else None
    tokens = None if args.tokens == "none" else args.tokens
    if args.terminal:
        from .terminal import show

        for path in args.paths:
            show(Path(path), _chunker(args, path), tokens)
        return 0
    from . import documents
    from .page import page

    docs = []
    for path in args.paths:
        chunkers = [_chunker(args, path)] + ([_chunker(other, path)] if other else [])
        try:
            docs += documents([Path(path)], chunkers, tokens=tokens)
        except UnicodeDecodeError as err:
            raise UsageError(f"{path}: not UTF-8 ({err.reason} at byte {err.start})") from None
    write_text(args.out, page(docs, "ferrochunk view: " + ", ".join(args.paths)))
    return 0


__all__ = ["compare_args", "configure", "run"]
