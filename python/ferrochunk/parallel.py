"""How many threads batches use, and fork safety.

``threads=None`` anywhere in ferrochunk means: the ``FERROCHUNK_NUM_THREADS`` environment
variable, else ``RAYON_NUM_THREADS``, else the CPUs this process may use (its affinity mask
and cgroup CPU quota: what ``taskset``, a container's ``--cpus`` or a Ray/Dask worker grants).

Thread pools are kept between calls. A process forked after a parallel call (the ``fork``
start method of ``multiprocessing``) does not inherit them: the pools notice they belong to
another process id and are rebuilt, and the hook below makes that certain even if a process
id is reused. So a forked worker splits in parallel too, without hanging.

>>> from ferrochunk.parallel import resolve_threads
>>> resolve_threads(3)
3
"""

from __future__ import annotations

import os
from typing import Optional

from . import _native
from .frontend.batch import check_threads


def resolve_threads(threads: Optional[int] = None) -> int:
    """The number of threads a batch given ``threads`` runs on (see the module doc)."""
    return _native.resolve_threads(check_threads(threads))


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_native.after_fork)

__all__ = ["resolve_threads"]
