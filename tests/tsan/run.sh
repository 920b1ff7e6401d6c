#!/usr/bin/env bash
# The C API probed by 4 threads at once under ThreadSanitizer (issue 12's acceptance): configures a
# ThreadSanitizer build of its own (FEERIE_TSAN=ON; only the prober's libraries, rules/ and probe/, and the
# test are built), generates KQvKR with an ordinary `feerie`, then runs tests/tsan/concurrent_probe_test.cpp on
# it. Fails on a wrong result or on any ThreadSanitizer report. The ctest test `tsan_concurrent_probe` (label `tsan`) of the
# ordinary build runs it; see docs/testing.md, "Sanitizers".
#
# Usage: tests/tsan/run.sh [BUILD_DIR] [--feerie PATH] [--build-only]
#   BUILD_DIR      the ThreadSanitizer build (default: build/tsan; kept, so later runs rebuild only what changed)
#   --build-only   configure and build it, run nothing (scripts/test.sh builds it so before the suite, which then
#                  times the test and not the compiler)
#   --feerie PATH  an ordinary (uninstrumented) feerie program, which generates KQvKR in a few seconds
#                  (default: build/tools/feerie)
# Environment: TSAN_JOBS (build jobs, default 2).
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
build=
feerie=
build_only=
while (($#)); do
  case $1 in
    --feerie) feerie=${2:?--feerie needs a path}; shift ;;
    --build-only) build_only=1 ;;
    -*) echo "usage: tests/tsan/run.sh [BUILD_DIR] [--feerie PATH] [--build-only]" >&2; exit 2 ;;
    *) build=$1 ;;
  esac
  shift
done
build="${build:-$src/build/tsan}"
feerie="${feerie:-$src/build/tools/feerie}"
[ -x "$feerie" ] || { echo "tsan: no feerie program at $feerie: build first, or give --feerie PATH" >&2; exit 2; }
mkdir -p "$build"
build="$(cd "$build" && pwd)"

# One configure and build at a time in a build directory (two ctest runs started together).
exec 9>"$build/.tsan.lock"
flock 9
if [ ! -f "$build/CMakeCache.txt" ]; then
  # -O1 -g: ThreadSanitizer reports with file and line, and a build a good deal cheaper than -O3. The
  # ordinary build's -march=native stays, so the code tested is the code it runs. The Python module would
  # be instrumented too and could not be loaded by an ordinary interpreter; the GoogleTest suites are not
  # needed.
  cmake -S "$src" -B "$build" -DFEERIE_TSAN=ON -DFEERIE_BUILD_TESTS=OFF -DFEERIE_PYTHON=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" > "$build/configure.log"
fi
cmake --build "$build" -j"${TSAN_JOBS:-2}" --target concurrent_probe_test > "$build/build.log" ||
  { tail -50 "$build/build.log" >&2; exit 1; }
flock -u 9
[ -z "$build_only" ] || exit 0

# halt_on_error: the first report ends the run with exit status 66, whatever the test says.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 history_size=4 ${TSAN_OPTIONS:-}"
work="$(mktemp -d "${TMPDIR:-/tmp}/feerie-tsan.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log="$work/log"
# Not under ThreadSanitizer: the generator's OpenMP teams would give false reports (libgomp is not built with
# it, so its barriers are invisible to it), and the test is about probing.
"$feerie" gen --tables "$work/tables" KQvKR > "$log" 2>&1 || { cat "$log" >&2; exit 1; }
status=0
"$build/tests/tsan/concurrent_probe_test" "$work/tables" > "$log" 2>&1 || status=$?
cat "$log"
if grep -q "ThreadSanitizer" "$log"; then
  echo "tsan: ThreadSanitizer reported (exit status $status)" >&2
  exit 1
fi
[ "$status" = 0 ] || { echo "tsan: the test failed (exit status $status)" >&2; exit 1; }
echo "tsan: no report"
