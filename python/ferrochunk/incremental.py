"""Incremental corpus runs from Python: :func:`update` is ``ferrochunk chunk SRC --out OUT
--incremental`` (docs/corpus.md, "Incremental runs"), returning what it did.

>>> import ferrochunk.incremental, pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "a.md").write_text("Some text.")
>>> report = ferrochunk.incremental.update([folder / "a.md"], folder / "chunks.jsonl")
>>> report.chunked, report.added
(1, 1)
>>> ferrochunk.incremental.update([folder / "a.md"], folder / "chunks.jsonl").unchanged
1
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Optional, Union

from .cli import UsageError, build_parser
from .cli.checks import check_incremental, check_options
from .cli.chunk import _chunker
from .cli.incremental import Report, incremental_run
from .cli.outputs import format_of

PathLike = Union[str, "os.PathLike[str]"]


def update(
    paths: Sequence[PathLike],
    out: PathLike,
    *,
    delta: Optional[PathLike] = None,
    threads: Optional[int] = None,
    **options: Any,
) -> Report:
    """Brings ``out`` (JSON Lines) up to date with ``paths``, re-chunking only the sources
    that changed, and writes the delta (``delta``, default ``OUT`` with ``.delta`` before
    its suffix). ``options`` are ``ferrochunk chunk``'s, by their long names
    (``chunk_size=500``, ``chunker="markdown"``, ``glob=["*.md"]``, ``cjk=True``). Raises
    ``ValueError`` for an option the command would refuse, ``OSError`` if the output cannot
    be written; ``report.skipped`` lists the inputs skipped."""
    argv = ["chunk", *(os.fspath(p) for p in paths), "--out", os.fspath(out), "--incremental", "-q"]
    if delta is not None:
        argv += ["--delta", os.fspath(delta)]
    if threads is not None:
        argv += ["--threads", str(threads)]
    for key, value in options.items():
        argv += _flag(key, value)
    try:
        args = build_parser("chunk").parse_args(argv)
    except SystemExit:
        raise ValueError(f"invalid options: {options!r} (see ferrochunk chunk --help)") from None
    try:
        check_options(args)
        job_args, _ = _chunker(args)
        check_incremental(args, format_of(args.out, args.format))
        report, walk = incremental_run(args, job_args)
    except UsageError as err:
        raise ValueError(str(err)) from None
    report.skipped = list(walk.skipped)
    return report


def _flag(key: str, value: Any) -> list[str]:
    flag = "--" + key.replace("_", "-")
    if value is None or value is False:
        return []
    if value is True:
        return [flag]
    if isinstance(value, (list, tuple)):
        return [part for v in value for part in (flag, str(v))]
    return [flag, str(value)]


__all__ = ["Report", "update"]
