"""The notes and skips ``ferrochunk chunk`` shows on stderr as the job finds them.

A JSON Lines field that is missing is shown once per file, with the fields its row has: a
wrong ``--text-field`` used to print a line for every row and never the right name.
"""

from __future__ import annotations

import gzip
import itertools
import json
from typing import Optional

from .inputs import Walk, display_name
from .progress import Progress

MISSING_FIELD = "no string field "
# A row past this line is not read again for its fields (the hint is then left out).
HINT_LINES = 10_000


class Messages:
    """Shows what ``walk`` noted or skipped since the last call."""

    def __init__(self, walk: Walk) -> None:
        self.walk = walk
        self.notes = 0
        self.skips = 0
        self.missing: set[tuple[str, str]] = set()  # (file, reason) already shown

    def tell(self, progress: Progress) -> None:
        for path, reason in self.walk.notes[self.notes :]:
            progress.write(f"ferrochunk: {display_name(path)}: {reason}")
        for what, reason in self.walk.skipped[self.skips :]:
            line = self._skip(what, reason)
            if line is not None:
                progress.write(f"ferrochunk: skipped {line}")
        self.notes, self.skips = len(self.walk.notes), len(self.walk.skipped)

    def _skip(self, what: str, reason: str) -> Optional[str]:
        """The line for a skip, or ``None`` for a missing field already shown for its file."""
        if not reason.startswith(MISSING_FIELD):
            return f"{display_name(what)}: {reason}"
        name, _, line = what.rpartition(":")
        if (name, reason) in self.missing:
            return None
        self.missing.add((name, reason))
        fields = _fields(name, int(line)) if line.isdigit() else None
        found = f"its fields: {', '.join(fields)}; " if fields else ""
        return (
            f"{what}: {reason} ({found}choose one with --text-field); later rows of "
            f"{name} without it are counted, not listed"
        )


def _fields(name: str, line: int) -> Optional[list[str]]:
    """The keys of line ``line`` (from 1) of JSON Lines file ``name``, if it can be read
    again (not standard input) and the row is an object."""
    if name == "-" or line > HINT_LINES:
        return None
    try:
        opener = gzip.open if name.lower().endswith(".gz") else open
        with opener(name, "rb") as file:
            row = next(itertools.islice(file, line - 1, None), b"")
        value = json.loads(row.removeprefix(b"\xef\xbb\xbf"))
    except (OSError, ValueError, EOFError):
        return None
    return [str(key) for key in value] if isinstance(value, dict) else None
