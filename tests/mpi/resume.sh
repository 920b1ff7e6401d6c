#!/usr/bin/env bash
# Per-process checkpoints (docs/scale.md): an MPI generation interrupted in the middle of
# its solve (SIGTERM to mpirun once every process has saved a checkpoint) resumes from the
# checkpoints when run again, and the table is byte-identical to one process's.
#
#   tests/mpi/resume.sh FEERIE WORKDIR   (MPIRUN: the launcher, default mpirun)
set -euo pipefail
feerie=$1 work=$2
source "$(dirname "$0")/common.sh"
# The runs that resume save no checkpoint of their own (the default interval is minutes).
run() {
  "$mpirun" --oversubscribe -np 2 "$feerie" gen --mpi --threads 1 --condition annan --tables "$work/spread" KBvKN
}
"$feerie" gen --no-checkpoint --condition annan --tables "$work/spread" KBvK KNvK > /dev/null
# mpirun itself in the background (a background shell would ignore the signal).
"$mpirun" --oversubscribe -np 2 "$feerie" gen --mpi --threads 1 --checkpoint-interval 0 --condition annan \
  --tables "$work/spread" KBvKN > "$work/first.log" 2>&1 &
job=$!
for _ in $(seq 600); do
  [ -e "$work/spread/annan/KBvKN.0-of-2.ckpt" ] && [ -e "$work/spread/annan/KBvKN.1-of-2.ckpt" ] && break
  sleep 0.1
done
sleep 0.5
kill -TERM "$job"
wait "$job" || true
if [ -e "$work/spread/annan/KBvKN.ftb" ]; then
  echo "FAIL: the first run finished before it was interrupted"; cat "$work/first.log"; exit 1
fi
# Process 0 says it for the job, naming the other cause it cannot tell from a signal.
grep -q "^feerie: interrupted (a signal to the job, or another process failed: see its message); " "$work/first.log" ||
  { echo "FAIL: process 0 did not say it was interrupted"; cat "$work/first.log"; exit 1; }
mkdir -p "$work/saved"
cp "$work/spread/annan/"KBvKN.*-of-2.ckpt "$work/saved/"
run > "$work/second.log" 2>&1 || { echo "FAIL: the second run failed"; cat "$work/second.log"; exit 1; }
cat "$work/second.log"
grep -q "resuming KBvKN from its checkpoint at pass" "$work/second.log" || { echo "FAIL: did not resume"; exit 1; }
"$feerie" gen --no-checkpoint --condition annan --tables "$work/single" KBvKN > /dev/null
cmp "$work/single/annan/KBvKN.ftb" "$work/spread/annan/KBvKN.ftb" || { echo "FAIL: tables differ"; exit 1; }
# Stopped while the processes renamed their new checkpoints over the old ones
# (gen/spread_checkpoint.h): process 0's is still pending, process 1's renamed. The job
# resumes from that pass, reading process 0's pending file (a job stopped while saving
# once started over).
rm "$work/spread/annan/KBvKN.ftb"
cp "$work/saved/KBvKN.0-of-2.ckpt" "$work/spread/annan/KBvKN.0-of-2.next.ckpt"
cp "$work/saved/KBvKN.1-of-2.ckpt" "$work/spread/annan/"
run > "$work/pending.log" 2>&1 || { echo "FAIL: the run from a pending checkpoint failed"; cat "$work/pending.log"; exit 1; }
cat "$work/pending.log"
grep -q "resuming KBvKN from its checkpoint at pass" "$work/pending.log" ||
  { echo "FAIL: did not resume from the pending checkpoint"; exit 1; }
cmp "$work/single/annan/KBvKN.ftb" "$work/spread/annan/KBvKN.ftb" || { echo "FAIL: tables differ after a pending checkpoint"; exit 1; }
# Process 1's checkpoint gone: the job starts over, and says so rather than that it
# resumes (it once printed "resuming ... at pass N" and started over).
rm "$work/spread/annan/KBvKN.ftb"
cp "$work/saved/KBvKN.0-of-2.ckpt" "$work/spread/annan/"
run > "$work/third.log" 2>&1 || { echo "FAIL: the third run failed"; cat "$work/third.log"; exit 1; }
cat "$work/third.log"
if grep -q "feerie: resuming\|resumed at pass" "$work/third.log"; then echo "FAIL: said it resumed"; exit 1; fi
grep -q "not resuming: the processes hold no pass in common (process 0 holds pass [0-9]*; process 1 has no checkpoint); starting over" "$work/third.log" ||
  { echo "FAIL: did not say why it started over"; exit 1; }
cmp "$work/single/annan/KBvKN.ftb" "$work/spread/annan/KBvKN.ftb" || { echo "FAIL: tables differ after starting over"; exit 1; }
if leftovers=$(find "$work/spread" -name "*.ckpt" -o -name "*.tmp.*" | grep .); then
  echo "FAIL: left behind: $leftovers"; exit 1
fi
rm -rf "$work"
echo "ok"
