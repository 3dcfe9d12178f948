"""CodeChunker against semantic-text-splitter's ``CodeSplitter`` on real Python code (the
standard library's modules of the running interpreter): speed, cold, in paired rounds, and
quality judged by Python's ``ast`` at equal sizes. Prints Markdown tables.

    python benches/code_speed.py [--rounds 5] [--sizes 500 1500] [--files 0]

Speed: MB/s of UTF-8 input per second of process CPU time; every round splits fresh ``str``
objects, each row once in turn, and the table shows the median round. Quality, at each size
(characters): definitions (``def``/``class`` with decorators, indentation counted) that fit
but are cut by a chunk boundary, statements likewise, and the share of chunks that carry a
scope path (only ferrochunk gives one). chonkie's ``CodeChunker`` is not a row: it parses
through tree-sitter-language-pack, which downloads its grammars at run time.
"""

from __future__ import annotations

import argparse
import ast
import statistics
import sys
import sysconfig
import time
from bisect import bisect_left, bisect_right
from pathlib import Path
from typing import Any, Callable

import ferrochunk

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def sources(limit: int) -> list[str]:
    out = []
    for p in sorted(STDLIB.glob("*.py")):
        text = p.read_text("utf-8", errors="replace")
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        out.append(text)
    return out[:limit] if limit else out


def peers(size: int) -> dict[str, Callable[[str], list[tuple[int, int]]]]:
    """Each chunker as ``text -> [(byte_start, byte_end)]``."""
    ours = ferrochunk.CodeChunker(size, language="python")
    rows: dict[str, Callable[[str], list[tuple[int, int]]]] = {
        "ferrochunk CodeChunker": lambda t: [(c.byte_start, c.byte_end) for c in ours.split(t)]
    }
    try:
        import tree_sitter_python
        from semantic_text_splitter import CodeSplitter

        theirs = CodeSplitter(tree_sitter_python.language(), size)

        def sts(text: str) -> list[tuple[int, int]]:
            out = []
            for start, chunk in theirs.chunk_indices(text):
                b = len(text[:start].encode("utf-8"))  # code points to bytes
                out.append((b, b + len(chunk.encode("utf-8"))))
            return out

        rows["semantic-text-splitter CodeSplitter"] = sts
    except ImportError as err:
        print(f"(semantic-text-splitter row skipped: {err})", file=sys.stderr)
    return rows


def fitting(text: str, size: int, kinds: tuple[type, ...]) -> list[tuple[int, int]]:
    data = text.encode("utf-8")
    starts = [0]
    for line in data.split(b"\n"):
        starts.append(starts[-1] + len(line) + 1)
    out = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, kinds):
            continue
        a = starts[node.lineno - 1] + node.col_offset
        for d in getattr(node, "decorator_list", []):
            at = starts[d.lineno - 1] + d.col_offset
            a = min(a, data.rfind(b"@", starts[d.lineno - 1], at))
        b = starts[node.end_lineno - 1] + node.end_col_offset
        if data.startswith(b"elif", a):
            continue
        line = data.rfind(b"\n", 0, a) + 1
        if not data[line:a].strip():
            a = line
        if len(data[a:b].decode("utf-8")) <= size:
            out.append((a, b))
    return out


def cut(spans: list[tuple[int, int]], chunks: list[tuple[int, int]]) -> int:
    cuts = sorted({a for a, _ in chunks} | {b for _, b in chunks})
    return sum(bisect_right(cuts, a) < bisect_left(cuts, b) for a, b in spans)


def speed(docs: list[str], rows: dict[str, Any], rounds: int) -> dict[str, float]:
    mb = sum(len(t.encode("utf-8")) for t in docs) / 1e6
    times: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(rounds):
        for name, split in rows.items():
            fresh = [(t + ".")[:-1] for t in docs]
            t0 = time.process_time()
            for text in fresh:
                split(text)
            times[name].append(time.process_time() - t0)
    return {name: mb / statistics.median(ts) for name, ts in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sizes", type=int, nargs="+", default=[500, 1500])
    ap.add_argument("--files", type=int, default=0, help="first N modules (0: all)")
    args = ap.parse_args()
    docs = sources(args.files)
    mb = sum(len(t.encode("utf-8")) for t in docs) / 1e6
    print(f"{len(docs)} standard-library modules of Python {sys.version.split()[0]}, {mb:.1f} MB\n")
    print("| size | chunker | MB/s | defs that fit, cut | statements that fit, cut | chunks |")
    print("|---|---|---|---|---|---|")
    for size in args.sizes:
        rows = peers(size)
        mbs = speed(docs, rows, args.rounds)
        for name, split in rows.items():
            defs = stmts = chunks = 0
            for text in docs:
                spans = split(text)
                chunks += len(spans)
                defs += cut(
                    fitting(text, size, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)),
                    spans,
                )
                stmts += cut(fitting(text, size, (ast.stmt,)), spans)
            print(f"| {size} | {name} | {mbs[name]:.1f} | {defs} | {stmts} | {chunks} |")


if __name__ == "__main__":
    main()
