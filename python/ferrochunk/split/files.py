"""``Splitter.split_file``: the chunks of a file of any size, read in blocks.

Two passes over the bytes (see ``rust/stream/``): the first finds the separator LangChain's
algorithm starts with, which depends on the whole text (the first of the list that occurs
anywhere; usually settled in the first block, else it reads to the end); the second splits.
A file object that cannot seek (a pipe) is held in memory during the first pass, and copied
to a temporary file once that passes ``SPOOL_BYTES``, so the second pass can replay it.
"""

from __future__ import annotations

import codecs
import io
import os
from collections.abc import Iterator
from contextlib import ExitStack
from typing import IO, Any, Callable, Union

from .. import _native

BinarySource = Union[str, "os.PathLike[str]", IO[bytes]]
BUFFER_BYTES = 1 << 20
SPOOL_BYTES = 16 << 20


def split_file(
    engine: _native.FileSplitter,
    source: BinarySource,
    metadata: Any,
    length: Any,
    encoding: str,
    buffer_size: int,
    warn: Callable[[list[int]], None],
) -> Iterator[Any]:
    """The chunks of ``source`` in order (see ``Splitter.split_file``)."""
    with ExitStack() as stack:
        file = _open(source, stack)
        utf8 = codecs.lookup(encoding).name == "utf-8"
        start = file.tell() if file.seekable() else None
        held: list[bytes] = []
        spool = None
        blocks = _blocks(file, utf8, encoding, buffer_size)
        for block in blocks:
            decided = engine.choose(block)
            if start is None:
                spool = _hold(block, held, spool, stack)
            if decided:
                break
        engine.start()
        if start is not None:
            file.seek(start)
            blocks = _blocks(file, utf8, encoding, buffer_size)
        else:
            blocks = _replay(held, spool, blocks, buffer_size)
        for block in blocks:
            chunks, oversized = engine.feed(block, metadata, length)
            if oversized:
                warn(oversized)
            yield from chunks
        chunks, oversized = engine.finish(metadata, length)
        if oversized:
            warn(oversized)
        yield from chunks


def _open(source: BinarySource, stack: ExitStack) -> IO[bytes]:
    if isinstance(source, (str, os.PathLike)):
        return stack.enter_context(open(source, "rb"))
    if isinstance(source, io.TextIOBase):
        raise TypeError("split_file needs a file opened in binary mode ('rb'), or a path")
    if not callable(getattr(source, "read", None)):
        raise TypeError(
            f"split_file takes a path or a binary file object, got {type(source).__name__}"
        )
    return source


def _blocks(file: IO[bytes], utf8: bool, encoding: str, size: int) -> Iterator[bytes]:
    """The file's text as UTF-8 blocks (decoded and re-encoded unless it is UTF-8)."""
    decoder = None if utf8 else codecs.getincrementaldecoder(encoding)()
    while True:
        raw = file.read(size)
        if not isinstance(raw, bytes):
            raise TypeError("split_file needs a binary file: read() returned text")
        if decoder is not None:
            yield decoder.decode(raw, final=not raw).encode("utf-8")
        elif raw:
            yield raw
        if not raw:
            return


def _hold(block: bytes, held: list[bytes], spool: Any, stack: ExitStack) -> Any:
    """Keeps a block of an unseekable stream for the second pass (on disk past a limit)."""
    if spool is None and sum(map(len, held)) + len(block) > SPOOL_BYTES:
        import tempfile  # only for sources that cannot seek; not at import

        spool = stack.enter_context(tempfile.TemporaryFile())
        spool.writelines(held)
        held.clear()
    if spool is None:
        held.append(block)
    else:
        spool.write(block)
    return spool


def _replay(held: list[bytes], spool: Any, rest: Iterator[bytes], size: int) -> Iterator[bytes]:
    yield from held
    held.clear()
    if spool is not None:
        spool.seek(0)
        yield from iter(lambda: spool.read(size), b"")
    yield from rest


__all__ = ["BUFFER_BYTES", "split_file"]
