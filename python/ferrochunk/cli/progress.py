"""Progress and the closing summary of ``ferrochunk chunk`` (on stderr).

The bar is tqdm's: the de facto standard (rate, ETA, sane behaviour on a non-terminal,
``tqdm.write`` to print above it), small and pure Python, and quick to import (rich would
add a larger dependency for a single bar).
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any, Optional


class Progress:
    """UTF-8 bytes of text done out of ``total``, or (``documents``) documents done, as for
    JSON Lines, whose bytes the job does not report; shown only when ``show``."""

    def __init__(self, total: int, show: bool, documents: bool = False) -> None:
        self.bar: Any = None
        self.documents = documents
        if show:
            from tqdm import tqdm

            self.bar = tqdm(
                total=None if documents else max(total, 1),
                unit=" documents" if documents else "B",
                unit_scale=not documents,
                unit_divisor=1000,
                desc="chunk",
                file=sys.stderr,
                dynamic_ncols=True,
            )

    def update(self, nbytes: int, documents: int) -> None:
        if self.bar is not None:
            self.bar.update(documents if self.documents else nbytes)

    def resize(self, total: int) -> None:
        """A new byte total (Parquet's, once its text is measured)."""
        if self.bar is not None and not self.documents and max(total, 1) != self.bar.total:
            self.bar.total = max(total, 1)
            self.bar.refresh()

    def write(self, message: str) -> None:
        """A line on stderr that does not tear the bar."""
        if self.bar is not None:
            self.bar.write(message, file=sys.stderr)
        else:
            print(message, file=sys.stderr)

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: Optional[type[BaseException]],
        value: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        if self.bar is not None:
            self.bar.close()


def summary(docs: int, chunks: int, nbytes: Optional[int], seconds: float, skipped: int) -> None:
    """``ferrochunk: N documents, M chunks, X MB in T s (R MB/s)[, K skipped]``, X the UTF-8
    bytes of the text; without X (``nbytes`` None: JSON Lines were read, whose bytes the
    job does not report), the rate in documents."""
    note = f", {skipped} skipped" if skipped else ""
    counts = f"ferrochunk: {plural(docs, 'document')}, {plural(chunks, 'chunk')}"
    if nbytes is None:
        rate = docs / seconds if seconds > 0 else float("inf")
        line = f"{counts} in {seconds:.2f} s ({rate:.0f} documents/s){note}"
    else:
        mb = nbytes / 1e6
        rate = mb / seconds if seconds > 0 else float("inf")
        line = f"{counts}, {mb:.2f} MB in {seconds:.2f} s ({rate:.0f} MB/s){note}"
    print(line, file=sys.stderr)


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
