"""Where meaning shifts: thresholds over the distances between consecutive sentences.

The four rules of LangChain's ``SemanticChunker`` (percentile, standard deviation,
interquartile, gradient) and its ``number_of_chunks`` interpolation, computed with the same
numpy calls in the same order, so the drop-in reproduces LangChain's cuts to the last bit;
the native :class:`~ferrochunk.semantic.SemanticSplitter` uses them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, cast

import numpy as np

BreakpointThresholdType = Literal["percentile", "standard_deviation", "interquartile", "gradient"]
#: Default ``breakpoint_threshold_amount`` per rule (LangChain's).
BREAKPOINT_DEFAULTS: dict[str, float] = {
    "percentile": 95,
    "standard_deviation": 3,
    "interquartile": 1.5,
    "gradient": 95,
}


def threshold(
    distances: Sequence[float], kind: str, amount: float
) -> tuple[float, Sequence[float]]:
    """``(threshold, values)``: a distance is a breakpoint when its value (the distance
    itself, or for ``gradient`` the gradient of the distances there) exceeds the threshold.

    >>> float(threshold([0.1, 0.2, 0.9, 0.1], "percentile", 50)[0])
    0.15000000000000002
    """
    if kind == "percentile":
        return cast(float, np.percentile(distances, amount)), distances
    if kind == "standard_deviation":
        return cast(float, np.mean(distances) + amount * np.std(distances)), distances
    if kind == "interquartile":
        q1, q3 = np.percentile(distances, [25, 75])
        return cast(float, np.mean(distances) + amount * (q3 - q1)), distances
    if kind == "gradient":
        gradient = np.gradient(distances, range(len(distances)))
        return cast(float, np.percentile(gradient, amount)), cast(Sequence[float], gradient)
    raise ValueError(f"Got unexpected `breakpoint_threshold_type`: {kind}")


def threshold_for_chunks(distances: Sequence[float], number_of_chunks: int) -> float:
    """The percentile threshold that aims at ``number_of_chunks`` chunks: 1 chunk maps to
    the 100th percentile and ``len(distances)`` chunks to the 0th, linearly between.

    >>> float(threshold_for_chunks([0.1, 0.5, 0.3], 3))
    0.1
    """
    x1, y1 = len(distances), 0.0
    x2, y2 = 1.0, 100.0
    x = max(min(number_of_chunks, x1), x2)
    y = y2 if x2 == x1 else y1 + ((y2 - y1) / (x2 - x1)) * (x - x1)
    return cast(float, np.percentile(distances, min(max(y, 0), 100)))


def breakpoints(
    distances: Sequence[float],
    kind: str,
    amount: float,
    number_of_chunks: int | None = None,
) -> list[int]:
    """Indices ``i`` where the text is cut between sentence ``i`` and ``i + 1``.

    >>> breakpoints([0.1, 0.2, 0.9, 0.1], "percentile", 50)
    [1, 2]
    """
    if number_of_chunks is not None:
        limit, values = threshold_for_chunks(distances, number_of_chunks), distances
    else:
        limit, values = threshold(distances, kind, amount)
    return [i for i, x in enumerate(values) if x > limit]
