#!/usr/bin/env bash
# The project's test command: install what the tests need, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cargo test --workspace 2>&1
