"""Ray Data and Dask on real local clusters, every chunk compared with the single-process
result of ``chunk_arrow``.

Ray's head contacts the cloud metadata address and an outside DNS server at start-up, and
nothing here may send traffic anywhere but loopback: these tests run only in a network
namespace with loopback alone up (``scripts/test-engines.sh``, which ``.ci/run`` calls):

    unshare -n sh -c 'ip link set lo up && exec .venv/bin/python -m pytest -m engines'
"""

from __future__ import annotations

import fcntl
import os
import socket
import struct
from pathlib import Path

import pytest

import corpus
import ferrochunk
from ferrochunk.arrow import chunk_arrow

SIOCGIFFLAGS = 0x8913
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def network_isolated() -> bool:
    """Whether every network interface of this process's namespace but loopback is down
    (asked of the kernel: /sys/class/net shows the namespace sysfs was mounted in)."""
    try:
        names = [name for _, name in socket.if_nameindex()]
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            for name in names:
                if name == "lo":
                    continue
                request = struct.pack("16sH", name.encode()[:15], 0)
                flags = struct.unpack("16sH", fcntl.ioctl(sock, SIOCGIFFLAGS, request))[1]
                if flags & 0x1:  # IFF_UP
                    return False
    except OSError:
        return False
    return True


pytestmark = [
    pytest.mark.engines,
    pytest.mark.skipif(
        not network_isolated(),
        reason="Ray/Dask cluster tests run only with loopback alone up: "
        "scripts/test-engines.sh (as root: unshare -n sh -c 'ip link set lo up && "
        "exec .venv/bin/python -m pytest -m engines')",
    ),
]

CHUNKERS = {
    "splitter": lambda: ferrochunk.Splitter(60, chunk_overlap=10),
    "splitter-tokens": lambda: ferrochunk.Splitter(
        20,
        chunk_overlap=4,
        length_function=ferrochunk.get_encoding("cl100k_base").length_function(),
    ),
    "markdown": lambda: ferrochunk.MarkdownChunker(80, min_size=20),
}


@pytest.fixture(scope="module")
def docs() -> pa.Table:
    """A small table: corpus files (cut short) with ids, and a null."""
    texts = [p.read_text(encoding="utf-8")[:3000] for p in corpus.paths()[::25][:24]]
    texts.insert(3, None)
    return pa.table({"doc": [f"d{i}" for i in range(len(texts))], "text": texts})


@pytest.fixture(scope="module")
def parquet(docs, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("engines") / "docs.parquet"
    pq.write_table(docs, path, row_group_size=6)
    return path


def expected(docs: pa.Table, chunker) -> list[dict]:
    out = chunk_arrow(docs, chunker=chunker, id_column="doc", keep_columns=["doc"], threads=1)
    return sorted(out.drop_columns(["row"]).to_pylist(), key=_key)


def _key(r: dict) -> tuple:
    return (r["doc"], r["chunk_index"])


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()


@pytest.mark.parametrize("name", sorted(CHUNKERS))
def test_ray_data_map_batches_matches_single_process(ray_cluster, parquet, docs, name) -> None:
    from ferrochunk.ray import ChunkBatches

    ds = ray_cluster.data.read_parquet(str(parquet), override_num_blocks=4).map_batches(
        ChunkBatches,
        fn_constructor_kwargs={
            "chunker": CHUNKERS[name](),
            "id_column": "doc",
            "keep_columns": ["doc"],
        },
        batch_format="pyarrow",
        batch_size=5,
        concurrency=2,
        num_cpus=0.5,  # two actors leave one of the two CPUs to the read tasks
    )
    got = sorted((dict(r) for r in ds.drop_columns(["row"]).take_all()), key=_key)
    assert got == expected(docs, CHUNKERS[name]())


def test_ray_write_parquet_round_trip(ray_cluster, parquet, docs, tmp_path) -> None:
    from ferrochunk.ray import ChunkBatches

    out = tmp_path / "chunks"
    ray_cluster.data.read_parquet(str(parquet), override_num_blocks=4).map_batches(
        ChunkBatches,
        fn_constructor_kwargs={
            "chunker": lambda: ferrochunk.Splitter(60, chunk_overlap=10),
            "id_column": "doc",
            "keep_columns": ["doc"],
        },
        batch_format="pyarrow",
        concurrency=2,
        num_cpus=0.5,  # two actors leave one of the two CPUs to the read tasks
    ).write_parquet(str(out))
    got = pq.read_table(out).drop_columns(["row"]).to_pylist()
    assert sorted(got, key=_key) == expected(docs, ferrochunk.Splitter(60, chunk_overlap=10))


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.parametrize("name", sorted(CHUNKERS))
def test_dask_map_partitions_matches_single_process(dask_client, parquet, docs, name) -> None:
    dd = pytest.importorskip("dask.dataframe")
    from ferrochunk.dask import chunk_dataframe

    ddf = dd.read_parquet(str(parquet), split_row_groups=True)
    assert ddf.npartitions > 1
    chunks = chunk_dataframe(ddf, CHUNKERS[name](), id_column="doc", keep_columns=["doc"])
    frame = chunks.compute()
    table = pa.Table.from_pandas(frame, preserve_index=False)
    got = sorted(table.drop_columns(["row"]).to_pylist(), key=_key)
    assert got == expected(docs, CHUNKERS[name]())


def test_dask_bag_recipe_matches_single_process(dask_client, docs) -> None:
    db = pytest.importorskip("dask.bag")
    from ferrochunk.dask import chunk_texts

    texts = [t for t in docs.column("text").to_pylist() if t is not None]
    chunker = ferrochunk.Splitter(60, chunk_overlap=10)
    bag = db.from_sequence(texts, npartitions=4).map_partitions(chunk_texts, chunker)
    got = [r["text"] for r in bag.compute()]
    want = [c.text for t in texts for c in chunker.split(t)]
    assert got == want
