"""``ferrochunk view --terminal``: the chunks of a file as coloured bands in the terminal,
each end marked with why it was cut there (``rich``: the ``view`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from ..cli import UsageError
from .chunks import records

STYLES = ("on #5f3f00", "on #003f5f", "on #1f4f1f", "on #4f1f4f")


def show(path: Path, chunker: Any, tokens: Optional[str]) -> None:
    """Prints ``path``'s chunks: bands in alternating colours, each end's reason after it."""
    try:
        from rich.console import Console
        from rich.text import Text
    except ImportError:
        raise UsageError('--terminal needs rich: pip install "ferrochunk[view]"') from None
    from . import _counter

    text = path.read_text(encoding="utf-8")
    rows = records(chunker, text, _counter(tokens))
    out = Text()
    done = 0
    for i, (start, end, reason, *_rest) in enumerate(rows):
        lo = max(start, done)
        if start > done:
            out.append(text[done:start], style="dim")
        if start < done:  # it repeats the end of the chunk before: said, not printed again
            out.append(f"⟨overlap {done - start}⟩", style="italic")
        out.append(text[lo:end], style=STYLES[i % len(STYLES)])
        out.append(f"⟨{i}:{reason}⟩", style="bold reverse")
        done = max(done, end)
    out.append(text[done:], style="dim")
    console = Console()
    console.rule(f"{path} — {type(chunker).__name__}: {len(rows)} chunks")
    console.print(out)


__all__ = ["show"]
