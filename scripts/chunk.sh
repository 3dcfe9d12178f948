#!/usr/bin/env bash
# The main job: chunk files, folders, JSON Lines, Parquet or stdin to JSONL/Parquet
# (default: stdin when piped, else the sample bundled in the package). All options:
# scripts/chunk.sh --help
# e.g. scripts/chunk.sh docs/ --chunker markdown --out chunks.parquet
# Builds first only if the build is missing, older than the Rust sources, or lacks the
# Parquet extra a `.parquet` argument needs (setup.sh --if-needed: a quick check of file
# times against its stamp), so once built it runs offline.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
extra=()
for arg in "$@"; do
  case "$arg" in *.parquet) extra=(--extra arrow) ;; esac
done
"$here/scripts/setup.sh" --core "${extra[@]+"${extra[@]}"}" --if-needed
exec "$here/.venv/bin/ferrochunk" chunk "$@"
