#!/usr/bin/env bash
# The Ray Data and Dask cluster tests (pytest marker `engines`), run inside a network
# namespace with loopback alone up: Ray's head contacts outside addresses at start-up, and
# nothing here may send traffic anywhere but loopback. Needs root (unshare -n).
# Usage: scripts/test-engines.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
  echo "test-engines: needs root for 'unshare -n' (a private network namespace)" >&2
  exit 1
fi
export RAY_USAGE_STATS_ENABLED=0
exec unshare -n sh -c 'ip link set lo up && exec .venv/bin/python -m pytest -m engines "$@"' \
  sh tests/test_engines.py "$@"
