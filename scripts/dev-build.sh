#!/usr/bin/env bash
# Rebuilds the extension into .venv quickly (profile `fast`: no fat LTO) while iterating.
# Benchmarks need the release build: scripts/setup.sh (or pip install -e .).
set -euo pipefail
cd "$(dirname "$0")/.."
export MATURIN_NO_INSTALL_RUST=1 VIRTUAL_ENV="$PWD/.venv"
[ -x .venv/bin/python ] || scripts/setup.sh --test
.venv/bin/maturin develop --quiet --profile fast --features python "$@"
