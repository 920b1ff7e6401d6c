# Shared by the scripts that run syzygy1/tb (sourced, not run): builds its generators once
# into $SYZYGY_WORK (default /tmp/syzygy-tb) and makes the Syzygy tables a table needs.
#
#   source scripts/syzygy_common.sh
#   syzygy_build TB_SOURCE          # rtbgen and rtbgenp into $SYZYGY_WORK/tb/src
#   syzygy_subs TABLE...            # the tables themselves and every table a capture or a
#                                   # promotion leads to, recursively, fewer units, then fewer pawns first
#   syzygy_generate TABLE...        # each of those into $SYZYGY_WORK/tables (kept between runs)
#   syzygy_peer TABLE               # the generator of one table (rtbgenp for pawn tables)
#
# TB_SOURCE: a directory holding syzygy1/tb's sources (src/Makefile), or a bare git
# directory of that repository (as the `fetch` tool gives it). Needs libzstd-dev.
SYZYGY_WORK=${SYZYGY_WORK:-/tmp/syzygy-tb}

syzygy_build() {
  local src=$1
  [[ -x $SYZYGY_WORK/tb/src/rtbgen && -x $SYZYGY_WORK/tb/src/rtbgenp ]] && return 0
  rm -rf "$SYZYGY_WORK/tb"; mkdir -p "$SYZYGY_WORK"
  if [[ -f $src/src/Makefile ]]; then cp -r "$src" "$SYZYGY_WORK/tb"; else git clone -q "$src" "$SYZYGY_WORK/tb"; fi
  local t
  for t in rtbgen rtbgenp; do   # one at a time, retried: LTO may fail in parallel
    (cd "$SYZYGY_WORK/tb/src" && make $t >/dev/null 2>&1 || make $t >/dev/null)
  done
}

syzygy_peer() { [[ $1 == *P* ]] && echo "$SYZYGY_WORK/tb/src/rtbgenp" || echo "$SYZYGY_WORK/tb/src/rtbgen"; }

# Named as syzygy1/tb names its files: stronger side first, units in the order KQRBNP.
syzygy_subs() {
  python3 - "$@" <<'PY'
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
todo = [name(*t.split("v")) for t in sys.argv[1:]]
seen = set(todo)
while todo:
    for s in down(todo.pop()):
        if s not in seen and s != "KvK":
            seen.add(s); todo.append(s)
print(" ".join(sorted(seen, key=lambda s: (len(s), s.count("P"), s))))
PY
}

syzygy_generate() {
  mkdir -p "$SYZYGY_WORK/tables"
  local s
  for s in $(syzygy_subs "$@"); do
    [[ -f $SYZYGY_WORK/tables/$s.rtbw && -f $SYZYGY_WORK/tables/$s.rtbz ]] && continue
    (cd "$SYZYGY_WORK/tables" && RTBPATH=$SYZYGY_WORK/tables "$(syzygy_peer "$s")" -t 2 "$s" >/dev/null)
  done
}
