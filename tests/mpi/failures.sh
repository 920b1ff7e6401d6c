#!/usr/bin/env bash
# How `feerie gen --mpi` fails (exploratory tests' finds):
#  1. A failure every process meets alike (here the plan refused by every process's memory
#     limit) is said once, by process 0, with the job's exit code; it was said once per
#     process, the lines interleaved, and process 0 added "interrupted".
#     A plan (gen --plan --mpi) started by mpirun is printed once too, and so is an error
#     in the arguments (a usage error, an unknown condition or material).
#  2. A plan for 2 processes on one machine, made in one process, counts what MPI's runtime
#     adds to each: the job accepts the limit the plan accepts. The plan counted some 7 MiB
#     per process less than the job, which refused what it had planned.
#  3. A process that does not see the tables directory as process 0 does (here process 0
#     sees another directory mounted over it, without KRvK) fails the job cleanly with exit 5
#     and a message, before it solves anything (it was found when the first table was
#     written, after the whole solve); the processes used to wait for ever in MPI-IO's
#     collective open. A process with a read-only view of the directory fails the job
#     before it solves too, its message saying so. Needs `unshare -m` and mount (root
#     with CAP_SYS_ADMIN); skipped otherwise (exit 77).
#
#   tests/mpi/failures.sh FEERIE WORKDIR   (MPIRUN: the launcher, default mpirun)
set -euo pipefail
feerie=$1 work=$2
source "$(dirname "$0")/common.sh"

status=0
timeout 300 "$mpirun" --oversubscribe -np 3 "$feerie" gen --mpi --threads 1 --max-memory 1M \
  --tables "$work/refused" KQvK > "$work/refused.log" 2>&1 || status=$?
cat "$work/refused.log"
[ "$status" -eq 7 ] || { echo "FAIL: a refused plan: exit status $status, expected 7"; exit 1; }
said=$(grep -c "feerie: cannot generate" "$work/refused.log" || true)
[ "$said" -eq 1 ] || { echo "FAIL: the refusal was said $said times, expected once"; exit 1; }
if grep -q "interrupted\|process [0-9] of 3" "$work/refused.log"; then
  echo "FAIL: a refusal said by a process, or taken for an interruption"; exit 1
fi
# A plan under mpirun is printed once, by process 0 (it was printed by every process).
"$mpirun" --oversubscribe -np 3 "$feerie" gen --plan --mpi --ranks 3 --tables "$work/refused" KQvK \
  > "$work/plan.log" 2>&1
plans=$(grep -c "peak memory per process" "$work/plan.log" || true)
[ "$plans" -eq 1 ] || { cat "$work/plan.log"; echo "FAIL: the plan was printed $plans times"; exit 1; }

# gen and verify started as several processes without --mpi are refused once, by process 0
# (each process ran the whole job alone, over the same files, each printing its lines).
for command in gen verify; do
  status=0
  timeout 300 "$mpirun" --oversubscribe -np 2 "$feerie" "$command" --threads 1 --tables "$work/refused" KQvK \
    > "$work/alone.log" 2>&1 || status=$?
  said=$(grep -c "without --mpi" "$work/alone.log" || true)
  [ "$status" -eq 2 ] && [ "$said" -eq 1 ] ||
    { cat "$work/alone.log"; echo "FAIL: $command under mpirun without --mpi: exit $status, said $said times"; exit 1; }
done
# A usage error is said once, by process 0 (every process said it).
status=0
"$mpirun" --oversubscribe -np 2 "$feerie" gen --mpi --no-such-option KQvK > "$work/usage.log" 2>&1 || status=$?
said=$(grep -c "no-such-option" "$work/usage.log" || true)
[ "$status" -eq 2 ] && [ "$said" -eq 1 ] ||
  { cat "$work/usage.log"; echo "FAIL: a usage error under mpirun: exit $status, said $said times"; exit 1; }

# So is an error in the arguments found after they are parsed (each process said it).
for arguments in "gen --plan --mpi KQvK" "gen --mpi --condition no-such-condition KQvK" "verify --mpi KQvKX"; do
  status=0
  # shellcheck disable=SC2086 # the words of the command line
  "$mpirun" --oversubscribe -np 2 "$feerie" $arguments > "$work/usage.log" 2>&1 || status=$?
  said=$(grep -c "^feerie: " "$work/usage.log" || true)
  [ "$status" -eq 2 ] && [ "$said" -eq 1 ] ||
    { cat "$work/usage.log"; echo "FAIL: feerie $arguments under mpirun: exit $status, said $said times"; exit 1; }
done

# The plan's need for the node, rounded up to a MiB, with 2 MiB to spare for what differs
# between the planning process and the job's (their environments).
node=$("$feerie" gen --plan --json --mpi --ranks 2 --ranks-per-node 2 --tables "$work/limit" KQvK |
  sed -n 's/^  "node_peak_bytes": \([0-9]*\),$/\1/p')
[ -n "$node" ] || { echo "FAIL: no node_peak_bytes in the plan"; exit 1; }
limit=$((node / 1048576 + 3))M
status=0
timeout 300 "$mpirun" --oversubscribe -np 2 "$feerie" gen --mpi --threads 1 --no-checkpoint --max-memory "$limit" \
  --tables "$work/limit" KQvK > "$work/limit.log" 2>&1 || status=$?
[ "$status" -eq 0 ] ||
  { cat "$work/limit.log"; echo "FAIL: the plan accepted --max-memory $limit for 2 processes, the job did not"; exit 1; }

if ! unshare -m true 2> /dev/null; then
  echo "skipped the second part: no unshare -m here"
  rm -rf "$work"
  exit 77
fi
"$feerie" gen --no-checkpoint --tables "$work/tables" KQvK > /dev/null
mkdir -p "$work/view"
cp "$work/tables/orthodox/"{KvK,KQvK}.ftb "$work/view/"
# Process 0 runs in a mount namespace of its own where tables/orthodox is the view above.
cat > "$work/wrap.sh" << WRAP
#!/bin/sh
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then
  exec unshare -m sh -c 'mount --bind "$work/view" "$work/tables/orthodox" && exec "\$0" "\$@"' "\$@"
fi
exec "\$@"
WRAP
chmod +x "$work/wrap.sh"
status=0
timeout 300 "$mpirun" --oversubscribe -np 2 "$work/wrap.sh" "$feerie" gen --mpi --threads 1 --no-checkpoint \
  --tables "$work/tables" KRvK > "$work/views.log" 2>&1 || status=$?
cat "$work/views.log"
[ "$status" -ne 124 ] || { echo "FAIL: the processes waited on each other until timeout"; exit 1; }
[ "$status" -eq 5 ] || { echo "FAIL: processes with two views: exit status $status, expected 5"; exit 1; }
grep -q "every process must see the same tables directory" "$work/views.log" ||
  { echo "FAIL: the message does not say why"; exit 1; }
! grep -q "generating" "$work/views.log" || { echo "FAIL: two views found only after solving"; exit 1; }

# Process 1 sees the directory read-only.
cat > "$work/wrap.sh" << WRAP
#!/bin/sh
if [ "\$OMPI_COMM_WORLD_RANK" = 1 ]; then
  exec unshare -m sh -c 'mount --bind "$work/tables/orthodox" "$work/tables/orthodox" &&
    mount -o remount,ro,bind "$work/tables/orthodox" && exec "\$0" "\$@"' "\$@"
fi
exec "\$@"
WRAP
status=0
timeout 300 "$mpirun" --oversubscribe -np 2 "$work/wrap.sh" "$feerie" gen --mpi --threads 1 --no-checkpoint \
  --tables "$work/tables" KRvK > "$work/readonly.log" 2>&1 || status=$?
cat "$work/readonly.log"
[ "$status" -eq 5 ] || { echo "FAIL: a read-only view: exit status $status, expected 5"; exit 1; }
grep -q "process 1: the tables directory is not writable: .*: Read-only file system" "$work/readonly.log" ||
  { echo "FAIL: the message does not say that process 1 may not write"; exit 1; }
! grep -q "generating\|same tables directory" "$work/readonly.log" ||
  { echo "FAIL: a read-only view found after solving, or taken for another mount"; exit 1; }
rm -rf "$work"
echo "ok"
