#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then runs the default test suite. The slow suites
# are run with: ctest --test-dir build -L slow
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build -LE slow --output-on-failure -j"$(nproc)"
