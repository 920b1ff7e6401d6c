#!/usr/bin/env bash
# Byte-identity of tables spread over MPI processes (docs/scale.md): generates MATERIALs
# (and their dependencies) under CONDITION in one process, then with
# `mpirun --oversubscribe -np P feerie gen --mpi` for each P of $RANKS (default 1 2 3 4),
# and compares the SHA-256 of every table file. With EXCHANGE_LIMIT set, the MPI runs
# exchange their updates in rounds of at most that many (the bounded-buffer path). With REFERENCE set
# (a directory of tables generated in one process already), that stands for the one-process run.
#
#   tests/mpi/identity.sh FEERIE WORKDIR CONDITION MATERIAL...   (MPIRUN: the launcher, default mpirun)
set -euo pipefail
feerie=$1 work=$2 condition=$3
shift 3
ranks=${RANKS:-1 2 3 4}
source "$(dirname "$0")/common.sh"
# The machine's cores shared among the processes (tables do not depend on threads).
cores=$(nproc)
digest() { (cd "$1/$condition" && sha256sum -- *.ftb); }
if [ -n "${REFERENCE:-}" ]; then
  # The one-process tables made already (a ctest fixture shared with other tests).
  [ -d "$REFERENCE/$condition" ] || { echo "FAIL: no reference tables in $REFERENCE/$condition"; exit 1; }
  mkdir -p "$work"
  digest "$REFERENCE" > "$work/single.sha"
else
  "$feerie" gen --threads "$cores" --no-checkpoint --condition "$condition" --tables "$work/single" "$@" > /dev/null
  digest "$work/single" > "$work/single.sha"
fi
tables=$(wc -l < "$work/single.sha")
status=0
for p in $ranks; do
  extra=()
  [ -n "${EXCHANGE_LIMIT:-}" ] && extra=(--exchange-limit "$EXCHANGE_LIMIT")
  threads=$((cores / p)); [ "$threads" -ge 1 ] || threads=1
  # --bind-to none: Open MPI would bind each process to one core, its threads with it.
  "$mpirun" --oversubscribe --bind-to none -np "$p" "$feerie" gen --mpi --threads "$threads" --no-checkpoint "${extra[@]}" \
    --condition "$condition" --tables "$work/mpi-$p" "$@" > "$work/mpi-$p.log" 2>&1 || {
    echo "FAIL: mpirun -np $p exited $?"; cat "$work/mpi-$p.log"; status=1; continue; }
  digest "$work/mpi-$p" > "$work/mpi-$p.sha"
  if cmp -s "$work/single.sha" "$work/mpi-$p.sha"; then
    echo "same: $condition $* with $p processes ($tables tables)"
  else
    echo "DIFFER: $condition $* with $p processes"; diff "$work/single.sha" "$work/mpi-$p.sha" || true; status=1
  fi
  # Nothing left behind: no temporary files, no checkpoints.
  if leftovers=$(find "$work/mpi-$p" -name "*.tmp.*" -o -name "*.ckpt" | grep .); then
    echo "FAIL: left behind: $leftovers"; status=1
  fi
done
rm -rf "$work"
exit $status
