"""``create_documents`` with a metadata dict per text, the drop-in against LangChain, cold
(fresh strs each round, made outside the timed region), CPU time on one thread, paired
rounds, median ratio: ``.venv/bin/python benches/create_documents.py [--start-index]
[--paragraphs] [--rounds 7]``. ``--paragraphs``: every paragraph of the three corpora as a
text of its own, with its own metadata dict (many short documents)."""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

from langchain_text_splitters import RecursiveCharacterTextSplitter as LangChain

from ferrochunk import RecursiveCharacterTextSplitter as Ours
from ferrochunk.bench import num_threads

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import corpus  # tests/corpus.py: where the shared corpus is


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--start-index", action="store_true")
    parser.add_argument("--paragraphs", action="store_true")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    if args.paragraphs:
        texts = list(corpus.paragraphs())
        metas: list[dict] = [{"paragraph": i} for i in range(len(texts))]
    else:
        files = sorted((Path(corpus.CORPUS) / "en-markdown").glob("*.md"))
        texts = [f.read_text(encoding="utf-8") for f in files]
        metas = [{"source": f.name} for f in files]
    kwargs = {"chunk_size": 1000, "chunk_overlap": 200, "add_start_index": args.start_index}
    ours, theirs = Ours(**kwargs), LangChain(**kwargs)
    assert ours.create_documents(texts, metas) == theirs.create_documents(texts, metas)
    gc.collect()
    gc.freeze()  # the harness's objects out of the collector's walks, as in cold_speed.py
    # One thread, as LangChain: CPU time would add up a pool's threads.
    with num_threads(1):
        ratios = _paired(ours, theirs, texts, metas, args.rounds)
    print(
        f"create_documents, add_start_index={args.start_index}"
        f"{', paragraphs' if args.paragraphs else ''}: median ratio "
        f"{statistics.median(ratios):.2f}x LangChain over {args.rounds} rounds"
    )


def _paired(ours: Ours, theirs: LangChain, texts: list[str], metas: list, rounds: int) -> list:
    """Per round, LangChain's CPU time over ours, each on its own fresh copies."""
    ratios = []
    for _ in range(rounds):
        mine, lc = [s[:-1] + s[-1] for s in texts], [s[:-1] + s[-1] for s in texts]
        a = time.process_time()
        theirs.create_documents(lc, metas)
        b = time.process_time()
        ours.create_documents(mine, metas)
        ratios.append((b - a) / (time.process_time() - b))
    return ratios


if __name__ == "__main__":
    main()
