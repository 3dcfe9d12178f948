"""The state of ``ferrochunk chunk --incremental``: an SQLite database beside the output,
``.NAME.ferrochunk-state``, one row per source and generation.

Why SQLite (the standard library's ``sqlite3``): the run must change "what the output
holds" and "what the run has finished" all or nothing, and a killed process must leave a
consistent store; SQLite's transactions give that without a format of our own. WAL mode:
a commit appends to the log instead of rewriting pages in place, so the commit the run makes
after every output is cheap, and with ``synchronous=NORMAL`` it is durable against a killed
process (the log is in the kernel) without an ``fsync``; the final commit, which must survive
a power cut in the order the rename expects, is made with ``synchronous=FULL``. A reader (a
``sqlite3`` shell) never blocks the run.

Generations (a table each): ``out`` describes the committed output file, row by row range;
``run`` the run in progress, its rows in the run file ``.NAME.ferrochunk-run`` (a prefix
of the walk, in order: what a killed run had finished); ``base`` the sources as of the last
delta written, kept only while a delta is owed (``meta.base_is_out`` is 0), so that a run
killed after its commit but before its delta still reports every change in the next delta.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Optional

from .._atomic import own_path

VERSION = "2"
_TABLE = """
CREATE TABLE IF NOT EXISTS {} (
    seq INTEGER PRIMARY KEY,    -- position in the output (walk order)
    path BLOB NOT NULL,         -- os.fsencode of the path as walked
    name TEXT NOT NULL,         -- the path as rows show it (``source``)
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    sha256 BLOB NOT NULL,       -- of the file's bytes on disk
    racy INTEGER NOT NULL,      -- modified too close to the run to trust its mtime
    offset INTEGER NOT NULL,    -- its rows in the file of its generation
    length INTEGER NOT NULL,
    chunks INTEGER NOT NULL,
    docs INTEGER NOT NULL,
    text_bytes INTEGER NOT NULL,
    ids BLOB NOT NULL           -- the chunk ids of its rows, 32 hex digits each, in order
);
"""
# A table per generation: a commit renames tables (no row is copied: the ids of a 200 MB
# corpus are about 7 MB per generation).
GENERATIONS = ("out", "run", "base")
_SCHEMA = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);" + "".join(
    _TABLE.format(gen) for gen in GENERATIONS
)
_COLUMNS = (
    "seq, path, name, size, mtime_ns, sha256, racy, offset, length, chunks, docs, text_bytes, ids"
)


@dataclass
class Record:
    """One source's rows in the file of its generation, and what they were made from."""

    seq: int
    path: bytes
    name: str
    size: int
    mtime_ns: int
    sha256: bytes
    racy: bool
    offset: int
    length: int
    chunks: int
    docs: int
    text_bytes: int
    ids: bytes

    def id_list(self) -> list[str]:
        return [self.ids[k : k + 32].decode() for k in range(0, len(self.ids), 32)]


def state_path(target: str) -> str:
    return own_path(target, ".ferrochunk-state")


def run_path(target: str) -> str:
    return own_path(target, ".ferrochunk-run")


def identity(fd_or_path: int | str) -> list[int]:
    """What tells one file from another and from itself changed: device, inode, size, mtime."""
    info = os.fstat(fd_or_path) if isinstance(fd_or_path, int) else os.stat(fd_or_path)
    return [info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns]


class Store:
    """The database, open for one run (under the output's lock)."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)  # transactions by hand
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            version = self.meta("version")
        except sqlite3.DatabaseError as err:
            self.db.close()
            raise StateError(f"{path} is not a ferrochunk state ({err}): remove it") from None
        if version is None:
            self.set_meta({"version": VERSION, "base_is_out": "1"})
        elif version != VERSION:
            self.db.close()
            raise StateError(f"{path} is of state version {version}, not {VERSION}: remove it")

    def close(self) -> None:
        self.db.close()

    def meta(self, key: str) -> Optional[str]:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def meta_json(self, key: str) -> object:
        value = self.meta(key)
        return None if value is None else json.loads(value)

    def set_meta(self, values: dict[str, Optional[str]]) -> None:
        for key, value in values.items():
            if value is None:
                self.db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def records(self, gen: str) -> Iterator[Record]:
        for row in self.db.execute(f"SELECT {_COLUMNS} FROM {_table(gen)} ORDER BY seq"):
            yield Record(*row)

    def base_gen(self) -> str:
        """The generation the next delta is measured from."""
        return "out" if self.meta("base_is_out") != "0" else "base"

    def add(self, gen: str, records: Iterable[Record]) -> None:
        """Records finished sources and commits (cheap: see the module comment)."""
        rows = [
            (r.seq, r.path, r.name, r.size, r.mtime_ns, r.sha256, int(r.racy), r.offset,
             r.length, r.chunks, r.docs, r.text_bytes, r.ids)
            for r in records
        ]  # fmt: skip
        with self.transaction():
            self.db.executemany(f"INSERT OR REPLACE INTO {_table(gen)} VALUES ({_marks()})", rows)

    def forget(self, gen: str, from_seq: int = 0) -> None:
        with self.transaction():
            self.db.execute(f"DELETE FROM {_table(gen)} WHERE seq >= ?", (from_seq,))

    def start_run(self, settings: str, run_file: list[int]) -> None:
        with self.transaction():
            self._empty("run")
            self.set_meta({"run_settings": settings, "run_file": json.dumps(run_file[:2])})

    def commit_run(self, settings: str, output: list[int]) -> None:
        """The run's rows become the output's (the output file is ``output``, to be renamed
        into place next); the previous output's stay as the base until ``delta_written``."""
        self.db.execute("PRAGMA synchronous=FULL")
        with self.transaction():
            if self.base_gen() == "out":
                self.db.execute("DROP TABLE base")
                self.db.execute("ALTER TABLE out RENAME TO base")
            else:
                self.db.execute("DROP TABLE out")
            self.db.execute("ALTER TABLE run RENAME TO out")
            self.db.execute(_TABLE.format("run"))
            self.set_meta(
                {
                    "base_is_out": "0",
                    "runs": str(self.runs() + 1),
                    "settings": settings,
                    "output": json.dumps(output),
                    "run_settings": None,
                    "run_file": None,
                }
            )
        self.db.execute("PRAGMA synchronous=NORMAL")

    def runs(self) -> int:
        """Runs committed so far (the delta's ``run``)."""
        return int(self.meta("runs") or 0)

    def delta_written(self) -> None:
        with self.transaction():
            self._empty("base")
            self.set_meta({"base_is_out": "1"})

    def _empty(self, gen: str) -> None:
        self.db.execute(f"DROP TABLE {_table(gen)}")
        self.db.execute(_TABLE.format(gen))

    def transaction(self) -> _Transaction:
        return _Transaction(self.db)


def _marks() -> str:
    return ", ".join("?" * 13)


def _table(gen: str) -> str:
    if gen not in GENERATIONS:
        raise ValueError(f"no generation {gen!r}")
    return gen


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_: object) -> None:
        self.db.execute("ROLLBACK" if kind is not None else "COMMIT")


class StateError(Exception):
    """The state file cannot be used (the message says what to do)."""


__all__ = ["Record", "StateError", "Store", "identity", "run_path", "state_path"]
