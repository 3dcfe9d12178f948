"""Option value types with one-line errors (argparse reports them as ``argument X: ...``)."""

from __future__ import annotations

import argparse
from typing import Optional

from ..frontend.batch import MAX_THREADS

# Sizes beyond the native core's (i64); so large a size already means one chunk per document.
MAX_SIZE = 2**63 - 1


def positive(value: str) -> int:
    """An int from 1 to ``MAX_SIZE``."""
    number = _int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value!r}")
    return _at_most(number, MAX_SIZE)


def non_negative(value: str) -> int:
    """An int from 0 to ``MAX_SIZE``."""
    number = _int(value)
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value!r}")
    return _at_most(number, MAX_SIZE)


def threads(value: str) -> Optional[int]:
    """``auto`` (``None``) or an int >= 1."""
    if value == "auto":
        return None
    try:
        number = _int(value)
    except argparse.ArgumentTypeError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer or 'auto', got {value!r}")
    return _at_most(number, MAX_THREADS)


def _at_most(number: int, limit: int) -> int:
    if number > limit:
        raise argparse.ArgumentTypeError(f"must be at most {limit}, got {number}")
    return number


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {value!r}") from None
