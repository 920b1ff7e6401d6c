#!/usr/bin/env bash
# One table under a fairy condition and under orthodox chess at the same time, one thread
# each, from sub-tables already generated, and the time per index entry of the fairy run
# against the orthodox one (issue 28's measure). Running both at once lets the machine's
# noise hit both; the ratio divides by each run's own number of entries (conditions where
# kings may touch have more: KRPvKR 1,056,964,608 entries against 946,864,128), which a
# ratio of times alone does not.
#
#   scripts/pair_per_entry.sh FEERIE_BINARY CONDITION TABLE SUBTABLES_DIR [ORTHODOX_BINARY]
#
# SUBTABLES_DIR holds SUBTABLES_DIR/<condition>/ and SUBTABLES_DIR/orthodox/ with every
# table TABLE depends on (`feerie gen --tables SUBTABLES_DIR ...` makes them). Prints user
# seconds, peak memory and the SHA-256 prefix of each table, then the ratio per entry.
# ROUNDS=n repeats the pair n times and ends with the median ratio: on a shared virtual
# machine one pair's ratio drifts by several percent from one run to the next.
set -euo pipefail
F=$(readlink -f "$1"); C=$2; TABLE=$3; SUBS=$(readlink -f "$4"); O=$(readlink -f "${5:-$1}")
source "$(dirname "$(readlink -f "$0")")/median.sh"
W=$(mktemp -d /tmp/feerie-pair.XXXX); trap 'rm -rf "$W"' EXIT
run() {  # binary condition tag
  local d=$W/$3
  mkdir -p "$d/$2"
  for f in "$SUBS/$2"/*.ftb; do ln -sf "$f" "$d/$2/"; done
  rm -f "$d/$2/$TABLE".*
  /usr/bin/time -f "%U %M" -o "$d/time" "$1" gen --condition "$2" --tables "$d" --threads 1 --no-checkpoint "$TABLE" \
    >"$d/log" 2>&1 || { echo "$2: gen failed (see $d/log)"; cat "$d/log"; exit 1; }
}
# One pair: each run waited for by its own pid, so that a failed one stops the script.
round() {
  run "$F" "$C" fairy & fairy=$!
  run "$O" orthodox ortho & ortho=$!
  wait "$fairy"; wait "$ortho"
  entries() { "$1" gen --condition "$2" --tables "$W/plan" --plan "$TABLE" | awk -v t="$TABLE:" '$1 == t { print $3 }'; }
  read -r fu fm <"$W/fairy/time"; read -r ou om <"$W/ortho/time"
  fe=$(entries "$F" "$C"); oe=$(entries "$O" orthodox)
  echo "$C $TABLE: $fu s user, $fe entries, peak $((fm / 1024)) MiB, $(sha256sum "$W/fairy/$C/$TABLE.ftb" | cut -c1-16)"
  echo "orthodox $TABLE: $ou s user, $oe entries, peak $((om / 1024)) MiB, $(sha256sum "$W/ortho/orthodox/$TABLE.ftb" | cut -c1-16)"
  python3 -c "import sys; f,fe,o,oe = map(float, sys.argv[1:]); print(f'per entry vs orthodox: {(f/fe)/(o/oe):.3f} (times alone: {f/o:.3f})')" \
    "$fu" "$fe" "$ou" "$oe" | tee -a "$W/ratios"
}
rounds=${ROUNDS:-1}
for ((r = 1; r <= rounds; r++)); do
  [ "$rounds" -gt 1 ] && echo "round $r of $rounds"
  round
done
if [ "$rounds" -gt 1 ]; then
  echo "median per entry vs orthodox over $rounds rounds: $(awk '{ print $5 }' "$W/ratios" | median)"
fi
