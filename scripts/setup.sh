#!/usr/bin/env bash
# Creates .venv (if needed) and builds ferrochunk into it in release mode; the one place
# that installs anything.
# Usage: scripts/setup.sh [--test | --core] [--extra NAME]... [--if-needed]
#   default: ferrochunk and the `ferrochunk eval` dependencies (numpy, matplotlib, ...);
#   --test: those and the test dependencies; --core: ferrochunk alone (scripts/chunk.sh);
#   --extra NAME: one more extra of pyproject.toml (e.g. `arrow` for Parquet);
#   --if-needed: do nothing when the build is newer than every Rust source, Cargo.toml,
#   Cargo.lock and pyproject.toml and already has the extras asked for (chunk.sh, eval.sh).
# Leaves .venv/.ferrochunk-built behind, holding the extras it installed.
set -euo pipefail
cd "$(dirname "$0")/.."
export MATURIN_NO_INSTALL_RUST=1  # fail fast instead of downloading a toolchain
say() { echo "setup: $*" >&2; }
mode=eval; extra=(); if_needed=0
while [ $# -gt 0 ]; do
  case "$1" in
    --test) mode=test ;;
    --core) mode=core ;;
    --extra) extra+=("${2:?--extra needs a name}"); shift ;;
    --if-needed) if_needed=1 ;;
    *) say "unknown option $1 (--test, --core, --extra NAME, --if-needed)"; exit 2 ;;
  esac
  shift
done
case "$mode" in test) names=(test eval) ;; eval) names=(eval) ;; core) names=() ;; esac
names+=("${extra[@]+"${extra[@]}"}")
stamp=.venv/.ferrochunk-built
fresh() {  # the build exists, is newer than the sources, and has every extra asked for
  [ -x .venv/bin/ferrochunk ] && [ -f "$stamp" ] || return 1
  [ -z "$(find rust Cargo.toml Cargo.lock pyproject.toml -newer "$stamp" -print -quit)" ] ||
    return 1
  local have; have=" $(cat "$stamp") "
  for n in "${names[@]+"${names[@]}"}"; do [[ "$have" == *" $n "* ]] || return 1; done
}
if [ "$if_needed" = 1 ] && fresh; then exit 0; fi
command -v cargo >/dev/null || { say "cargo (Rust) is required"; exit 1; }
if [ ! -x .venv/bin/python ]; then
  say "creating .venv"
  python3 -m venv .venv
fi
# The extras installed before stay recorded: a --core run after --test keeps them.
[ -f "$stamp" ] && read -ra had < "$stamp" || had=()
extras=""
[ ${#names[@]} -gt 0 ] && extras="[$(IFS=,; echo "${names[*]}")]"
if ! .venv/bin/python -c "import maturin" 2>/dev/null; then
  say "installing maturin (the build tool)"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "maturin>=1.9.4,<2"
fi
say "building ferrochunk${extras} (release build of the Rust core: a few minutes the first time)"
pip_install() { .venv/bin/python -m pip install --quiet --disable-pip-version-check "$@"; }
# A line every 30 s while pip and cargo work quietly: what has been done so far, counted
# from the files they leave (crates compiled since the start, packages installed).
started=.venv/.setup-started
touch "$started"
(
  trap 'kill "$nap" 2>/dev/null; exit 0' TERM  # no sleep left holding stderr open
  while sleep 30 & nap=$!; wait "$nap"; do
    crates=$(find target -name '*.rlib' -newer "$started" 2>/dev/null | wc -l)
    packages=$(find .venv/lib -maxdepth 3 -name '*.dist-info' -newer "$started" 2>/dev/null |
      wc -l)
    say "… ${SECONDS} s: ${crates} crates compiled, ${packages} packages installed"
  done
) &
ticker=$!
trap 'kill "$ticker" 2>/dev/null || true' EXIT
# Editable install: maturin builds the extension (release profile, see pyproject.toml)
# into python/ferrochunk/, so tests and the CLI run the code in this checkout.
# The dependencies download while the Rust core compiles (two pip runs at once, into
# disjoint packages; the list is pyproject.toml's own): on a fresh machine each takes
# minutes, mostly waiting on the registry or on the compiler. The build uses the maturin
# installed above (no isolated build environment to download again). Python 3.10 has no
# tomllib to read the list: there one pip run does both, one after the other.
if .venv/bin/python -c "import tomllib" 2>/dev/null; then
  .venv/bin/python - "${extras}" > .venv/.ferrochunk-requirements.txt <<'PY'
import sys, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
extras = project["optional-dependencies"]
names = sys.argv[1].strip("[]").split(",") if sys.argv[1] else []
if unknown := [n for n in names if n not in extras]:
    sys.exit(f"setup: no extra {unknown[0]!r} in pyproject.toml (there are: {', '.join(extras)})")
print("\n".join(project["dependencies"] + [r for n in names for r in extras[n]]))
PY
  pip_install -r .venv/.ferrochunk-requirements.txt &
  deps=$!
  built=0
  pip_install --no-deps --no-build-isolation -e . || built=$?
  wait "$deps" || { say "installing the dependencies failed"; exit 1; }
  [ "$built" = 0 ] || { say "building ferrochunk failed"; exit "$built"; }
else
  pip_install -e ".${extras}"
fi
printf '%s\n' "$(printf '%s\n' "${had[@]+"${had[@]}"}" "${names[@]+"${names[@]}"}" |
  sort -u | tr '\n' ' ')" > "$stamp"
rm -f "$started"
say "done in ${SECONDS} s"
