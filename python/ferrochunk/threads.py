"""How many threads a parallel call uses when it is not told (``threads=None``).

``FERROCHUNK_NUM_THREADS``, else ``RAYON_NUM_THREADS``, else the CPUs this process may use:
its affinity mask and its cgroup CPU quota, which is what a container, a Ray worker
(``num_cpus``) or a Dask worker grants. One small function so the batch API's shared rules
(issue 10) can replace it without touching its callers.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Optional

ENV_VARS = ("FERROCHUNK_NUM_THREADS", "RAYON_NUM_THREADS")


def resolve_threads(threads: Optional[int] = None) -> int:
    """``threads`` checked (an int >= 1), or the default described in the module docstring."""
    if threads is None:
        for name in ENV_VARS:
            value = os.environ.get(name, "").strip()
            if value and not (name == "RAYON_NUM_THREADS" and value == "0"):  # rayon's "auto"
                try:
                    return resolve_threads(int(value))
                except (TypeError, ValueError):
                    raise ValueError(
                        f"{name}={value!r} must be a whole number of threads >= 1"
                    ) from None
        return available_cpus()
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int >= 1 or None, got {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be >= 1 (or None for all the CPUs allowed), got {threads}")
    return threads


def available_cpus() -> int:
    """CPUs this process may run on: affinity, capped by a cgroup v2/v1 CPU quota."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cpus = os.cpu_count() or 1
    quota = _cgroup_quota()
    return max(1, min(cpus, quota) if quota else cpus)


def _cgroup_quota() -> Optional[int]:
    try:
        fields = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if len(fields) == 2 and fields[0] != "max":
            return math.ceil(int(fields[0]) / int(fields[1]))
        quota = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").read_text())
        period = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us").read_text())
        return math.ceil(quota / period) if quota > 0 and period > 0 else None
    except (OSError, ValueError, ZeroDivisionError):
        return None


__all__ = ["ENV_VARS", "available_cpus", "resolve_threads"]
