#!/usr/bin/env bash
# `feerie verify --mpi` (docs/scale.md): with 3 processes it checks every entry of both
# sides once (the count adds up to what one process checks) and finds no inconsistency
# in a sound table; given a wrong sub-table file it fails with the corruption exit code (4).
#
#   tests/mpi/verify.sh FEERIE WORKDIR   (MPIRUN: the launcher, default mpirun)
set -euo pipefail
feerie=$1 work=$2
source "$(dirname "$0")/common.sh"
"$feerie" gen --no-checkpoint --tables "$work" KQvKR > /dev/null
single=$("$feerie" verify --tables "$work" KQvKR)
spread=$("$mpirun" --oversubscribe -np 3 "$feerie" verify --mpi --threads 1 --tables "$work" KQvKR)
echo "one process: $single"
echo "3 processes: $spread"
[ "$single" = "$spread" ] || { echo "FAIL: the reports differ"; exit 1; }
grep -q "KQvKR: 3784704 entries checked, 0 inconsistent" <<< "$spread" || { echo "FAIL: unexpected report"; exit 1; }
# A file of another material under KQvK's name is refused as corrupt by every process.
"$feerie" gen --no-checkpoint --tables "$work/other" KBvK > /dev/null
cp "$work/other/orthodox/KBvK.ftb" "$work/orthodox/KQvK.ftb"
status=0
"$mpirun" --oversubscribe -np 3 "$feerie" verify --mpi --threads 1 --tables "$work" KQvKR > "$work/bad.log" 2>&1 || status=$?
cat "$work/bad.log"
[ "$status" -eq 4 ] || { echo "FAIL: exit status $status, expected 4"; exit 1; }
rm -rf "$work"
echo "ok"
