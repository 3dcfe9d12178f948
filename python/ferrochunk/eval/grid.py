"""The grid of configurations: chunkers x sizes x overlaps in one unit, from the command line
or a config file (TOML or JSON), plus explicit points.

    # grid.toml
    unit = "tokens"                 # "chars" (code points) or "tokens" (cl100k_base)
    chunkers = ["markdown", "splitter", "langchain"]
    sizes = [200, 400]
    overlaps = [0, 50]
    [[configs]]                     # optional extra points, each with its own unit
    chunker = "tokens"
    size = 256
    overlap = 32
    unit = "tokens"

Combinations whose overlap is not below the size are left out and listed (never silently).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .chunkers import CHUNKERS, Config

GRID_KEYS = {"unit", "chunkers", "sizes", "overlaps", "configs"}
POINT_KEYS = {"chunker", "size", "overlap", "unit"}


def expand(
    chunkers: Sequence[str], sizes: Sequence[int], overlaps: Sequence[int], unit: str
) -> tuple[list[Config], list[str]]:
    """The cross product, and what was left out (overlap >= size) in words."""
    unknown = [c for c in chunkers if c not in CHUNKERS]
    if unknown:
        raise ValueError(f"unknown chunker {unknown[0]!r}; choose from {', '.join(CHUNKERS)}")
    configs, left_out = [], []
    for chunker in chunkers:
        for size in sizes:
            for overlap in overlaps:
                if overlap >= size:
                    left_out.append(f"{chunker} size {size} overlap {overlap} (overlap >= size)")
                else:
                    configs.append(Config(chunker, size, overlap, unit))
    return configs, left_out


def load_grid(path: str | Path) -> tuple[list[Config], list[str]]:
    """Configurations from a ``.toml`` or ``.json`` file (see the module docstring)."""
    p = Path(path)
    data = _read(p)
    extra = set(data) - GRID_KEYS
    if extra:
        raise ValueError(f"{p}: unknown key {sorted(extra)[0]!r}; expected {sorted(GRID_KEYS)}")
    unit = data.get("unit", "chars")
    lists = [data.get(key, []) for key in ("chunkers", "sizes", "overlaps")]
    if any(not isinstance(x, list) for x in lists):
        raise ValueError(f"{p}: chunkers, sizes and overlaps must be lists")
    chunkers, sizes, overlaps = lists
    configs, left_out = expand(chunkers, sizes, overlaps or [0], unit) if chunkers else ([], [])
    for n, point in enumerate(data.get("configs", []), 1):
        if not isinstance(point, dict) or set(point) - POINT_KEYS or "chunker" not in point:
            raise ValueError(f"{p}: configs entry {n} needs chunker, size[, overlap, unit]")
        configs.append(_point(point, unit, f"{p}: configs entry {n}"))
    if not configs:
        raise ValueError(f"{p}: no configurations (give chunkers and sizes, or [[configs]])")
    return configs, left_out


def _point(point: dict[str, Any], unit: str, where: str) -> Config:
    if point["chunker"] not in CHUNKERS:
        raise ValueError(f"{where}: unknown chunker {point['chunker']!r}")
    try:
        return Config(
            point["chunker"], point.get("size", 0), point.get("overlap", 0), point.get("unit", unit)
        )
    except (TypeError, ValueError) as err:
        raise ValueError(f"{where}: {err}") from None


def _read(p: Path) -> dict[str, Any]:
    if not p.is_file():
        raise ValueError(f"{p}: no such grid file")
    text = p.read_text(encoding="utf-8")
    try:
        if p.suffix == ".json":
            data = json.loads(text)
        elif p.suffix == ".toml":
            data = _toml(text)
        else:
            raise ValueError(f"{p}: a grid file is .toml or .json")
    except (json.JSONDecodeError, _TomlError) as err:
        raise ValueError(f"{p}: {err}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{p}: expected a table/object at the top")
    return data


try:  # Python 3.11+
    import tomllib

    _TomlError: type[Exception] = tomllib.TOMLDecodeError
except ImportError:  # pragma: no cover - Python < 3.11
    tomllib = None  # type: ignore[assignment]
    _TomlError = ValueError


def _toml(text: str) -> Any:
    if tomllib is None:  # pragma: no cover - Python < 3.11
        raise ValueError("TOML grid files need Python 3.11+; use a .json grid file")
    return tomllib.loads(text)
