#!/usr/bin/env bash
# Side-by-side generation time of one table, feerie (DTM) against syzygy1/tb (WDL+DTZ):
# shared/bench/syzygy_side_by_side.sh extended to pawn tables, which syzygy1/tb makes
# with rtbgenp (issue 28: "KRPvKR <= 0.5x rtbgenp -t 2 full"). Both with 2 threads and
# their sub-tables ready (captures and promotions, recursively), alternating runs so that
# the machine's noise hits both. Prints each round, the peak memory of each run, and the
# median ratio feerie/peer for the peer's full run and for its values-only run (-g).
#
#   scripts/syzygy_side_by_side.sh FEERIE_BINARY TB_SOURCE TABLE [ROUNDS]
#
# TB_SOURCE: a directory holding syzygy1/tb's sources (src/Makefile), or a bare git
# directory of that repository (as the `fetch` tool gives it). rtbgen and rtbgenp are built
# once into /tmp/syzygy-tb (needs libzstd-dev); their sub-tables are made there too.
set -euo pipefail
F=$(readlink -f "$1"); SRC=$2; TABLE=$3; ROUNDS=${4:-3}
source "$(dirname "$(readlink -f "$0")")/syzygy_common.sh"
source "$(dirname "$(readlink -f "$0")")/median.sh"
syzygy_build "$SRC"
# Every table a capture or a promotion leads to, recursively (not the table itself).
subs() { syzygy_subs "$1" | tr ' ' '\n' | grep -vx "$1" | tr '\n' ' '; }
syzygy_generate $(subs "$TABLE")
W=$SYZYGY_WORK
T=$(mktemp -d /tmp/feerie-sbs.XXXX); S=$(mktemp -d /tmp/rtb-sbs.XXXX); trap 'rm -rf "$T" "$T.run" "$S"' EXIT
"$F" gen --tables "$T" --threads 2 $(subs "$TABLE") >/dev/null 2>&1
RTB=$(syzygy_peer "$TABLE")
full=(); gen=()
for i in $(seq "$ROUNDS"); do
  rm -rf "$T.run"; cp -r "$T" "$T.run"
  /usr/bin/time -f "%e %M" -o "$T.a" "$F" gen --tables "$T.run" --threads 2 "$TABLE" >/dev/null 2>&1
  rm -f "$S"/*; (cd "$S" && RTBPATH=$W/tables /usr/bin/time -f "%e %M" -o "$T.b" "$RTB" -t 2 "$TABLE" >/dev/null 2>&1)
  rm -f "$S"/*; (cd "$S" && RTBPATH=$W/tables /usr/bin/time -f "%e %M" -o "$T.c" "$RTB" -g -t 2 "$TABLE" >/dev/null 2>&1)
  read -r a am < <(tail -n1 "$T.a"); read -r b bm < <(tail -n1 "$T.b"); read -r c cm < <(tail -n1 "$T.c")
  full+=("$(python3 -c "print(round($a/$b,3))")"); gen+=("$(python3 -c "print(round($a/$c,3))")")
  echo "round $i: feerie ${a}s (peak $((am / 1024)) MiB)  $(basename "$RTB") ${b}s ($((bm / 1024)) MiB)  -g ${c}s ($((cm / 1024)) MiB)"
done
echo "$TABLE feerie/$(basename "$RTB"): median $(printf '%s\n' "${full[@]}" | median) (full), $(printf '%s\n' "${gen[@]}" | median) (values only)"
