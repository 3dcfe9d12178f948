#!/usr/bin/env bash
# The main job: chunk files/folders (default: the sample bundled in the package) to JSONL.
# Usage: scripts/chunk.sh [PATH...] [--chunk-size N] [--chunk-overlap N] [--out FILE.jsonl]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/setup.sh" --core >&2
exec "$here/.venv/bin/ferrochunk" chunk "$@"
