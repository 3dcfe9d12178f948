"""Source distributions from PyPI for the tests that run on real files (LangChain's and
tiktoken's own suites, PLY's HTML manual, C sources): fetched with ``pip download`` once
into a cache, never committed; :class:`Unavailable` when they cannot be had."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path


class Unavailable(Exception):
    """The sdist cannot be had here (not cached, and no network or no such release)."""


def fetch_sdist(
    requirement: str, cache: Path, *, env: str | None = None, timeout: int = 180
) -> Path:
    """The sdist of ``requirement`` (``name==version``): the file ``$env`` names, the cached
    copy, or PyPI's, fetched into the cache (through a temporary folder beside it, so the
    cache holds complete files only)."""
    given = os.environ.get(env) if env else None
    if given:
        if not Path(given).is_file():
            raise Unavailable(f"{env}={given} is not a file")
        return Path(given)
    name, version = requirement.split("==")
    target = cache / f"{re.sub(r'[-_.]+', '_', name).lower()}-{version}.tar.gz"
    if target.is_file():
        return target
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        try:
            done = subprocess.run(
                [*cmd, "--quiet", "--disable-pip-version-check", "-d", tmp, requirement],
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as err:
            raise Unavailable(f"pip download {requirement} failed: {err}") from None
        found = sorted(Path(tmp).glob("*.tar.gz"))
        if done.returncode or not found:
            raise Unavailable(f"pip download {requirement} failed: {done.stderr.strip()[-500:]}")
        found[0].replace(target)
    return target
