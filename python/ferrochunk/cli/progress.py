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
    """Bytes of input done out of ``total``; shown only when ``show``."""

    def __init__(self, total: int, show: bool) -> None:
        self.bar: Any = None
        if show:
            from tqdm import tqdm

            self.bar = tqdm(
                total=max(total, 1),
                unit="B",
                unit_scale=True,
                unit_divisor=1000,
                desc="chunk",
                file=sys.stderr,
                dynamic_ncols=True,
            )

    def update(self, nbytes: int) -> None:
        if self.bar is not None:
            self.bar.update(nbytes)

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


def summary(docs: int, chunks: int, nbytes: int, seconds: float, skipped: int) -> None:
    """``ferrochunk: N documents, M chunks, X MB in T s (R MB/s)[, K skipped]``."""
    mb = nbytes / 1e6
    rate = mb / seconds if seconds > 0 else float("inf")
    note = f", {skipped} skipped" if skipped else ""
    print(
        f"ferrochunk: {plural(docs, 'document')}, {plural(chunks, 'chunk')}, {mb:.2f} MB in "
        f"{seconds:.2f} s ({rate:.0f} MB/s){note}",
        file=sys.stderr,
    )


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
