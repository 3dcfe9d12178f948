"""Packs a tiktoken rank file (``NAME.tiktoken``: base64 token, space, rank per line) into the
compact form ferrochunk embeds in its binary: each token's bytes, in rank order, prefixed by
their length in one byte. Rank gaps (special-token ids) are not allowed inside one file.

Usage: python tools/pack_ranks.py SOURCE.tiktoken OUT.bin [--from-rank N]

``--from-rank`` keeps only ranks >= N (p50k_base is r50k_base plus 24 ranks from 50257).
The tests check the packed data against tiktoken's published SHA-256 of the source files.
"""

from __future__ import annotations

import argparse
import base64
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--from-rank", type=int, default=0)
    args = parser.parse_args()
    ranks = {}
    for line in args.source.read_bytes().splitlines():
        token, rank = line.split()
        ranks[int(rank)] = base64.b64decode(token)
    wanted = sorted(r for r in ranks if r >= args.from_rank)
    if wanted != list(range(args.from_rank, args.from_rank + len(wanted))):
        raise SystemExit("ranks are not contiguous from --from-rank")
    out = bytearray()
    for rank in wanted:
        token = ranks[rank]
        if not 0 < len(token) < 256:
            raise SystemExit(f"token of rank {rank} has length {len(token)}")
        out.append(len(token))
        out += token
    args.out.write_bytes(bytes(out))
    print(f"{args.out}: {len(wanted)} tokens from rank {args.from_rank}, {len(out)} bytes")


if __name__ == "__main__":
    main()
