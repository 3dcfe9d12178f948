"""``ferrochunk chunk --incremental``: re-chunk only the sources that changed, rebuild the
full output from the previous one's rows, and write a delta of chunk ids.

Per source, in walk order: unchanged size and mtime (and not modified within a second of the
run that recorded it) -> its rows are copied from the previous output (``copy_file_range``:
in the kernel); else the file is read and hashed (SHA-256), and an unchanged hash still
copies; a new or changed one goes to the native job (``parts=True``: each source's rows and
chunk ids come back separately). A source that cannot be read or decoded keeps its previous
rows (and its recorded size, mtime and hash, so the next run tries it again).

The rows go to the run file ``.NAME.ferrochunk-run`` in order, and every finished source is
recorded in the state (``cli/state.py``) as the run goes: a run killed at any point is
resumed by the next one with the same arguments, from the end of the last recorded source.
At the end: the run file is flushed to disk, the delta written (atomically), the state's
commit names the run file by device, inode, size and mtime, and the run file is renamed over
the output. If the output found later is not the file the state names (a crash between the
commit and the rename, an edit), the run file is renamed into place if it is that file, else
nothing is reused from the output (a full rerun, said in the summary).
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import json
import os
import sys
import time
from collections import deque
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any, Optional

from .. import _atomic, _native
from . import Terminated, UsageError
from .inputs import Source, Walk, source_inputs
from .state import Record, StateError, Store, identity, run_path, state_path

# A file modified this close to the run that hashed it may change again within the same
# mtime tick: it is hashed again next time (git's "racily clean" entries).
RACY_NS = 2_000_000_000
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# Small files per task (4 MB in a plain run): progress is recorded per task, so a crash
# redoes at most the tasks in flight.
GROUP_BYTES = 1 << 20


def delta_path(out: str) -> str:
    """The default ``--delta``: ``chunks.jsonl`` -> ``chunks.delta.jsonl``."""
    stem, suffix = os.path.splitext(out)
    return f"{stem}.delta{suffix or '.jsonl'}"


def settings_key(args: argparse.Namespace, job_args: dict[str, Any]) -> str:
    """What decides a source's rows besides its bytes: a change re-chunks everything."""
    from .. import __version__

    fields: tuple[str, ...] = (
        "chunker",
        "chunk_size",
        "chunk_overlap",
        "min_size",
        "encoding",
        "language",
    )
    fields += ("cjk", "input_format", "text_field", "id_field", "text_column", "id_column")
    key = {name: getattr(args, name) for name in fields}
    key["settings"] = job_args["settings"]
    key["ferrochunk"] = __version__
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


@dataclass
class Entry:
    """One source of this run: reused (``old``'s rows copied) or chunked anew."""

    seq: int
    source: Source
    sha256: bytes = b""
    racy: bool = False
    old: Optional[Record] = None
    chunk: bool = False
    failed: Optional[str] = None
    offset: Optional[int] = None  # where its rows start, once it is being written
    length: int = 0
    chunks: int = 0
    docs: int = 0
    text_bytes: int = 0
    ids: list[bytes] = field(default_factory=list)

    def record(self) -> Record:
        s = self.source
        assert self.offset is not None
        return Record(
            *(self.seq, os.fsencode(s.path), s.name, s.size, s.mtime_ns, self.sha256),
            *(self.racy, self.offset, self.length, self.chunks, self.docs, self.text_bytes),
            b"".join(self.ids),
        )


@dataclass
class Report:
    """What an incremental run did (the summary and ``ferrochunk.incremental.update``)."""

    output: str
    delta: str
    sources: int = 0
    unchanged: int = 0
    chunked: int = 0
    new: int = 0
    resumed: int = 0
    deleted: int = 0
    kept: list[tuple[str, str]] = field(default_factory=list)
    added: int = 0
    removed: int = 0
    full: Optional[str] = None  # why nothing was reused, if so
    skipped: list[tuple[str, str]] = field(default_factory=list)  # filled by the Python API
    documents: int = 0
    chunks: int = 0
    text_bytes: int = 0


class RunFile:
    """The run file, written front to back; copies from the previous output are gathered
    into one ``copy_file_range`` per stretch of consecutive rows."""

    def __init__(self, fd: int, pos: int) -> None:
        self.fd, self.pos = fd, pos
        self._copy: Optional[list[int]] = None  # [source fd, offset, length]
        os.lseek(fd, pos, os.SEEK_SET)

    def append(self, data: memoryview) -> None:
        self.flush()
        self.pos += len(data)
        while data:
            data = data[os.write(self.fd, data) :]

    def copy(self, src: int, offset: int, length: int) -> None:
        c = self._copy
        if c is not None and c[0] == src and c[1] + c[2] == offset:
            c[2] += length
        else:
            self.flush()
            self._copy = [src, offset, length]
        self.pos += length

    def flush(self) -> None:
        if self._copy is not None:
            src, offset, length = self._copy
            self._copy = None
            _copy_range(src, self.fd, offset, length)

    def truncate(self, pos: int) -> None:
        self.flush()
        os.ftruncate(self.fd, pos)
        self.pos = os.lseek(self.fd, pos, os.SEEK_SET)


def _copy_range(src: int, dst: int, offset: int, length: int) -> None:
    """``length`` bytes of ``src`` from ``offset`` appended to ``dst`` (at its position)."""
    while length:
        try:
            n = os.copy_file_range(src, dst, min(length, 1 << 30), offset)
        except (AttributeError, OSError) as err:  # not Linux, or not between these files
            if isinstance(err, OSError) and err.errno not in (errno.EXDEV, errno.ENOSYS):
                raise
            n = _copy_plain(src, dst, offset, min(length, 1 << 24))
        if n == 0:
            raise OSError(errno.EIO, "the previous output ended early")
        offset, length = offset + n, length - n


def _copy_plain(src: int, dst: int, offset: int, length: int) -> int:
    data = memoryview(os.pread(src, length, offset))
    done = len(data)
    while data:
        data = data[os.write(dst, data) :]
    return done


def _same_hash(path: str, sha256: bytes) -> bool:
    try:
        return _hash_file(path) == sha256
    except OSError:
        return False


def _hash_file(path: str) -> bytes:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while block := file.read(1 << 20):
            digest.update(block)
    return digest.digest()


class Run:
    """One incremental run over ``walk`` into ``target`` (see the module comment)."""

    def __init__(self, target: str, delta: str, key: str, report: Report) -> None:
        self.target, self.delta, self.key, self.report = target, delta, key, report
        self.store = Store(state_path(target))
        self.started = time.time_ns()
        self.old, self.old_fd = self._previous_output()
        self.resume: deque[Record] = deque()
        self.file = self._run_file()
        self.plan: deque[Entry] = deque()
        self.finished: list[Entry] = []
        self.recorded: list[Record] = []  # the run file's sources, in order
        self.seq = 0
        self.current: Optional[Entry] = None
        self.walk: Any = None
        self._walk_skips = 0

    def close(self) -> None:
        if self.old_fd is not None:
            os.close(self.old_fd)
        os.close(self.file.fd)
        self.store.close()

    # -- what can be reused

    def _previous_output(self) -> tuple[dict[bytes, Record], Optional[int]]:
        """The committed output's records by path, and the output open to copy from; none
        (and the reason in the report) when its settings or its file are not the state's."""
        store, report = self.store, self.report
        named = store.meta_json("output")
        if named is None:
            report.full = "no previous run"
            return {}, None
        if store.meta("settings") != self.key:
            report.full = "the settings changed: every source is chunked again"
            return {}, None
        self._roll_forward(named)
        try:
            fd = os.open(self.target, os.O_RDONLY | _CLOEXEC)
        except OSError:
            report.full = "the previous output is gone: every source is chunked again"
            return {}, None
        if identity(fd) != named:
            os.close(fd)
            report.full = "the output changed since the last run: every source is chunked again"
            return {}, None
        return {r.path: r for r in store.records("out")}, fd

    def _roll_forward(self, named: object) -> None:
        """A run killed between its commit and its rename left the committed file as the
        run file: rename it into place now."""
        run = run_path(self.target)
        try:
            if identity(run) == named and identity(self.target) != named:
                os.replace(run, self.target)
                _atomic.fsync_folder(os.path.dirname(self.target))
        except FileNotFoundError:
            if os.path.exists(run) and identity(run) == named:
                os.replace(run, self.target)

    def _run_file(self) -> RunFile:
        """The run file: a killed run's, to resume, when it is the one the state names and
        was made with these settings; else a new one."""
        path = run_path(self.target)
        store = self.store
        if store.meta("run_settings") == self.key and os.path.exists(path):
            fd = os.open(path, os.O_RDWR | _CLOEXEC)
            records = list(store.records("run"))
            end = records[-1].offset + records[-1].length if records else 0
            if identity(fd)[:2] == store.meta_json("run_file") and identity(fd)[2] >= end:
                self.resume = deque(records)
                return RunFile(fd, end)
            os.close(fd)
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666)
        _atomic.keep_mode(fd, self.target)
        store.start_run(self.key, identity(fd))
        return RunFile(fd, 0)

    # -- deciding, source by source (pulled by the job as it has room)

    def inputs(self, walk: Walk, text_column: str, id_column: Optional[str]) -> Iterator[Any]:
        """The job's inputs: the sources to chunk; every source's entry goes to the plan."""
        self.walk = walk
        for source in walk:
            entry = self._decide(source)
            self.plan.append(entry)
            if entry.chunk:
                yield from source_inputs(source, text_column, id_column, walk)

    def _decide(self, source: Source) -> Entry:
        entry = Entry(self.seq, source)
        self.seq += 1
        path = os.fsencode(source.path)
        if self.resume:
            done = self.resume[0]
            same = (done.seq, done.path, done.size, done.mtime_ns) == (
                entry.seq,
                path,
                source.size,
                source.mtime_ns,
            )
            if same and (not done.racy or _same_hash(source.path, done.sha256)):
                self.resume.popleft()
                entry.old = done
                entry.chunk = False
                entry.failed = "resumed"  # already in the run file: nothing to write
                return entry
            self.file.truncate(done.offset)  # what follows was another walk's
            self.store.forget("run", done.seq)
            self.resume.clear()
        old = self.old.get(path)
        entry.old = old
        stat_same = old is not None and (old.size, old.mtime_ns) == (
            source.size,
            source.mtime_ns,
        )
        if stat_same and old is not None and not old.racy:
            entry.sha256 = old.sha256
            return entry
        try:
            entry.sha256 = _hash_file(source.path)
        except OSError as err:
            entry.failed = f"cannot read: {err.strerror or err}"
            if old is None:  # nothing to keep: the job reports it, as a full run would
                entry.chunk = True
            return entry
        entry.racy = source.mtime_ns + RACY_NS > time.time_ns()
        entry.chunk = old is None or old.sha256 != entry.sha256
        return entry

    # -- writing, in walk order

    def take(self, out: tuple[Any, ...]) -> None:
        """One output of the job: each part's rows written after the reused sources
        before it; the finished sources recorded."""
        payload, _, _, _, _, skipped, (parts, ids) = out
        for what, why in skipped:
            self._blame(what, why)
        data, at, chunk_at = memoryview(payload), 0, 0
        for name, end, chunks, docs, text_bytes in parts:
            entry = self._entry_named(name)
            entry.length += end - at
            entry.chunks += chunks - chunk_at
            entry.docs += docs
            entry.text_bytes += text_bytes
            entry.ids.append(ids[32 * chunk_at : 32 * chunks])
            self.file.append(data[at:end])
            at, chunk_at = end, chunks
        self._blame_walk()
        self._save()

    def _blame_walk(self) -> None:
        """Parquet files that failed to read (the walk's skips) are failed sources too."""
        for path, why in self.walk.skipped[self._walk_skips :]:
            self._blame(path, why)
        self._walk_skips = len(self.walk.skipped)

    def _entry_named(self, name: str) -> Entry:
        """The chunked entry ``name``'s part belongs to, once the entries before it are
        written (a chunked source with no part produced no rows)."""
        if self.current is not None and self.current.source.name == name:
            return self.current
        self._end_current()
        while self.plan:
            entry = self.plan.popleft()
            if entry.chunk and entry.source.name == name:
                self.file.flush()
                entry.offset = self.file.pos
                self.current = entry
                return entry
            self._write(entry)
        raise RuntimeError(f"rows of {name!r} came back without being asked for (a bug)")

    def _end_current(self) -> None:
        if self.current is not None:
            entry, self.current = self.current, None
            self._write(entry)

    def _write(self, entry: Entry) -> None:
        """Ends an entry: a chunked one is written already; a failed one with a previous
        version gets its old rows back; a reused one's rows are copied."""
        if entry.failed == "resumed":
            self.report.resumed += 1
            self._done(_restored(entry))
            return
        if entry.chunk and entry.failed is None:
            if entry.offset is None:  # no rows
                entry.offset = self.file.pos
            self.report.chunked += 1
            self.report.new += entry.old is None
            self._done(entry)
            return
        old = entry.old
        if entry.failed is not None:
            if old is None or self.old_fd is None:
                if entry.chunk and entry.offset is not None:  # no old version: its rows stay
                    self._done(entry)
                return
            if entry.offset is not None:
                self.file.truncate(entry.offset)
            self.report.kept.append((entry.source.path, entry.failed))
            if entry.chunk:  # the job's skip line says why
                self.walk.notes.append((entry.source.path, "its previous chunks kept"))
            else:
                why = f"{entry.failed}; its previous chunks kept"
                self.walk.skipped.append((entry.source.path, why))
            entry = Entry(entry.seq, entry.source, old.sha256, old.racy, old)
            entry.source = entry.source._replace(size=old.size, mtime_ns=old.mtime_ns)
        else:
            self.report.unchanged += 1
        assert old is not None and self.old_fd is not None
        entry.offset = self.file.pos
        self.file.copy(self.old_fd, old.offset, old.length)
        entry.length, entry.chunks, entry.ids = old.length, old.chunks, [old.ids]
        entry.docs, entry.text_bytes = old.docs, old.text_bytes
        self._done(entry)

    def _done(self, entry: Entry) -> None:
        self.finished.append(entry)
        r = self.report
        r.documents, r.chunks = r.documents + entry.docs, r.chunks + entry.chunks
        r.text_bytes += entry.text_bytes

    def _blame(self, what: str, why: str) -> None:
        """Marks the source a skip line names as failed (a JSON line: ``name:line``)."""
        for entry in [self.current, *self.plan]:
            if entry is None or not entry.chunk:
                continue
            name, path = entry.source.name, entry.source.path
            if what in (name, path) or what.startswith((f"{name}:", f"{path}:")):
                entry.failed = entry.failed or why
                return

    def _save(self) -> None:
        """Records the sources finished since the last call (the run file holds them)."""
        if self.finished:
            self.file.flush()
            records = [e.record() for e in self.finished]
            self.store.add("run", records)
            self.recorded += records
            self.finished.clear()

    # -- the end

    def finish(self) -> None:
        self._blame_walk()
        self._end_current()
        while self.plan:
            self._write(self.plan.popleft())
        self._save()
        self.file.truncate(self.file.pos)  # a resumed file may hold a killed run's tail
        os.fsync(self.file.fd)
        self._write_delta()
        self.store.commit_run(self.key, identity(self.file.fd))
        os.replace(run_path(self.target), self.target)
        _atomic.fsync_folder(os.path.dirname(self.target))
        self.store.delta_written()

    def _write_delta(self) -> None:
        from .delta import write_delta

        gen = self.store.base_gen()
        # The base is most often the output read at the start (the rows not read again).
        base = self.old if gen == "out" and self.old_fd is not None else None
        if base is None:
            base = {r.path: r for r in self.store.records(gen)}
        new = self.recorded
        self.report.sources = len(new)
        with _atomic.replaced(self.delta) as temp:
            write_delta(temp, base, new, self.report, self.store.runs() + 1)


def _restored(entry: Entry) -> Entry:
    """A resumed entry: its rows are in the run file as recorded."""
    old = entry.old
    assert old is not None
    done = Entry(old.seq, entry.source, old.sha256, old.racy, None)
    done.source = done.source._replace(size=old.size, mtime_ns=old.mtime_ns)
    done.offset, done.length, done.chunks, done.ids = old.offset, old.length, old.chunks, [old.ids]
    done.docs, done.text_bytes = old.docs, old.text_bytes
    return done


def incremental_run(args: argparse.Namespace, job_args: dict[str, Any]) -> tuple[Report, Walk]:
    """Runs ``ferrochunk chunk --incremental``: the report and the walk (its skips)."""
    from .checks import check_input_options, possible_kinds
    from .inputs import DEFAULT_GLOBS
    from .messages import Messages
    from .outputs import busy_message
    from .progress import Progress

    target = os.path.realpath(args.out)
    delta = os.path.realpath(args.delta or delta_path(args.out))
    globs = args.glob or DEFAULT_GLOBS
    check_input_options(args, args.paths, possible_kinds(args.paths, globs, args.input_format))
    walk = Walk(args.paths, globs, args.input_format, output=args.out, also=[delta])
    messages = Messages(walk)
    if walk.empty:
        messages.tell(Progress(0, False))
        raise UsageError("nothing to chunk")
    report = Report(output=args.out, delta=args.delta or delta_path(args.out))
    with ExitStack() as stack:
        try:
            stack.enter_context(_atomic.locked(target))
        except _atomic.Busy as busy:
            raise UsageError(busy_message(args.out, busy.pid)) from None
        stack.enter_context(_atomic.signals_raise(Terminated))
        _atomic.remove_leftovers(target)
        _atomic.remove_leftovers(delta)
        try:
            run = Run(target, delta, settings_key(args, job_args), report)
        except StateError as err:
            raise UsageError(str(err)) from None
        stack.callback(run.close)
        show = (sys.stderr.isatty() if args.progress is None else args.progress) and not args.quiet
        if show:
            walk.eager()
        progress = stack.enter_context(Progress(walk.total_bytes, show))
        for out in job(run, walk, args, job_args):
            run.take(out)
            walk.skipped += out[5]
            progress.resize(walk.total_bytes)
            progress.update(out[3], out[4])
            messages.tell(progress)
        run.finish()
        messages.tell(progress)
    return report, walk


def job(run: Run, walk: Walk, args: argparse.Namespace, job_args: dict[str, Any]) -> Any:
    """The native job over the sources to chunk, handing back each source's rows."""
    inputs = run.inputs(walk, args.text_column or "text", args.id_column)
    return _native.CorpusJob(
        inputs=inputs,
        format="jsonl",
        threads=args.threads,
        text_field=args.text_field or "text",
        id_field=args.id_field,
        parts=True,
        group_bytes=GROUP_BYTES,
        **job_args,
    )


__all__ = ["Report", "Run", "delta_path", "incremental_run", "job", "settings_key"]
