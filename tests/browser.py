"""Headless Chromium for the view's tests: a page rendered with only loopback networking
(``unshare -n``), its DOM after the scripts ran, its console, a screenshot.

Chromium comes from Debian's ``chromium`` package (``.ci/run`` installs it); without it, or
without a way to drop the network, the browser tests skip with :data:`MISSING`.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import NamedTuple

import pytest

MISSING = "headless Chromium not available (apt-get install chromium; .ci/run installs it)"
# Chromium's log lines that carry the page's console and script errors.
CONSOLE = re.compile(r":CONSOLE[:(]\d+|Uncaught ")


class Rendered(NamedTuple):
    dom: str  # the DOM after the page's scripts ran (--dump-dom)
    console: list[str]  # console messages and uncaught errors, from Chromium's log
    seconds: float


@functools.cache
def chromium() -> list[str]:
    """The command that starts Chromium without a network (only loopback), or skip."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    unshare = shutil.which("unshare")
    if exe is None or unshare is None:
        pytest.skip(MISSING)
    probe = subprocess.run(
        [unshare, "-n", "sh", "-c", "ip link set lo up && echo ok"],
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.stdout.strip() != "ok":
        pytest.skip(f"{MISSING}: no network namespace ({probe.stderr.strip()})")
    return [unshare, "-n", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', exe]


def _flags(profile: Path) -> list[str]:
    root = ["--no-sandbox"] if os.geteuid() == 0 else []
    return [
        "--headless",
        *root,
        "--disable-gpu",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        "--window-size=1400,900",
    ]


def _run(args: list[str], timeout: float = 60) -> tuple[str, str, float]:
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)
    return done.stdout, done.stderr, time.perf_counter() - start


def render(page: Path, profile: Path) -> Rendered:
    """``page`` loaded, its scripts run: the DOM, the console, the wall time."""
    out, err, seconds = _run([*chromium(), *_flags(profile), "--dump-dom", page.as_uri()])
    assert "<html" in out, err[-2000:]
    return Rendered(out, [line for line in err.splitlines() if CONSOLE.search(line)], seconds)


def screenshot(page: Path, png: Path, profile: Path) -> None:
    """A screenshot of ``page`` (1400 by 900) into ``png``."""
    _, err, _ = _run([*chromium(), *_flags(profile), f"--screenshot={png}", page.as_uri()])
    assert png.is_file(), err[-2000:]
