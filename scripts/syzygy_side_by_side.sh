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
W=/tmp/syzygy-tb
if [[ ! -x $W/tb/src/rtbgen || ! -x $W/tb/src/rtbgenp ]]; then
  rm -rf "$W/tb"; mkdir -p "$W"
  if [[ -f $SRC/src/Makefile ]]; then cp -r "$SRC" "$W/tb"; else git clone -q "$SRC" "$W/tb"; fi
  for t in rtbgen rtbgenp; do   # one at a time, retried: LTO may fail in parallel
    (cd "$W/tb/src" && make $t >/dev/null 2>&1 || make $t >/dev/null)
  done
fi
peer() { [[ $1 == *P* ]] && echo "$W/tb/src/rtbgenp" || echo "$W/tb/src/rtbgen"; }
# Every table a capture or a promotion leads to, recursively, named as syzygy1/tb names
# them (stronger side first, units in the order KQRBNP), smaller tables first.
subs() {
  python3 - "$1" <<'PY'
import sys
ORDER = "KQRBNP"
def norm(side): return "".join(sorted(side, key=ORDER.index))
def name(w, b):
    w, b = norm(w), norm(b)
    key = lambda s: (-len(s), [ORDER.index(c) for c in s])
    return b + "v" + w if key(b) < key(w) else w + "v" + b
def down(t):
    w, b = t.split("v")
    out = set()
    for i in range(1, len(w)): out.add(name(w[:i] + w[i+1:], b))
    for i in range(1, len(b)): out.add(name(w, b[:i] + b[i+1:]))
    for side, other, first in ((w, b, True), (b, w, False)):
        for i, c in enumerate(side):
            if c == "P":
                for p in "QRBN":
                    s = side[:i] + p + side[i+1:]
                    out.add(name(s, other) if first else name(other, s))
    return out
seen, todo = set(), [sys.argv[1]]
while todo:
    for s in down(todo.pop()):
        if s not in seen and s != "KvK":
            seen.add(s); todo.append(s)
print(" ".join(sorted(seen, key=lambda s: (len(s), "P" in s, s))))
PY
}
mkdir -p "$W/tables"
for s in $(subs "$TABLE"); do
  [[ -f $W/tables/$s.rtbw ]] || (cd "$W/tables" && RTBPATH=$W/tables "$(peer "$s")" -t 2 "$s" >/dev/null)
done
T=$(mktemp -d /tmp/feerie-sbs.XXXX); S=$(mktemp -d /tmp/rtb-sbs.XXXX); trap 'rm -rf "$T" "$T.run" "$S"' EXIT
"$F" gen --tables "$T" --threads 2 $(subs "$TABLE") >/dev/null 2>&1
RTB=$(peer "$TABLE")
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
mid=$(( (ROUNDS + 1) / 2 ))
echo "$TABLE feerie/$(basename "$RTB"): median $(printf '%s\n' "${full[@]}" | sort -n | sed -n ${mid}p) (full), $(printf '%s\n' "${gen[@]}" | sort -n | sed -n ${mid}p) (values only)"
