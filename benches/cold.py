"""Cold timing for the pytest-benchmark files: every round splits fresh copies of the texts."""

from __future__ import annotations

from typing import Any, Callable, Optional

from ferrochunk.bench import fresh


def cold(
    benchmark: Any,
    run: Callable[[tuple[str, ...]], Any],
    items: tuple[str, ...],
    *,
    rounds: int = 10,
    before: Optional[Callable[[], object]] = None,
) -> Any:
    """Times ``run`` on fresh copies of ``items`` each round: new ``str`` objects made outside
    the timed region, so nothing CPython cached in a string on an earlier round (its UTF-8
    form) helps, as with documents just read. ``before`` runs there too (e.g. to empty the
    token caches)."""

    def setup() -> tuple[tuple[tuple[str, ...]], dict]:
        if before is not None:
            before()
        return (tuple(fresh(t) for t in items),), {}

    benchmark.extra_info["cold"] = True
    return benchmark.pedantic(run, setup=setup, rounds=rounds)
