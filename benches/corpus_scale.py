"""Corpus scale, end to end: a corpus of many files (the shared corpus repeated into a temp
folder) chunked to JSON Lines by each contender, each in its own process, in paired rounds
(every contender once per round, in rotating order); medians of wall time, CPU time / wall,
and peak RSS (``os.wait4``'s ``ru_maxrss`` of that process alone).

    .venv/bin/python benches/corpus_scale.py --megabytes 200 --rounds 3
    .venv/bin/python benches/corpus_scale.py --memory   # 1 GB of files, one 2 GB file
    .venv/bin/python benches/corpus_scale.py --batch --megabytes 40 --rounds 5

Contenders (chunk_size 1000, overlap 200, LangChain's default separators):
- ``ferrochunk chunk`` at 1 and 2 threads (read, split, ids, JSONL, all in the process);
- ``Splitter.split_batch`` at 1 and 2 threads: the files read fresh each round, then one
  batch (the timed part is reported separately: ``batch s``);
- LangChain's ``RecursiveCharacterTextSplitter`` in a ``multiprocessing.Pool(2)``, each
  worker reading its files and returning the same rows (offsets from ``start_index``,
  byte offsets, the same SHA-256 chunk ids), the parent writing the JSONL;
- semantic-text-splitter's ``TextSplitter((800, 1000), overlap=200).chunk_all_indices``
  (its parallel batch; optional ``bench`` extra), with the same rows.

``--batch``: ``Splitter(1000, chunk_overlap=200)`` in process, cold: a loop of ``split`` against
``split_batch`` at 1 and 2 threads, each mode in its own process per round (rotating order)
on texts read fresh from the shared corpus (repeated to ``--megabytes``) before the timed
call; the call's wall and CPU time (all threads, and the calling thread's alone: the serial part,
reading inputs and building the Python results), and the process's peak RSS against the RSS
with the texts alone. Every mode's chunks checked identical.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ferrochunk.bench import host_line, load_average

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # corpus.py: where the shared corpus is
import corpus  # noqa: E402

SHARED = corpus.CORPUS
PY = sys.executable

SPLIT_BATCH = r"""
import json, sys, time
from pathlib import Path

from ferrochunk.bench import host_line, load_average
import ferrochunk
root, threads, out = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
paths = sorted(p for p in root.rglob("*") if p.suffix in (".md", ".txt"))
texts = [p.read_text(encoding="utf-8") for p in paths]
start = time.perf_counter()
chunks = ferrochunk.Splitter(1000, chunk_overlap=200).split_batch(texts, threads=threads)
batch = time.perf_counter() - start
print(json.dumps({"batch": batch, "chunks": sum(map(len, chunks))}))
"""

LANGCHAIN = r"""
import hashlib, json, sys
from multiprocessing import Pool
from pathlib import Path

from ferrochunk.bench import host_line, load_average
from langchain_text_splitters import RecursiveCharacterTextSplitter

SETTINGS = "langchain|size=1000|overlap=200"
splitter = RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200, add_start_index=True)

def rows(path):
    text = Path(path).read_text(encoding="utf-8")
    digest = hashlib.sha256(text.encode()).hexdigest()
    lines, byte, at = [], 0, 0
    for index, doc in enumerate(splitter.create_documents([text])):
        start = doc.metadata["start_index"]
        byte += len(text[at:start].encode()) if start >= at else -len(text[start:at].encode())
        at, chunk = start, doc.page_content
        end = start + len(chunk)
        key = f"{path}\0{SETTINGS}\0{digest}\0{start}:{end}".encode()
        lines.append(json.dumps({
            "source": path, "index": index, "start": start, "end": end, "byte_start": byte,
            "byte_end": byte + len(chunk.encode()), "text": chunk,
            "chunk_id": hashlib.sha256(key).hexdigest()[:32],
        }, ensure_ascii=False))
    return "\n".join(lines) + "\n" if lines else ""

if __name__ == "__main__":
    root, out = Path(sys.argv[1]), sys.argv[2]
    paths = sorted(str(p) for p in root.rglob("*") if p.suffix in (".md", ".txt"))
    with Pool(2) as pool, open(out, "w", encoding="utf-8") as f:
        for part in pool.imap(rows, paths, chunksize=16):
            f.write(part)
"""

SEMANTIC = r"""
import hashlib, json, sys
from pathlib import Path

from ferrochunk.bench import host_line, load_average
from semantic_text_splitter import TextSplitter

root, out = Path(sys.argv[1]), sys.argv[2]
paths = sorted(str(p) for p in root.rglob("*") if p.suffix in (".md", ".txt"))
splitter = TextSplitter((800, 1000), overlap=200)  # as benches/test_bench_split.py
with open(out, "w", encoding="utf-8") as f:
    for k in range(0, len(paths), 512):
        group = paths[k : k + 512]
        texts = [Path(p).read_text(encoding="utf-8") for p in group]
        for path, text, chunks in zip(group, texts, splitter.chunk_all_indices(texts)):
            digest = hashlib.sha256(text.encode()).hexdigest()
            for index, (start, chunk) in enumerate(chunks):
                end = start + len(chunk)
                key = f"{path}\0semantic\0{digest}\0{start}:{end}".encode()
                f.write(json.dumps({
                    "source": path, "index": index, "start": start, "end": end,
                    "text": chunk, "chunk_id": hashlib.sha256(key).hexdigest()[:32],
                }, ensure_ascii=False) + "\n")
"""


BATCH_MODE = r"""
import json, resource, sys, time
from pathlib import Path

from ferrochunk.bench import host_line, load_average
import ferrochunk
root, copies, mode = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
paths = sorted(p for p in root.rglob("*") if p.suffix in (".md", ".txt"))
texts = [p.read_text(encoding="utf-8") for _ in range(copies) for p in paths]  # fresh strs
splitter = ferrochunk.Splitter(1000, chunk_overlap=200)
texts_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
wall, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
if mode == "loop":
    chunks = [splitter.split(t) for t in texts]
else:
    chunks = splitter.split_batch(texts, threads=int(mode))
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
main = time.thread_time() - main
check = hash(tuple((c.start, c.end, c.byte_end, len(c.text)) for cl in chunks for c in cl))
nbytes = sum(len(t.encode("utf-8")) for t in texts)
print(json.dumps({"call": wall, "call_cpu": cpu, "main_cpu": main, "texts_rss": texts_rss,
                  "check": check, "nbytes": nbytes}))
"""

BATCH_MODES = {"split loop": "loop", "split_batch, threads=1": "1", "split_batch, threads=2": "2"}


def batch(megabytes: int, rounds: int) -> None:
    """``split`` loop vs ``split_batch`` at 1 and 2 threads, cold, paired rounds (``--batch``)."""
    size = sum(p.stat().st_size for p in SHARED.rglob("*") if p.suffix in (".md", ".txt"))
    copies = max(1, -(-megabytes * 1_000_000 // size))
    print(f"corpus: {SHARED} read {copies} times; {host_line()}")
    results: dict[str, list[dict]] = {name: [] for name in BATCH_MODES}
    names = list(BATCH_MODES)
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            cmd = [PY, "-c", BATCH_MODE, str(SHARED), str(copies), BATCH_MODES[name]]
            results[name].append(run(cmd))
        print(f"round {r + 1} done; {load_average()}", file=sys.stderr)
    checks = {r["check"] for rows in results.values() for r in rows}
    if len(checks) != 1:
        raise SystemExit("the modes' chunks differ")
    nbytes = results[names[0]][0]["nbytes"]
    loop = results["split loop"]
    print(f"\n{nbytes / 1e6:.1f} MB of text (UTF-8), {rounds} rounds, medians; chunks identical")
    print(
        "| mode | wall s | MB/s | vs loop (wall) | CPU s | vs loop (CPU) | calling thread CPU s | "
        "peak RSS MB | + over texts MB |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, rows in results.items():
        # Paired: each round's ratio to the loop's run in the same round, then the median.
        wall = statistics.median(r["call"] for r in rows)
        cpu = statistics.median(r["call_cpu"] for r in rows)
        wall_ratio = statistics.median(a["call"] / b["call"] for a, b in zip(loop, rows))
        cpu_ratio = statistics.median(a["call_cpu"] / b["call_cpu"] for a, b in zip(loop, rows))
        main = statistics.median(r["main_cpu"] for r in rows)
        rss = statistics.median(r["rss"] for r in rows)
        extra = statistics.median(r["rss"] - r["texts_rss"] for r in rows)
        print(
            f"| {name} | {wall:.3f} | {nbytes / 1e6 / wall:.0f} | {wall_ratio:.2f} | "
            f"{cpu:.3f} | {cpu_ratio:.2f} | {main:.3f} | {rss:.0f} | {extra:.0f} |"
        )
    one, two = results["split_batch, threads=1"], results["split_batch, threads=2"]
    ratios = [a["call"] / b["call"] for a, b in zip(one, two)]
    print(
        f"split_batch, 2 threads / 1, paired by round: median {statistics.median(ratios):.2f} "
        f"({', '.join(f'{x:.2f}' for x in ratios)})"
    )
    print(f"after: {load_average()}")


def make_corpus(folder: Path, megabytes: int) -> int:
    """The shared corpus copied into ``folder`` until it holds ``megabytes``; its size."""
    size = sum(p.stat().st_size for p in SHARED.rglob("*") if p.is_file())
    copies = max(1, -(-megabytes * 1_000_000 // size))
    for i in range(copies):
        shutil.copytree(SHARED, folder / f"copy{i:04d}")
    return size * copies


def run(cmd: list[str]) -> dict:
    """Wall time, CPU time and peak RSS of one process (``os.wait4`` on it alone)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.read() if proc.stdout else b""
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{cmd} failed: {err.decode()[-2000:]}")
    result = {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024}
    if out.strip().startswith(b"{"):
        import json

        result.update(json.loads(out))
    return result


def contenders(corpus: Path, out: Path) -> dict[str, list[str]]:
    cli = [str(Path(PY).parent / "ferrochunk"), "chunk", str(corpus), "-q", "-o", str(out)]
    found = {
        "ferrochunk chunk, 1 thread": [*cli, "--threads", "1"],
        "ferrochunk chunk, 2 threads": [*cli, "--threads", "2"],
        "split_batch, 1 thread": [PY, "-c", SPLIT_BATCH, str(corpus), "1", str(out)],
        "split_batch, 2 threads": [PY, "-c", SPLIT_BATCH, str(corpus), "2", str(out)],
        "LangChain, Pool(2)": [PY, "-c", LANGCHAIN, str(corpus), str(out)],
    }
    try:
        import semantic_text_splitter  # noqa: F401

        found["semantic-text-splitter chunk_all"] = [PY, "-c", SEMANTIC, str(corpus), str(out)]
    except ImportError:
        print("semantic-text-splitter not installed (pip install '.[bench]'): skipped")
    return found


def scale(megabytes: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory(prefix="fc-bench-") as tmp:
        corpus = Path(tmp) / "corpus"
        nbytes = make_corpus(corpus, megabytes)
        files = sum(1 for _ in corpus.rglob("*.md")) + sum(1 for _ in corpus.rglob("*.txt"))
        print(f"corpus: {nbytes / 1e6:.0f} MB in {files} files; {host_line()}")
        out = Path(tmp) / "out.jsonl"
        cmds = contenders(corpus, out)
        results: dict[str, list[dict]] = {name: [] for name in cmds}
        names = list(cmds)
        for r in range(rounds):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                # Each contender writes a new file: truncating the last one's 300 MB in
                # the timed process cost ~0.17 s of page freeing before any work.
                out.unlink(missing_ok=True)
                results[name].append(run(cmds[name]))
            print(f"round {r + 1} done; {load_average()}", file=sys.stderr)
        table(results, nbytes)
        print(f"after: {load_average()}")


def table(results: dict[str, list[dict]], nbytes: int) -> None:
    base = statistics.median(r["wall"] for r in results["LangChain, Pool(2)"])
    print("\n| contender | wall s | MB/s | CPU s / wall s | x LangChain Pool(2) | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, rows in results.items():
        wall = statistics.median(r["wall"] for r in rows)
        cpu = statistics.median(r["cpu"] / r["wall"] for r in rows)
        rss = max(r["rss"] for r in rows)
        note = ""
        if "batch" in rows[0]:
            batch = statistics.median(r["batch"] for r in rows)
            note = f" (batch {batch:.2f} s, {nbytes / 1e6 / batch:.0f} MB/s)"
        print(
            f"| {name}{note} | {wall:.2f} | {nbytes / 1e6 / wall:.0f} | {cpu:.2f} | "
            f"{base / wall:.1f} | {rss:.0f} |"
        )
    # Ratios within each round (the host's speed drifts between rounds).
    pairs = {
        "ferrochunk chunk, 2 threads vs 1 thread": (
            "ferrochunk chunk, 1 thread",
            "ferrochunk chunk, 2 threads",
        ),
        "ferrochunk chunk, 2 threads vs LangChain": (
            "LangChain, Pool(2)",
            "ferrochunk chunk, 2 threads",
        ),
    }
    for label, (slow, fast) in pairs.items():
        rounds = zip(results[slow], results[fast])
        ratio = statistics.median(a["wall"] / b["wall"] for a, b in rounds)
        print(f"{label}, paired by round: {ratio:.2f}x")


MEMORY_SPLIT_FILE = r"""
import sys
import ferrochunk
n = sum(1 for _ in ferrochunk.Splitter(1000, chunk_overlap=200).split_file(sys.argv[1]))
print('{"chunks": %d}' % n)
"""


def memory() -> None:
    """Peak RSS of the CLI over 1 GB of files, and of split_file / the CLI over one 2 GB file."""
    with tempfile.TemporaryDirectory(prefix="fc-mem-") as tmp:
        corpus = Path(tmp) / "corpus"
        nbytes = make_corpus(corpus, 1000)
        cli = [str(Path(PY).parent / "ferrochunk"), "chunk", "-q", "-o", os.devnull]
        r = run([*cli, str(corpus), "--threads", "2"])
        print(
            f"CLI, {nbytes / 1e6:.0f} MB in many files, 2 threads: {r['wall']:.1f} s, "
            f"peak RSS {r['rss']:.0f} MB; {load_average()}"
        )
        big = Path(tmp) / "big.md"
        with open(big, "wb") as f:
            files = sorted(p for p in corpus.rglob("*") if p.suffix in (".md", ".txt"))
            while f.tell() < 2_000_000_000:
                for p in files[:500]:
                    f.write(p.read_bytes())
                    f.write(b"\n\n")
        shutil.rmtree(corpus)
        size = big.stat().st_size / 1e6
        r = run([*cli, str(big), "--threads", "2"])
        print(f"CLI, one {size:.0f} MB file: {r['wall']:.1f} s, peak RSS {r['rss']:.0f} MB")
        r = run([PY, "-c", MEMORY_SPLIT_FILE, str(big)])
        print(
            f"split_file, one {size:.0f} MB file: {r['wall']:.1f} s, peak RSS {r['rss']:.0f} MB "
            f"({r['chunks']} chunks); {load_average()}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory", action="store_true", help="the 1 GB / 2 GB memory runs")
    parser.add_argument("--batch", action="store_true", help="split loop vs split_batch, cold")
    args = parser.parse_args()
    if not SHARED.is_dir():
        raise SystemExit(f"shared corpus not found at {SHARED}")
    if args.batch:
        batch(args.megabytes, args.rounds)
    elif args.memory:
        memory()
    else:
        scale(args.megabytes, args.rounds)


if __name__ == "__main__":
    main()
