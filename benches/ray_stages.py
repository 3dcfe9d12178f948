"""Where a Ray Data chunking job spends its time: start-up, reading, an identity map, and
``ChunkBatches`` (2 actors of 1 CPU) over the Parquet file that ``arrow_engines.py`` makes.

Run it inside a loopback-only network namespace (Ray's head contacts the network at start):
``unshare -n sh -c 'ip link set lo up && exec .venv/bin/python benches/ray_stages.py'``
(make the file first: ``.venv/bin/python benches/arrow_engines.py --mb 200 --rounds 1``).
"""

from __future__ import annotations

import time
from typing import Any, Callable

PARQUET = "/tmp/ferrochunk-engines-bench.parquet"


def timed(label: str, run: Callable[[], Any]) -> None:
    start = time.perf_counter()
    result = run()
    print(f"{label}: {time.perf_counter() - start:.2f} s ({result})", flush=True)


def main() -> None:
    import ray

    from ferrochunk import Splitter
    from ferrochunk.ray import ChunkBatches

    def start() -> str:
        ray.init(num_cpus=3, include_dashboard=False, log_to_driver=False)
        ray.data.DataContext.get_current().enable_progress_bars = False
        return "3 CPUs"

    def chunk() -> int:
        return (
            ray.data.read_parquet(PARQUET)
            .map_batches(
                ChunkBatches,
                fn_constructor_kwargs={
                    "chunker": Splitter(1000, chunk_overlap=100),
                    "keep_columns": ["id"],
                },
                batch_format="pyarrow",
                concurrency=2,
                num_cpus=1,
            )
            .count()
        )

    timed("ray.init", start)
    timed("read + count rows", lambda: ray.data.read_parquet(PARQUET).count())
    timed(
        "read + identity map_batches",
        lambda: (
            ray.data.read_parquet(PARQUET).map_batches(lambda b: b, batch_format="pyarrow").count()
        ),
    )
    timed("read + ChunkBatches (2 actors) + count chunks", chunk)


if __name__ == "__main__":
    main()
