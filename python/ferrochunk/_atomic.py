"""Output files that are replaced whole or not at all, and a lock per output.

A file is written as ``.NAME.ferrochunk-tmp-PID`` in its target's folder (the same file
system, so the rename cannot copy), flushed to disk (``fsync``), renamed over the target
(atomic on POSIX: a reader sees the old file or the new one, never a part), and the folder
is flushed so that the rename survives a power cut. On an exception or a signal that raises
one the temporary file is removed and the target left as it was. A process killed outright
(``SIGKILL``) leaves its temporary file; the next run that takes the target's lock removes it.

The lock is ``fcntl.flock`` on ``.NAME.ferrochunk-lock`` beside the target: not on the target
(the rename replaces it, so a second run would lock the new file), nor on the folder (that
would refuse runs writing other files there). The kernel drops a ``flock`` when its process
dies, however it dies, so no lock ever has to be broken by guessing a process is gone.
Where there is no ``fcntl`` (Windows) there is no lock, and no folder to ``fsync``.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Optional, Union

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

TEMP_MARK = ".ferrochunk-tmp-"
LOCK_MARK = ".ferrochunk-lock"
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)  # not on Windows
# Also the state and run files of incremental runs (``cli/state.py``), and SQLite's own.
_OWN = re.compile(
    rf"^\..+(?:{re.escape(TEMP_MARK)}\d+|{re.escape(LOCK_MARK)}"
    r"|\.ferrochunk-state(?:-wal|-shm|-journal)?|\.ferrochunk-run)$"
)
_CLEANUP_SIGNALS = {signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)}


class Busy(Exception):
    """Another process holds the target's lock; ``pid`` is its process id if it wrote it."""

    def __init__(self, target: str, pid: Optional[int]) -> None:
        super().__init__(target, pid)
        self.target, self.pid = target, pid


def own_file(name: str) -> bool:
    """Whether a file name is one of ours (a temporary or a lock file), never an input."""
    return bool(_OWN.match(name))


def own_path(target: str, mark: str) -> str:
    """``.NAME{mark}`` in ``target``'s folder."""
    folder, name = os.path.split(target)
    return os.path.join(folder, f".{name}{mark}")


_beside = own_path


def temp_path(target: str, pid: Optional[int] = None) -> str:
    """Where ``target`` is written before the rename (this process's by default)."""
    return _beside(target, f"{TEMP_MARK}{os.getpid() if pid is None else pid}")


def lock_path(target: str) -> str:
    return _beside(target, LOCK_MARK)


@contextmanager
def locked(target: str) -> Iterator[None]:
    """Holds ``target``'s lock (``Busy`` if another process holds it); the lock file is
    removed on release, under the lock, and an opener that locked a file so removed tries
    again (it no longer is the lock)."""
    if fcntl is None:
        yield
        return
    path = lock_path(target)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | _CLOEXEC, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _pid_in(fd)
            os.close(fd)
            raise Busy(target, pid) from None
        if _same_file(fd, path):
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        with _signals_blocked():
            _remove(path)
            os.close(fd)


def _pid_in(fd: int) -> Optional[int]:
    """The process id the lock's holder wrote, if it did yet."""
    try:
        return int(os.pread(fd, 32, 0).decode().strip())
    except (OSError, ValueError):
        return None


def _same_file(fd: int, path: str) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def remove_leftovers(target: str) -> list[str]:
    """Removes the temporary files of ``target`` left by killed runs, and names them. Call it
    holding the lock: every run writing ``target`` holds it, so any such file there is a
    dead process's."""
    folder, name = os.path.split(target)
    prefix = f".{name}{TEMP_MARK}"
    removed = []
    with os.scandir(folder or ".") as entries:
        for entry in entries:
            rest = entry.name[len(prefix) :]
            if entry.name.startswith(prefix) and rest.isdigit():
                _remove(entry.path)
                removed.append(entry.path)
    return removed


@contextmanager
def replaced(target: str) -> Iterator[str]:
    """Yields the temporary path to write; on a clean exit it is flushed to disk and renamed
    over ``target`` (which keeps its permission bits), on an exception removed."""
    temp = temp_path(target)
    fd = None
    try:
        # Inside the ``try``: a signal raised just after the file appears still removes it.
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666)
        _keep_mode(fd, target)
        yield temp
        os.fsync(fd)  # the data is on disk before the name points at it
        with _signals_blocked():
            os.replace(temp, target)
        fsync_folder(os.path.dirname(target))
    except BaseException as err:
        if fd is not None or not isinstance(err, FileExistsError):  # else not ours (O_EXCL)
            with _signals_blocked():
                _remove(temp)
        raise
    finally:
        if fd is not None:
            os.close(fd)


def write_text(target: Union[str, os.PathLike[str]], text: str) -> None:
    """``text`` as UTF-8 at ``target``, whole or not at all (:func:`replaced`)."""
    with replaced(os.fspath(target)) as temp:
        with open(temp, "w", encoding="utf-8") as file:
            file.write(text)


def keep_mode(fd: int, target: str) -> None:
    """Gives the file open at ``fd`` the permission bits of ``target``, if it exists."""
    _keep_mode(fd, target)


def _keep_mode(fd: int, target: str) -> None:
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        return  # no target yet: the umask's mode, as for any new file
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)


def fsync_folder(folder: str) -> None:
    """Flushes a folder's entries (a rename into it) to disk."""
    if not hasattr(os, "O_DIRECTORY"):
        return  # Windows: a folder cannot be opened, and NTFS logs the rename
    fd = os.open(folder or ".", os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    try:
        os.fsync(fd)
    except OSError as err:  # some file systems cannot sync a folder; the rename stands
        if err.errno not in (errno.EINVAL, errno.ENOTSUP):
            raise
    finally:
        os.close(fd)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


@contextmanager
def _signals_blocked() -> Iterator[None]:
    """Defers SIGINT, SIGTERM and SIGHUP for a few system calls, so that a second Ctrl-C
    cannot cut a rename or a clean-up short; the handler runs on leaving."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _CLEANUP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextmanager
def signals_raise(error: type[BaseException]) -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise ``error(signum)`` (SIGINT already raises
    ``KeyboardInterrupt``), so a ``with`` block cleans up after them as after an exception.
    A signal set to be ignored (``nohup``) stays so; outside the main thread, nothing
    changes (Python allows handlers only there)."""

    def handler(signum: int, _frame: object) -> None:
        raise error(signum)

    previous = {}
    try:
        for sig in {signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)}:
            if signal.getsignal(sig) is signal.SIG_DFL:
                previous[sig] = signal.signal(sig, handler)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


__all__ = [
    "Busy",
    "fsync_folder",
    "keep_mode",
    "locked",
    "own_file",
    "own_path",
    "remove_leftovers",
    "replaced",
    "signals_raise",
    "temp_path",
]
