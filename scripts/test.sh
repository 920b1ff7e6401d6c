#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then runs the default test suite. The slow suites
# are run with: ctest --test-dir build -L slow
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The ThreadSanitizer build that the test tsan_concurrent_probe runs (tests/tsan/run.sh), built
# here with the rest when the compiler links ThreadSanitizer programs (the test is then
# registered): the suite then times tests, not a compiler. The test builds it itself when run
# alone.
if ctest --test-dir build -N -R '^tsan_concurrent_probe$' | grep -q '^Total Tests: 1'; then
  tests/tsan/run.sh build/tsan --build-only
fi
ctest --test-dir build -LE slow --output-on-failure -j"$(nproc)"
