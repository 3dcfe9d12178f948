"""Option value types with one-line errors (argparse reports them as ``argument X: ...``)."""

from __future__ import annotations

import argparse
from typing import Optional


def positive(value: str) -> int:
    """An int >= 1."""
    number = _int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value!r}")
    return number


def non_negative(value: str) -> int:
    """An int >= 0."""
    number = _int(value)
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value!r}")
    return number


def threads(value: str) -> Optional[int]:
    """``auto`` (``None``) or an int >= 1."""
    if value == "auto":
        return None
    try:
        return positive(value)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"must be a positive integer or 'auto', got {value!r}"
        ) from None


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {value!r}") from None
