#!/usr/bin/env bash
# The main job: chunk files, folders, JSON Lines, Parquet or stdin to JSONL/Parquet
# (default: stdin when piped, else the sample bundled in the package). All options:
# scripts/chunk.sh --help
# e.g. scripts/chunk.sh docs/ --chunker markdown --out chunks.parquet
# Builds first only if the build is missing or older than the Rust sources (a quick check
# of file times against the stamp scripts/setup.sh leaves), so once built it runs offline.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
stamp="$here/.venv/.ferrochunk-built"
stale() {
  [ -x "$here/.venv/bin/ferrochunk" ] && [ -f "$stamp" ] || return 0
  [ -n "$(find "$here/rust" "$here/Cargo.toml" "$here/Cargo.lock" "$here/pyproject.toml" \
    -newer "$stamp" -print -quit 2>/dev/null)" ]
}
if stale; then
  echo "chunk.sh: the build is missing or older than the sources; building it first" >&2
  "$here/scripts/setup.sh" --core
fi
exec "$here/.venv/bin/ferrochunk" chunk "$@"
