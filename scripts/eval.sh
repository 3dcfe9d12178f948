#!/usr/bin/env bash
# Scores chunkers by retrieval (default: the bundled sample, synthetic questions).
# Usage: scripts/eval.sh [--data PATH] [--chunkers ...] [--sizes ...] [--out DIR]  (see --help)
# Sets up (the `eval` extra) only when the build is missing or older than the sources.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/setup.sh" --if-needed >&2
exec "$here/.venv/bin/ferrochunk" eval "$@"
