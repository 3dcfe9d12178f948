"""The ``ferrochunk`` command: subcommands registered by module.

Each subcommand is a module with ``HELP`` (one line), ``configure(parser)`` and
``run(args) -> int`` (the exit code). To add one, add its module to ``COMMANDS``; it is
imported when the parser is built, so it should import anything heavy inside ``run``.
Errors a user can fix raise :class:`UsageError`: one line on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn, Optional

# name -> module with HELP, configure(parser), run(args)
COMMANDS: dict[str, str] = {
    "chunk": "ferrochunk.cli.chunk",
    "bench": "ferrochunk.cli.bench",
}


class UsageError(Exception):
    """A problem with the command line or its inputs that the user can fix (exit 2)."""


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


def build_parser() -> argparse.ArgumentParser:
    """The parser with every registered subcommand."""
    parser = Parser(prog="ferrochunk", description="Fast text chunking for RAG pipelines.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        command = sub.add_parser(
            name,
            help=module.HELP,
            description=module.HELP,
            formatter_class=HelpFormatter,
        )
        module.configure(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``ferrochunk`` script; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except UsageError as err:
        print(f"ferrochunk {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"ferrochunk {args.command}: interrupted", file=sys.stderr)
        return 130


__all__ = ["COMMANDS", "Parser", "UsageError", "build_parser", "main"]
