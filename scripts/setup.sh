#!/usr/bin/env bash
# Creates .venv (if needed) and builds ferrochunk into it in release mode.
# Usage: scripts/setup.sh [--test | --core]
#   default: ferrochunk and the `ferrochunk eval` dependencies (numpy, matplotlib, ...);
#   --test: those and the test dependencies; --core: ferrochunk alone (scripts/chunk.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export MATURIN_NO_INSTALL_RUST=1  # fail fast instead of downloading a toolchain
command -v cargo >/dev/null || { echo "setup: cargo (Rust) is required" >&2; exit 1; }
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
extras="[eval]"
[ "${1:-}" = "--test" ] && extras="[test,eval]"
[ "${1:-}" = "--core" ] && extras=""
.venv/bin/python -m pip install --quiet --disable-pip-version-check "maturin>=1.9.4,<2"
# Editable install: maturin builds the extension (release profile, see pyproject.toml)
# into python/ferrochunk/, so tests and the CLI run the code in this checkout.
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras}"
