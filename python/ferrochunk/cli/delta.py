"""The delta of an incremental run: what a vector store must delete and upsert to hold
the new output's chunks, given that it held those of the last delta's run.

JSON Lines, one object per line (docs/corpus.md, "Incremental runs"):

- first ``{"op": "run", "run": n (1, 2, ... for the runs of this output), "output": ...,
  "full": null | "why nothing was reused", "chunks": N, "added": A, "removed": R,
  "sources": S, "deleted_sources": D}``;
- then per source, in output order: ``{"op": "remove", "source": ..., "chunk_id": ...}``
  for each id it no longer has, and ``{"op": "add", "source": ..., "chunk_id": ...,
  "row": K}`` for each new one, ``row`` its line in the output (from 0);
- then per source gone: ``{"op": "delete_source", "source": ...}`` after the removes of
  all its ids.

A source whose ids did not change has no line. Ids are sets per source: the same text,
settings and span give the same id (``rust/chunk_id.rs``).
"""

from __future__ import annotations

import json
from typing import Any

from .state import Record


def write_delta(
    path: str, base: dict[bytes, Record], new: list[Record], report: Any, run: int
) -> None:
    """Writes the delta from ``base`` (by path) to ``new`` (in output order) at ``path``;
    ``run`` numbers the runs of this output."""
    body: list[str] = []
    added = removed = row = 0
    present = set()
    for record in new:
        present.add(record.path)
        old = base.get(record.path)
        if old is None or old.ids != record.ids:
            a, r = _changes(body, old, record, row)
            added, removed = added + a, removed + r
        row += record.chunks
    gone = [old for path, old in base.items() if path not in present]
    for old in gone:
        removed += _changes(body, old, None, row)[1]
        body.append(json.dumps({"op": "delete_source", "source": old.name}) + "\n")
    report.added, report.removed, report.deleted = added, removed, len(gone)
    head = {
        "op": "run",
        "run": run,
        "output": report.output,
        "full": report.full,
        "chunks": row,
        "added": added,
        "removed": removed,
        "sources": len(new),
        "deleted_sources": len(gone),
    }
    with open(path, "w", encoding="utf-8") as file:
        file.write(json.dumps(head) + "\n")
        file.writelines(body)


def _changes(body: list[str], old: Record | None, new: Record | None, row: int) -> tuple[int, int]:
    """The remove and add lines of one source; ``(added, removed)``."""
    old_ids = old.id_list() if old is not None else []
    new_ids = new.id_list() if new is not None else []
    record = new if new is not None else old
    assert record is not None  # a source in one generation at least
    name = json.dumps(record.name)

    keep, had = set(new_ids), set(old_ids)
    removes = [i for i in old_ids if i not in keep]
    for i in removes:
        body.append(f'{{"op": "remove", "source": {name}, "chunk_id": "{i}"}}\n')
    adds = 0
    for k, i in enumerate(new_ids):
        if i not in had:
            body.append(f'{{"op": "add", "source": {name}, "chunk_id": "{i}", "row": {row + k}}}\n')
            adds += 1
    return adds, len(removes)


__all__ = ["write_delta"]
