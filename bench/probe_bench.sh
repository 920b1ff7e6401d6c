#!/usr/bin/env bash
# Probing speed on random legal KQvKR positions from C++, C and Python, each cached and cold (a
# benchmark run by hand, not a test; the figures go to docs/benchmarks.md). Generates KQvKR with the
# build's `feerie` into a scratch directory, draws the positions once (bench/probe_bench.py), builds
# the programs of bench/CMakeLists.txt in the build (bench/probe_bench.cpp over the internal
# probe/tablebase.h and over feerie/feerie.hpp with libfeerie, bench/probe_bench.c over the C API),
# runs each, prints a table.
#
#   cached: one tablebase that has probed every position once, then CACHED_PROBES probes cycling
#           through them (every block of KQvKR is then decompressed and in the prober's cache);
#           then the same from 2 threads at once on that one object (C and C++; the ratio to one
#           thread in parentheses); medians of 5 runs of each, alternated.
#   cold:   a fresh tablebase object, its table not yet opened by it: the first-probe latency (from
#           opening the tablebase to the end of its first probe: the header read and checked, one
#           block decompressed) and the probes per second of a pass over the positions that starts
#           with the fresh object. Median of 7 fresh objects. The OS page cache is not dropped: the
#           file is in memory, so "cold" is the process's cold, not the disk's.
#
# Usage: bench/probe_bench.sh [BUILD_DIR]   (default: build; needs its feerie, libfeerie, static
#                                           libraries and Python module: scripts/setup.sh builds them)
# Environment: POSITIONS (default 10000), CACHED_PROBES (default 10000000; Python does a tenth),
#              SEED (default 1).
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$src/build}" && pwd)"
positions=${POSITIONS:-10000}
cached=${CACHED_PROBES:-10000000}
seed=${SEED:-1}

for f in tools/feerie lib/libfeerie.so; do
  [ -e "$build/$f" ] || { echo "probe_bench: $build/$f missing: build first (scripts/setup.sh)" >&2; exit 1; }
done
ls "$build"/python/feerie*.so > /dev/null 2>&1 ||
  { echo "probe_bench: the Python module is missing in $build/python" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/feerie-probe-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$build/tools/feerie" gen --tables "$work/tables" KQvKR > /dev/null
export PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}"
python3 "$src/bench/probe_bench.py" positions "$work/tables" "$positions" "$seed" > "$work/positions.txt"

# The programs (bench/CMakeLists.txt), built as the build builds everything else.
cmake --build "$build" --target probe_bench > /dev/null
for p in cpp parse hpp c; do cp "$build/bench/probe_bench_$p" "$work/bench_$p"; done

group() { sed ':a; s/\B[0-9]\{3\}\>/,&/; ta' <<< "$1"; }  # 1234567 -> 1,234,567
row() {  # row LABEL COMMAND...: runs the benchmark, prints its row
  local label=$1 out
  shift
  out="$(nice "$@" 2> "$work/stderr")" || { cat "$work/stderr" >&2; exit 1; }
  # Every program probes the same positions: the same sum of their dtm_plies.
  checksums+=("$(awk '$1 == "checksum" {print $2}' <<< "$out")")
  local cached threads2
  cached=$(awk '$1 == "cached" {print $2}' <<< "$out")
  threads2=$(awk '$1 == "threads2" {print $2}' <<< "$out")
  local two="—"
  [ -n "$threads2" ] && two="$(group "$threads2") ($(awk -v a="$threads2" -v b="$cached" 'BEGIN {printf "%.2f", a / b}')×)"
  printf '| %s | %s | %s | %s | %s |\n' "$label" "$(group "$cached")" "$two" \
    "$(group "$(awk '$1 == "cold" {print $3}' <<< "$out")")" "$(group "$(awk '$1 == "cold" {print $2}' <<< "$out")")"
}
checksums=()

echo "KQvKR, $positions random legal positions (seed $seed); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
     "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs"
echo
echo "| API | cached, probes/s | cached, 2 threads on one object, probes/s | cold, probes/s (fresh object, one pass) | cold, first probe (µs) |"
echo "| --- | ---: | ---: | ---: | ---: |"
args=("$work/tables" "$work/positions.txt" "$cached")
row "C++ \`probe/tablebase.h\`, \`Tablebase::probe(Position)\`" "$work/bench_cpp" "${args[@]}"
row "C++ \`probe/tablebase.h\`, \`parse_fen\` + \`probe\`" "$work/bench_parse" "${args[@]}"
row "C++ \`feerie/feerie.hpp\`, \`probe(fen)\` (libfeerie)" "$work/bench_hpp" "${args[@]}"
row "C \`feerie/feerie.h\`, \`feerie_probe(fen)\` (libfeerie)" "$work/bench_c" "${args[@]}"
row "Python \`feerie\`, \`probe_dtm(fen)\`" python3 "$src/bench/probe_bench.py" bench "$work/tables" \
  "$work/positions.txt" "$((cached / 10))"
echo
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$(printf '%s\n' "${checksums[@]}" | sort -u | wc -l)" != 1 ]; then
  echo "probe_bench: the APIs disagree on the positions' values (checksums ${checksums[*]})" >&2
  exit 1
fi
