"""The ``ferrochunk`` command: subcommands registered by module.

To add one, add a line to ``COMMANDS``: its module and a one-line help. The module has
either ``configure(parser)`` and ``run(args) -> int`` (the exit code), sharing this parser,
or its own ``main(argv) -> int`` that parses its arguments itself (``ferrochunk eval``).
Only the module of the command being run is imported (``--help`` imports them all), so a
command pays for no other command's imports (eval's numpy, for one).
Errors a user can fix raise :class:`UsageError`: one line on stderr, exit code 2. A closed
standard output (``| head``) ends the run quietly with exit code 141.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn, Optional

# name -> (module with configure/run or main, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "chunk": (
        "ferrochunk.cli.chunk",
        "chunk files, folders, JSON Lines, Parquet or stdin (default: stdin when piped, else "
        "the bundled sample) to JSONL or Parquet",
    ),
    "view": (
        "ferrochunk.view.cli",
        "show files' chunks in one HTML page (or the terminal): bands, cut reasons, sizes",
    ),
    "bench": ("ferrochunk.cli.bench", "compare speed with the pure-Python reference and LangChain"),
    "eval": (
        "ferrochunk.eval.cli",
        "score chunkers by retrieval (Recall/MRR/nDCG@K) on questions (default: bundled sample)",
    ),
}


class UsageError(Exception):
    """A problem with the command line or its inputs that the user can fix (exit 2)."""


class Terminated(BaseException):
    """SIGTERM or SIGHUP, raised where a command must clean up (its output's temporary file)
    as after Ctrl-C; exit code 128 + the signal's number, as a shell shows for it. Not an
    ``Exception``, so that no ``except Exception`` swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class Parser(argparse.ArgumentParser):
    """Bad options give one line (and a pointer to ``--help``), not the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class HelpFormatter(argparse.HelpFormatter):
    """Shows an option's default unless it is unset or its help already says it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if action.default in (None, False, argparse.SUPPRESS) or "default" in text:
            return text
        return f"{text} (default: %(default)s)"


def build_parser(only: Optional[str] = None) -> argparse.ArgumentParser:
    """The parser: every subcommand listed, the options of ``only`` (else of all) added."""
    parser = Parser(prog="ferrochunk", description="Fast text chunking for RAG pipelines.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name, (module_name, text) in COMMANDS.items():
        if only is not None and name != only:
            sub.add_parser(name, help=text, add_help=False)
            continue
        module = importlib.import_module(module_name)
        if not hasattr(module, "configure"):  # parses its own arguments: see main()
            sub.add_parser(name, help=text, add_help=False)
            continue
        command = sub.add_parser(name, help=text, description=text, formatter_class=HelpFormatter)
        module.configure(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``ferrochunk`` script; returns the exit code."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader of standard output went away (``| head``). Python ignores SIGPIPE, so
        # the write raised: stop quietly as a Unix tool that SIGPIPE ends, with the code a
        # shell shows for one (128 + 13).
        _discard_stdout()
        return 141


def _discard_stdout() -> None:
    """Points standard output at the null device, so the flush at exit does not fail
    again on the closed pipe (what the ``signal`` module's documentation advises)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):  # no real stdout: nothing left to flush there
        pass


def _main(argv: Optional[Sequence[str]]) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    only = argv[0] if argv and argv[0] in COMMANDS else None
    if only is not None:
        module = importlib.import_module(COMMANDS[only][0])
        if not hasattr(module, "configure"):
            return int(module.main(argv[1:]))
    args = build_parser(only).parse_args(argv)
    try:
        return int(args.run(args))
    except UsageError as err:
        print(f"ferrochunk {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"ferrochunk {args.command}: interrupted", file=sys.stderr)
        return 130
    except Terminated as signal:
        print(f"ferrochunk {args.command}: terminated", file=sys.stderr)
        return 128 + signal.signum


__all__ = ["COMMANDS", "Parser", "Terminated", "UsageError", "build_parser", "main"]
