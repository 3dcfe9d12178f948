"""Options of ``ferrochunk chunk`` refused where they would do nothing: an option for JSON
Lines with no JSON Lines input, ``--min-size`` with a chunker that has none, and so on. A
silently ignored option looked like it had worked."""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Sequence

from . import UsageError
from .inputs import JSONL_SUFFIXES, PARQUET_SUFFIXES, kind_of

KINDS = frozenset({"text", "jsonl", "parquet"})
# option -> the input kind it applies to, and its counterpart for the other kind
FIELDS = {
    "text_field": ("jsonl", "--text-column"),
    "id_field": ("jsonl", "--id-column"),
    "text_column": ("parquet", "--text-field"),
    "id_column": ("parquet", "--id-field"),
}
NAMES = {"jsonl": "JSON Lines", "parquet": "Parquet"}
# option -> the chunkers it applies to
CHUNKER_OPTIONS = {
    "min_size": ("markdown", "text", "auto"),
    "cjk": ("recursive", "markdown", "text", "auto"),
    "language": ("recursive",),
}


def check_options(args: argparse.Namespace) -> None:
    """Refuses an option the chosen ``--chunker`` does not use, and ``--progress`` with
    ``--quiet`` (which hides the bar)."""
    if args.progress and args.quiet:
        raise UsageError("--progress shows a bar and --quiet hides it: choose one")
    for option, chunkers in CHUNKER_OPTIONS.items():
        if getattr(args, option) not in (None, False) and args.chunker not in chunkers:
            flag = "--" + option.replace("_", "-")
            raise UsageError(
                f"{flag} does nothing with --chunker {args.chunker} "
                f"(it is for --chunker {_either(chunkers)})"
            )


def check_incremental(args: argparse.Namespace, fmt: str) -> None:
    """Refuses ``--incremental`` where there is nothing to compare with or to rebuild:
    standard output or a device, Parquet output, standard input; ``--delta`` without it."""
    if args.chunker == "auto" and fmt != "jsonl":
        raise UsageError("--chunker auto writes JSON Lines (rows of several types): give "
                         "--out FILE.jsonl")  # fmt: skip
    if args.chunker == "auto" and args.incremental:
        raise UsageError("--incremental runs one chunker: choose --chunker text, markdown, ...")
    if not args.incremental:
        if args.delta is not None:
            raise UsageError("--delta is written by --incremental runs: add --incremental")
        return
    if args.out == "-" or _special(args.out):
        raise UsageError("--incremental rebuilds an output file: give --out FILE.jsonl")
    if fmt != "jsonl":
        raise UsageError("--incremental writes JSON Lines: give --out FILE.jsonl")
    if not args.paths or "-" in args.paths:
        raise UsageError(
            "--incremental compares files with the last run: name files or folders, not "
            "standard input"
        )


def _special(path: str) -> bool:
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _either(names: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def check_input_options(
    args: argparse.Namespace, paths: Sequence[str], kinds: frozenset[str]
) -> None:
    """Refuses ``--glob`` when no input is a folder, and a field or column option when no
    input can be of its kind (``kinds``: see :func:`possible_kinds`)."""
    if args.glob and not any(p != "-" and os.path.isdir(p) for p in paths):
        raise UsageError("--glob picks the files of folders, and no folder is given")
    for option, (kind, other) in FIELDS.items():
        if getattr(args, option) is None or kind in kinds:
            continue
        flag = "--" + option.replace("_", "-")
        hint = f"; for {NAMES[other_kind(kind)]} use {other}" if other_kind(kind) in kinds else ""
        raise UsageError(f"{flag} is for {NAMES[kind]} inputs, and none is given{hint}")


def other_kind(kind: str) -> str:
    return "parquet" if kind == "jsonl" else "jsonl"


def possible_kinds(paths: Sequence[str], globs: Sequence[str], forced: str) -> frozenset[str]:
    """The input kinds ``paths`` may hold: a named file's by its suffix, standard input's
    text (unless ``--input-format``), a folder's those its globs can match."""
    if forced != "auto":
        return frozenset({forced})
    kinds: set[str] = set()
    for path in paths:
        if path == "-":
            kinds.add("text")
        elif os.path.isdir(path):
            kinds.update(k for g in globs for k in glob_kinds(g))
        else:
            kinds.add(kind_of(path, "auto"))
    return frozenset(kinds)


def glob_kinds(pattern: str) -> frozenset[str]:
    """The kinds a folder pattern can match: by its suffix when that is plain (``*.md``:
    text), else any (``*``, ``*.json*``)."""
    name = pattern.lower().removesuffix(".gz")
    if name.endswith(JSONL_SUFFIXES):
        return frozenset({"jsonl"})
    if name.endswith(PARQUET_SUFFIXES):
        return frozenset({"parquet"})
    suffix = os.path.splitext(name)[1]
    if not suffix or any(c in suffix for c in "*?["):
        return KINDS
    return frozenset({"text"})
