#!/usr/bin/env bash
# Creates .venv (if needed) and builds ferrochunk into it in release mode; the one place
# that installs anything.
# Usage: scripts/setup.sh [--test | --core]
#   default: ferrochunk and the `ferrochunk eval` dependencies (numpy, matplotlib, ...);
#   --test: those and the test dependencies; --core: ferrochunk alone (scripts/chunk.sh).
# Leaves .venv/.ferrochunk-built behind: scripts/chunk.sh rebuilds only when a Rust source,
# Cargo.toml, Cargo.lock or pyproject.toml is newer than it.
set -euo pipefail
cd "$(dirname "$0")/.."
export MATURIN_NO_INSTALL_RUST=1  # fail fast instead of downloading a toolchain
say() { echo "setup: $*" >&2; }
command -v cargo >/dev/null || { say "cargo (Rust) is required"; exit 1; }
if [ ! -x .venv/bin/python ]; then
  say "creating .venv"
  python3 -m venv .venv
fi
extras="[eval]"
[ "${1:-}" = "--test" ] && extras="[test,eval]"
[ "${1:-}" = "--core" ] && extras=""
if ! .venv/bin/python -c "import maturin" 2>/dev/null; then
  say "installing maturin (the build tool)"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "maturin>=1.9.4,<2"
fi
say "building ferrochunk${extras} (release build of the Rust core: a few minutes the first time)"
pip_install() { .venv/bin/python -m pip install --quiet --disable-pip-version-check "$@"; }
# Editable install: maturin builds the extension (release profile, see pyproject.toml)
# into python/ferrochunk/, so tests and the CLI run the code in this checkout.
# The dependencies download while the Rust core compiles (two pip runs at once, into
# disjoint packages; the list is pyproject.toml's own): on a fresh machine each takes
# minutes, mostly waiting on the registry or on the compiler. The build uses the maturin
# installed above (no isolated build environment to download again). Python 3.10 has no
# tomllib to read the list: there one pip run does both, one after the other.
if .venv/bin/python - "${extras}" > .venv/.ferrochunk-requirements.txt <<'PY'
import sys, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
extras = project["optional-dependencies"]
names = sys.argv[1].strip("[]").split(",") if sys.argv[1] else []
print("\n".join(project["dependencies"] + [r for n in names for r in extras[n]]))
PY
then
  pip_install -r .venv/.ferrochunk-requirements.txt &
  deps=$!
  built=0
  pip_install --no-deps --no-build-isolation -e . || built=$?
  wait "$deps" || { say "installing the dependencies failed"; exit 1; }
  [ "$built" = 0 ] || { say "building ferrochunk failed"; exit "$built"; }
else
  pip_install -e ".${extras}"
fi
touch .venv/.ferrochunk-built
say "done"
