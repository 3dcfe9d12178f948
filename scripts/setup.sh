#!/usr/bin/env bash
# Creates .venv (if needed) and builds ferrochunk into it in release mode.
# Usage: scripts/setup.sh [--test]   (--test also installs the test dependencies)
set -euo pipefail
cd "$(dirname "$0")/.."
export MATURIN_NO_INSTALL_RUST=1  # fail fast instead of downloading a toolchain
command -v cargo >/dev/null || { echo "setup: cargo (Rust) is required" >&2; exit 1; }
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
extras=""
[ "${1:-}" = "--test" ] && extras="[test]"
.venv/bin/python -m pip install --quiet --disable-pip-version-check "maturin>=1.9.4,<2"
# Editable install: maturin builds the extension (release profile, see pyproject.toml)
# into python/ferrochunk/, so tests and the CLI run the code in this checkout.
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras}"
