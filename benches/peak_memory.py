"""Peak memory of splitting one large document just read from disk, each case in its own process.

The document is written to a temporary file; a child process reads it (``open().read()``, as
a user would), splits it and keeps the output alive, then reports its peak resident set
(``VmHWM``): over the whole process, and from after the read (the peak is reset there through
``/proc/self/clear_refs``, Linux only), with what the interpreter held before reading, what
the ``str`` takes, and what the split added on top (its output included). Sizes are relative
to the document's UTF-8 size.

    python benches/peak_memory.py [--mb 100] [--nosep-mb 50]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZE, OVERLAP = 1000, 200


def _status(field: str) -> int:
    """A ``/proc/self/status`` figure in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(field)


def child(path: str, impl: str) -> None:
    """Read, split, report (runs in the child process)."""
    import logging

    logging.disable(logging.WARNING)
    # Each imports only what it uses: the drop-ins bring langchain_core (their Document and
    # transformer types), the native API does not.
    if impl == "native":
        import ferrochunk

        split = ferrochunk.Splitter(SIZE, chunk_overlap=OVERLAP).split
    else:
        if impl == "langchain":
            from langchain_text_splitters import RecursiveCharacterTextSplitter as cls
        else:
            from ferrochunk import RecursiveCharacterTextSplitter as cls
        split = cls(chunk_size=SIZE, chunk_overlap=OVERLAP).split_text
    before = _status("VmRSS")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    read_peak, after_read = _status("VmHWM"), _status("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # reset VmHWM to the current RSS
    start = time.perf_counter()
    chunks = split(text)
    seconds = time.perf_counter() - start
    peak = _status("VmHWM")
    print(
        json.dumps(
            {
                "before": before,
                "read_peak": read_peak,
                "after_read": after_read,
                "split_peak": peak,
                "seconds": seconds,
                "chunks": len(chunks),
            }
        )
    )


def run(path: Path, impl: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(path), impl],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def report(title: str, text: str, impls: list[str]) -> None:
    size = len(text.encode("utf-8"))
    widest = max(map(ord, text))
    kind = 1 if widest < 0x100 else 2 if widest < 0x10000 else 4
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "document.txt")
        path.write_text(text, encoding="utf-8")
        del text
        print(f"\n### {title}: {size / 1e6:.0f} MB of UTF-8, {kind} byte(s) per code point\n")
        print(
            "| implementation | MB/s | RSS before the read | the str | peak RSS, whole process "
            "(x UTF-8 size) | peak RSS from after the read (x) | added by the split (x) |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        mib = 2**20
        for impl in impls:
            r = run(path, impl)
            whole = max(r["read_peak"], r["split_peak"])
            split, text = r["split_peak"], r["after_read"] - r["before"]
            added = split - r["after_read"]
            print(
                f"| {impl} | {size / 1e6 / r['seconds']:.1f} | {r['before'] / mib:.0f} MiB | "
                f"{text / mib:.0f} MiB | {whole / mib:.0f} MiB ({whole / size:.2f}) | "
                f"{split / mib:.0f} MiB ({split / size:.2f}) | {added / mib:.0f} MiB "
                f"({added / size:.2f}) |"
            )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--nosep-mb", type=int, default=50)
    parser.add_argument("--langchain", action="store_true", help="measure LangChain as well")
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(__file__))
    from cold_speed import document, random_letters  # puts tests/ (corpus.py) on the path
    from corpus import texts

    impls = ["ferrochunk", "native"] + (["langchain"] if args.langchain else [])
    report("The three corpora, repeated", document(args.mb), impls)
    prose = "".join(texts("en-prose"))
    report(
        "en-prose (ASCII), repeated",
        (prose * (args.mb * 1_000_000 // len(prose) + 1))[: args.mb * 1_000_000],
        impls,
    )
    letters = random_letters(args.nosep_mb * 10**6)
    report("No separator at all (random letters)", letters, impls)


if __name__ == "__main__":
    main()
