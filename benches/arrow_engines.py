"""Engines benchmark: ``chunk_arrow`` against Python loops on one Parquet file of >= 200 MB
made from ../shared/corpus (under /tmp, never committed), and a Ray Data job at 1 and 2
workers. The loops: ``split`` per text (no ids, no table), and the same making the table
``chunk_arrow`` returns (ids by ``hashlib``, checked equal first). Each measurement runs
in a fresh process (so peak RSS is its own); rounds are paired (every mode once per round,
in turn) and the median is reported.

    .venv/bin/python benches/arrow_engines.py [--mb 200] [--rounds 3] [--ray]

``--ray`` needs a loopback-only network namespace (see scripts/test-engines.sh):
    unshare -n sh -c 'ip link set lo up && exec .venv/bin/python benches/arrow_engines.py --ray'
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / ".." / "shared" / "corpus"
PARQUET = Path("/tmp/ferrochunk-engines-bench.parquet")
SPLITTER = {"chunk_size": 1000, "chunk_overlap": 100}


def make_parquet(mb: int) -> Path:
    """Corpus files repeated (each copy a new row) until the text passes ``mb`` MB."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if PARQUET.exists() and PARQUET.stat().st_size >= mb * 1_000_000 * 0.9:
        return PARQUET
    files = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".md", ".txt"))
    texts = [p.read_text(encoding="utf-8") for p in files]
    rows, total, copy = [], 0, 0
    while total < mb * 1_000_000:
        for t in texts:
            rows.append(t)
            total += len(t.encode())
        copy += 1
    table = pa.table({"id": [f"d{i}" for i in range(len(rows))], "text": rows})
    # No dictionary: the copies would collapse into one, and the file must hold the text.
    pq.write_table(table, PARQUET, row_group_size=2000, compression="none", use_dictionary=False)
    return PARQUET


def run_mode(mode: str) -> dict:
    """One measurement in this process: rows/s over the file, and this process's peak RSS."""
    import pyarrow.parquet as pq

    from ferrochunk import Splitter
    from ferrochunk.arrow import chunk_arrow

    table = pq.read_table(PARQUET)
    splitter = Splitter(**SPLITTER)
    start = time.perf_counter()
    if mode == "python-loop":
        chunks = 0
        for text in table.column("text").to_pylist():
            if text is not None:
                chunks += len(splitter.split(text))
    elif mode == "python-loop-table":
        chunks = loop_table(table, splitter).num_rows
    elif mode == "split_batch-1":
        texts = [t for t in table.column("text").to_pylist() if t is not None]
        chunks = sum(map(len, splitter.split_batch(texts, threads=1)))
    elif mode.startswith("chunk_arrow"):
        threads = int(mode.rsplit("-", 1)[1])
        # "noids": no chunk_id column, document ids from the id column (no text hashed).
        ids = {"chunk_ids": False, "id_column": "id"} if "noids" in mode else {}
        out = chunk_arrow(table, chunker=splitter, keep_columns=["id"], threads=threads, **ids)
        chunks = out.num_rows
    elif mode.startswith("ray"):
        chunks = _ray(int(mode.rsplit("-", 1)[1]))
    seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "mode": mode,
        "seconds": seconds,
        "rows": table.num_rows,
        "chunks": chunks,
        "peak_rss_mb": rss,
    }


def loop_table(table, splitter):
    """What a user writes for ``chunk_arrow``'s table in Python: ``split`` per text, the
    chunk ids by ``hashlib`` (the reference's functions), columns filled from the chunks."""
    import pyarrow as pa

    from ferrochunk.reference.chunk_id import chunk_id, text_digest

    names = ("row", "chunk_index", "start", "end", "byte_start", "byte_end")
    cols: dict[str, list] = {n: [] for n in (*names, "text", "token_count", "chunk_id")}
    cols.update(document_id=[], id=[])
    settings = splitter.settings
    texts, ids = table.column("text").to_pylist(), table.column("id").to_pylist()
    for row, (text, kept) in enumerate(zip(texts, ids)):
        if text is None:
            continue
        digest = text_digest(text)
        doc = digest[:32]
        for k, c in enumerate(splitter.split(text)):
            for name, value in zip(names, (row, k, c.start, c.end, c.byte_start, c.byte_end)):
                cols[name].append(value)
            cols["text"].append(c.text)
            cols["token_count"].append(c.token_count)
            cols["chunk_id"].append(chunk_id(doc, settings, digest, c.start, c.end))
            cols["document_id"].append(doc)
            cols["id"].append(kept)
    types = dict.fromkeys(names, pa.int64())
    types.update(text=pa.large_string(), token_count=pa.int64(), id=table.schema.field("id").type)
    return pa.table({n: pa.array(v, types.get(n, pa.string())) for n, v in cols.items()})


def check_loop_table() -> None:
    """The loop's table holds what ``chunk_arrow``'s does (first 300 rows)."""
    import pyarrow.parquet as pq

    from ferrochunk import Splitter
    from ferrochunk.arrow import chunk_arrow

    table = pq.read_table(PARQUET).slice(0, 300)
    splitter = Splitter(**SPLITTER)
    want = chunk_arrow(table, chunker=splitter, keep_columns=["id"], threads=1)
    got = loop_table(table, splitter)
    for name in want.column_names:
        assert got[name].to_pylist() == want[name].to_pylist(), name
    assert got.column_names == want.column_names


def _ray(workers: int) -> int:
    import ray

    from ferrochunk import Splitter
    from ferrochunk.ray import ChunkBatches

    # One logical CPU more than the workers hold, for the read tasks (else they starve).
    ray.init(num_cpus=workers + 1, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    ds = ray.data.read_parquet(str(PARQUET)).map_batches(
        ChunkBatches,
        fn_constructor_kwargs={"chunker": Splitter(**SPLITTER), "keep_columns": ["id"]},
        batch_format="pyarrow",
        concurrency=workers,
        num_cpus=1,
    )
    return ds.count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ray", action="store_true")
    parser.add_argument("--mode", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mode:
        print(json.dumps(run_mode(args.mode)))
        return
    path = make_parquet(args.mb)
    print(f"{path}: {path.stat().st_size / 1e6:.0f} MB", file=sys.stderr)
    check_loop_table()
    modes = ["python-loop", "python-loop-table", "split_batch-1", "chunk_arrow-1"]
    modes += ["chunk_arrow-2"]
    modes += ["chunk_arrow-noids-1", "chunk_arrow-noids-2"]
    modes = ["ray-1", "ray-2"] if args.ray else modes
    results: dict[str, list[dict]] = {m: [] for m in modes}
    for _ in range(args.rounds):
        for mode in modes:
            out = subprocess.run(
                [sys.executable, __file__, "--mode", mode],
                capture_output=True,
                text=True,
                check=True,
            )
            results[mode].append(json.loads(out.stdout.strip().splitlines()[-1]))
    base = statistics.median(r["seconds"] for r in results[modes[0]])
    print("| mode | rows/s | MB/s | vs first | peak RSS MB | chunks |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    mb = path.stat().st_size / 1e6
    for mode, rs in results.items():
        sec = statistics.median(r["seconds"] for r in rs)
        rss = max(r["peak_rss_mb"] for r in rs)
        print(
            f"| {mode} | {rs[0]['rows'] / sec:,.0f} | {mb / sec:.0f} | {base / sec:.2f}x "
            f"| {rss:.0f} | {rs[0]['chunks']:,} |"
        )
    for one, two in (
        ("chunk_arrow-1", "chunk_arrow-2"),
        ("chunk_arrow-noids-1", "chunk_arrow-noids-2"),
    ):
        if one in results and two in results:
            pairs = zip(results[one], results[two])
            ratio = statistics.median(a["seconds"] / b["seconds"] for a, b in pairs)
            print(f"{two} / {one}, paired by round: {ratio:.2f}x")


if __name__ == "__main__":
    main()
