#!/usr/bin/env bash
# The whole test suite: Rust unit/property tests, then pytest (tests/ and a single smoke run
# of every benchmark in benches/). Sets up .venv with the test dependencies first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
cargo test --quiet --features huggingface,arrow  # arrow: rust/arrow/ has unit tests too
.venv/bin/python -m pytest "$@"
