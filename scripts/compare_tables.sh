#!/usr/bin/env bash
# The byte-identity check of every speed step: generates the same tables with two feerie
# binaries (before and after the step) under many conditions and compares the SHA-256 of
# every table file. Prints one line per condition ("same ..." or "DIFFER ...") and the
# wall time of each run in OUTDIR/times.log; exits 1 if any condition differs.
#
#   scripts/compare_tables.sh OLD_BINARY NEW_BINARY OUTDIR [MATERIAL...]
#
# Default materials: KQvKR KRvKB KBNvK KPvKR KNvKP (and their dependencies), one thread,
# under 16 conditions (every rule set: orthodox, the paralysis family, Isardam, Annan and
# Nanna, and combinations). CONDITIONS="orthodox madrasi-ri" narrows the set; THREADS=2
# runs both binaries with two threads (what the split passes of wins need).
set -u
old=$(readlink -f "$1") new=$(readlink -f "$2") out=$3
shift 3
mats=${*:-KQvKR KRvKB KBNvK KPvKR KNvKP}
threads=${THREADS:-1}
conds=${CONDITIONS:-orthodox madrasi madrasi-ri isardam isardam-b isardam-b-ri leffie eiffel annan nanna-c madrasi-ri+annan madrasi+annan isardam+nanna isardam-b+annan leffie+annan-d isardam-b-ri+nanna-c}
rm -rf "$out"; mkdir -p "$out"
status=0
for c in $conds; do
  for tag in old new; do
    bin=$old; [ $tag = new ] && bin=$new
    d="$out/$tag/$c"; mkdir -p "$d"
    /usr/bin/time -f "$tag $c %e s" "$bin" gen --threads "$threads" --no-checkpoint --condition "$c" --tables "$d" $mats \
      > /dev/null 2>> "$out/times.log" || { echo "FAIL $tag $c" >> "$out/times.log"; status=1; }
  done
  (cd "$out/old/$c" && find . -type f -name "*.ftb" | sort | xargs sha256sum) > "$out/old-$c.sha"
  (cd "$out/new/$c" && find . -type f -name "*.ftb" | sort | xargs sha256sum) > "$out/new-$c.sha"
  if cmp -s "$out/old-$c.sha" "$out/new-$c.sha"; then
    echo "same $c $(wc -l < "$out/new-$c.sha") tables"
  else
    echo "DIFFER $c"; status=1
  fi
  rm -rf "$out/old/$c" "$out/new/$c"
done
exit $status
