#!/usr/bin/env bash
# `feerie verify --mpi` (docs/scale.md): with 3 processes it checks every entry of both
# sides once (the count adds up to what one process checks) and finds no inconsistency
# in a sound table; given a wrong sub-table file it fails with the corruption exit code (4).
# Given several tables it goes on past one it cannot verify, as one process does, says so
# once, and exits with that failure's code (it stopped at the first under --mpi).
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
status=0
"$mpirun" --oversubscribe -np 3 "$feerie" verify --mpi --threads 1 --tables "$work" KBvKN KRvK > "$work/two.log" 2>&1 ||
  status=$?
cat "$work/two.log"
[ "$status" -eq 3 ] || { echo "FAIL: a missing table then a sound one: exit status $status, expected 3"; exit 1; }
grep -q "KRvK: 59136 entries checked, 0 inconsistent" "$work/two.log" ||
  { echo "FAIL: the table after the missing one was not verified"; exit 1; }
said=$(grep -c "1 of 2 tables could not be verified" "$work/two.log" || true)
[ "$said" -eq 1 ] || { echo "FAIL: the failure was said $said times, expected once"; exit 1; }
rm -rf "$work"
echo "ok"
