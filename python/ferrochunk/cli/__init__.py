"""The ``ferrochunk`` command: subcommands registered by module.

To add one, add its module to ``COMMANDS``. The module has ``HELP`` (one line) and either
``configure(parser)`` and ``run(args) -> int`` (the exit code), sharing this parser, or its
own ``main(argv) -> int`` that parses its arguments itself (``ferrochunk eval``). Modules
are imported when the parser is built, so they import anything heavy inside ``run``/``main``.
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
    "eval": "ferrochunk.eval.cli",
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
        if not hasattr(module, "configure"):  # parses its own arguments: see main()
            sub.add_parser(name, help=module.HELP, add_help=False)
            continue
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
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in COMMANDS:
        module = importlib.import_module(COMMANDS[argv[0]])
        if not hasattr(module, "configure"):
            return int(module.main(argv[1:]))
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
