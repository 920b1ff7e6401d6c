#!/usr/bin/env bash
# `feerie gen --mpi` on a full disk (an exploratory test's find): Open MPI 4.1 reports
# success from a write the disk had no room for, and gen said "generated" with exit 0 over a
# table with holes. Now the job fails with the I/O exit code (5) and leaves no table file,
# with 1 and 3 processes. The disk is a 1200 KiB tmpfs, which KQvKR's 1.7 MB file outgrows;
# without the right to mount one (a container without CAP_SYS_ADMIN) the test is skipped
# (exit 77).
#
#   tests/mpi/full_disk.sh FEERIE WORKDIR   (MPIRUN: the launcher, default mpirun)
set -euo pipefail
feerie=$1 work=$2
source "$(dirname "$0")/common.sh"
"$feerie" gen --no-checkpoint --tables "$work/ref" KQvK KRvK > /dev/null
mkdir -p "$work/small"
if ! mount -t tmpfs -o size=1200k tmpfs "$work/small" 2> /dev/null; then
  echo "skipped: cannot mount a tmpfs here"
  rm -rf "$work"
  exit 77
fi
trap 'umount "$work/small" 2> /dev/null || true' EXIT
for ranks in 1 3; do
  rm -rf "$work/small/orthodox"
  mkdir -p "$work/small/orthodox"
  cp "$work/ref/orthodox/"{KvK,KQvK,KRvK}.ftb "$work/small/orthodox/"
  status=0
  timeout 300 "$mpirun" --oversubscribe -np "$ranks" "$feerie" gen --mpi --threads 1 --no-checkpoint \
    --tables "$work/small" KQvKR > "$work/gen.log" 2>&1 || status=$?
  grep -v "pwritev\|ORTE_ERROR_LOG" "$work/gen.log" || true
  [ "$status" -eq 5 ] || { echo "FAIL: $ranks processes: exit status $status, expected 5"; exit 1; }
  if ls "$work/small/orthodox/" | grep -q "KQvKR.ftb"; then
    echo "FAIL: $ranks processes left a KQvKR file:"
    ls -la "$work/small/orthodox/"
    exit 1
  fi
done
umount "$work/small"
trap - EXIT
rm -rf "$work"
echo "ok"
