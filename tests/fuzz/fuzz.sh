#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang, ASan and UBSan in build-fuzz (only what is missing), prepares
# their seed corpora in a scratch directory and runs each: `short` is a bounded run (ctest `fuzz_short`, label `slow`),
# `long` runs 10^6 inputs per target (ctest label `slow`). Exits non-zero on any crash, leak, sanitizer report,
# timeout or allocation beyond the bound; the last line is "fuzz: N passed, M failed". See docs/testing.md, "Fuzzing".
#
# Usage: tests/fuzz/fuzz.sh [short|long] [--feerie PATH]
#   --feerie PATH  a built feerie program, to generate the seed tables (default: build/tools/feerie, else one is
#                  built in build-fuzz)
# Environment: FUZZ_CC/FUZZ_CXX (default clang-14/clang++-14, else clang/clang++), FUZZ_BUILD_DIR (default
# build-fuzz), FUZZ_JOBS (build jobs, default 2), FUZZ_TARGETS (a space-separated subset of the targets to run,
# default all).
set -euo pipefail
cd "$(dirname "$0")/../.."

mode=short
feerie=
while (($#)); do
  case $1 in
    short | long) mode=$1 ;;
    --feerie) feerie=${2:?--feerie needs a path}; shift ;;
    *) echo "usage: tests/fuzz/fuzz.sh [short|long] [--feerie PATH]" >&2; exit 2 ;;
  esac
  shift
done

all_targets=(fuzz_table_reader fuzz_parsers fuzz_checkpoint_reader fuzz_serve_requests)
read -r -a targets <<<"${FUZZ_TARGETS:-${all_targets[*]}}"
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "fuzz: unknown target $t (known: ${all_targets[*]})" >&2; exit 2; }
done
# short: bounded in time so the default suite stays quick on 2 cores (and in inputs on a fast machine); long: the
# acceptance run of 10^6 inputs per target, without a time bound.
if [ "$mode" = short ]; then
  limits=(-runs=200000 -max_total_time=20)
else
  limits=(-runs=1000000 -max_total_time=0)
fi
# Bounds that turn runaway resource use into a failure: no single allocation above 256 MB (a bounded reader needs a
# few MB: blocks of 32768 entries, a header the size of the file), at most 2 GB resident (ASan's shadow memory and
# quarantine included), at most 10 s for one input.
bounds=(-malloc_limit_mb=256 -rss_limit_mb=2048 -timeout=10)

pick() {  # the first of the given programs that exists
  for p in "$@"; do
    if command -v "$p" >/dev/null 2>&1; then echo "$p"; return; fi
  done
  return 1
}
cc=${FUZZ_CC:-$(pick clang-14 clang || true)}
cxx=${FUZZ_CXX:-$(pick clang++-14 clang++ || true)}
if [ -z "$cc" ] || [ -z "$cxx" ]; then
  echo "fuzz: clang not found (scripts/setup.sh installs clang-14 and libclang-rt-14-dev)" >&2
  echo "fuzz: 0 passed, ${#targets[@]} failed"
  exit 1
fi

build=${FUZZ_BUILD_DIR:-build-fuzz}
mkdir -p "$build"
build=$(cd "$build" && pwd)
# A short and a long run started together (plain `ctest`) share the build: one configures and builds at a time.
exec 9>"$build/.fuzz.lock"
flock 9
if [ ! -f "$build/CMakeCache.txt" ]; then
  # -O1 -g without NDEBUG: fast enough to fuzz, symbolised reports, and the code's own assertions stay on.
  CC=$cc CXX=$cxx cmake -S . -B "$build" -DFEERIE_FUZZ=ON -DFEERIE_NATIVE=OFF -DFEERIE_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" >/dev/null
fi
cmake --build "$build" -j"${FUZZ_JOBS:-2}" --target "${targets[@]}" >/dev/null
if [ -z "$feerie" ]; then
  if [ -x build/tools/feerie ]; then
    feerie=build/tools/feerie
  else
    echo "fuzz: no feerie given and none in build/: building one in $build to generate the seed tables" >&2
    cmake --build "$build" -j"${FUZZ_JOBS:-2}" --target feerie >/dev/null
    feerie=$build/tools/feerie
  fi
fi
flock -u 9

run=$(mktemp -d "$build/run-$mode.XXXXXX")
for t in "${all_targets[@]}"; do mkdir -p "$run/corpus/$t" "$run/seeds/$t"; done
mkdir -p "$run/artifacts" "$run/tmp"
# The targets' own scratch files (fuzz_table_reader's table directory) go here too: a crashing target cannot remove
# them, and this directory is removed after a clean run or kept with the failure.
export TMPDIR=$run/tmp

# Seeds for the table reader: real tables, generated now rather than committed (KQvK is 18 KB). KQvK is the table
# the target reads; KvK and the Madrasi RI KQvK are sound files that open_table() must refuse (other material,
# other condition).
"$feerie" gen --tables "$run/tables" --threads 1 KQvK >/dev/null
"$feerie" gen --tables "$run/tables" --threads 1 --condition madrasi-ri KQvK >/dev/null
cp "$run/tables/orthodox/KQvK.ftb" "$run/seeds/fuzz_table_reader/orthodox-KQvK.ftb"
cp "$run/tables/orthodox/KvK.ftb" "$run/seeds/fuzz_table_reader/orthodox-KvK.ftb"
cp "$run/tables/madrasi-ri/KQvK.ftb" "$run/seeds/fuzz_table_reader/madrasi-ri-KQvK.ftb"
cp tests/fuzz/corpus/parsers/* "$run/seeds/fuzz_parsers/"
cp tests/fuzz/corpus/serve_requests/* "$run/seeds/fuzz_serve_requests/"

# Symbolised stacks in reports (llvm-symbolizer of the clang in use).
llvm_bin=$(dirname "$(readlink -f "$(command -v "$cxx")")")
[ -x "$llvm_bin/llvm-symbolizer" ] && export PATH="$llvm_bin:$PATH"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

passed=0
failed=0
for t in "${targets[@]}"; do
  options=("${limits[@]}" "${bounds[@]}" -print_final_stats=1 -artifact_prefix="$run/artifacts/$t-"
           -dict="tests/fuzz/${t#fuzz_}.dict")
  [ "$t" = fuzz_parsers ] || [ "$t" = fuzz_serve_requests ] && options+=(-max_len=256)
  log=$run/$t.log
  start=$SECONDS
  status=0
  "$build/tests/fuzz/$t" "${options[@]}" "$run/corpus/$t" "$run/seeds/$t" >"$log" 2>&1 || status=$?
  # Inputs that once failed (tests/fuzz/crashes/<target>-*) are run again: each stays a regression test.
  regressions=(tests/fuzz/crashes/"$t"-*)
  [ -e "${regressions[0]}" ] || regressions=()
  if ((${#regressions[@]})); then
    "$build/tests/fuzz/$t" "${bounds[@]}" -artifact_prefix="$run/artifacts/$t-regression-" "${regressions[@]}" \
      >>"$log" 2>&1 || status=$?
  fi
  executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | head -n 1)
  corpus=$(find "$run/corpus/$t" "$run/seeds/$t" -type f | wc -l)
  # A report without a non-zero exit would be a sanitizer left in recover mode: count it all the same.
  if [ "$status" -eq 0 ] && grep -Eq 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error:' "$log"; then
    status=1
  fi
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    echo "fuzz: $t: ${executed:-?} inputs executed, corpus ${corpus} files, ${#regressions[@]} past failures" \
         "replayed, no crash ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    echo "fuzz: $t: FAILED (exit $status) after ${executed:-?} inputs; log $log, failing inputs $run/artifacts/"
    report='^==[0-9]+==ERROR|runtime error:|^fuzz_parsers:|ERROR: libFuzzer'
    if grep -Eq "$report" "$log"; then grep -E -A40 "$report" "$log" | head -n 80 || true; else tail -n 40 "$log"; fi
  fi
done

# The scratch directory stays for inspection when something failed.
[ "$failed" -eq 0 ] && rm -rf "$run"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
