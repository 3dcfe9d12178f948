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
    """UTF-8 bytes of text chunked, out of an expected total; shown only when ``show``.

    The inputs' sizes on disk are all that is known up front, and they are not bytes of
    text (gzip shrinks them, JSON Lines add keys, quotes and escapes), so the total is
    rescaled as outputs come: the text so far, plus what is left on disk at the ratio of
    text to disk seen so far. It ends exact. A total of ``None`` (a pipe among the inputs)
    is a count and a rate, without a percentage that would be a guess.
    """

    def __init__(self, total: Optional[int], show: bool) -> None:
        self.bar: Any = None
        self.sized = total is not None
        self.disk_total = total or 0  # input bytes (Parquet: its text's estimate, see resize)
        self.disk_done = 0
        self.text_done = 0
        if show:
            from tqdm import tqdm

            self.bar = tqdm(
                total=max(total, 1) if total is not None else None,
                unit="B",
                unit_scale=True,
                unit_divisor=1000,
                desc="chunk",
                file=sys.stderr,
                dynamic_ncols=True,
            )

    def update(self, disk_bytes: int, text_bytes: int) -> None:
        """An output covering ``disk_bytes`` of input that held ``text_bytes`` of text."""
        self.disk_done += disk_bytes
        self.text_done += text_bytes
        if self.bar is not None:
            if self.sized:
                self.bar.total = self.expected()
            self.bar.update(text_bytes)

    def resize(self, total: int) -> None:
        """A new input total (more inputs found, or Parquet's text once measured)."""
        self.disk_total = total

    def expected(self) -> int:
        """The UTF-8 bytes of text the inputs are expected to hold (see the class)."""
        left = max(self.disk_total - self.disk_done, 0)
        ratio = self.text_done / self.disk_done if self.disk_done else 1.0
        return max(self.text_done + round(left * ratio), 1)

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
    """``ferrochunk: N documents, M chunks, X MB in T s (R MB/s)[, K skipped]``, X the UTF-8
    bytes of the text chunked."""
    note = f", {skipped} skipped" if skipped else ""
    counts = f"ferrochunk: {plural(docs, 'document')}, {plural(chunks, 'chunk')}"
    mb = nbytes / 1e6
    rate = mb / seconds if seconds > 0 else float("inf")
    print(f"{counts}, {mb:.2f} MB in {seconds:.2f} s ({rate:.0f} MB/s){note}", file=sys.stderr)


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
