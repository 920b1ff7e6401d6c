#!/usr/bin/env bash
# The per-position proof of an index change (issue 28): generates the same tables with two
# feerie binaries (before and after the change; their files differ, their values must
# not), lists every position of each table with its value (`feerie mine --values`, one
# thread: index order) and compares the two lists position by position. Positions without
# an en-passant square keep their index across the en-passant layouts, so their lines come
# in the same order and are compared as streams (a 5-man table's hundreds of millions of
# lines are never stored); the en-passant positions, whose order changed, are sorted and
# compared apart. Prints one line per table ("same ..." or "DIFFER ...") and exits 1 if
# any differs.
#
#   tools/compare_index_layouts.sh OLD_BINARY NEW_BINARY OUTDIR [CONDITION:MATERIAL...]
#
# Default: KPvKP (pawns of both colours: a table with an en-passant region) under orthodox,
# madrasi-ri, isardam, eiffel, leffie, annan, nanna and madrasi-ri+annan, about 1.5 min
# each on 2 cores; 5-man tables and magic components (whose en-passant regions need five
# units) by argument, e.g. orthodox:KRPvKP. THREADS (default 2) sets gen's threads. Both
# binaries need `mine --values`.
#
# SEED=DIR shares sub-tables: DIR/<condition>/*.ftb are copied into both binaries' table
# directories before they generate, so that only the tables whose layout changed are
# generated twice (a 5-man table's promotion tables take hours otherwise). Give it only
# tables that both binaries read as they are (the layout strings agree, e.g. `/ep0` across
# the en-passant change); each seed table is compared byte for byte afterwards and the
# table is reported DIFFER if either binary rewrote it differently.
set -u
old=$(readlink -f "$1") new=$(readlink -f "$2") out=$3
shift 3
tables=${*:-orthodox:KPvKP madrasi-ri:KPvKP isardam:KPvKP eiffel:KPvKP leffie:KPvKP annan:KPvKP nanna:KPvKP madrasi-ri+annan:KPvKP}
threads=${THREADS:-2}
ep_line=' [wb] - [a-h][36] '  # the FEN's en-passant field names a square
rm -rf "$out"; mkdir -p "$out"
status=0
for item in $tables; do
  condition=${item%%:*} material=${item#*:}
  for tag in old new; do
    bin=$old; [ $tag = new ] && bin=$new
    if [ -n "${SEED:-}" ]; then mkdir -p "$out/$tag"; cp -a "$SEED/." "$out/$tag/"; fi
    /usr/bin/time -f "$tag $item gen %e s, %M KB" "$bin" gen --threads "$threads" --no-checkpoint --condition "$condition" \
      --tables "$out/$tag" "$material" > /dev/null 2>> "$out/times.log" || { echo "FAIL gen $tag $item"; status=1; continue 2; }
  done
  # Each side's list: the lines without en passant to the comparison, the others and the
  # number of lines to files.
  list() {
    "$1" mine --threads 1 --values --condition "$condition" --tables "$out/$2" "$material" |
      awk -v ep="$out/$2.ep" -v count="$out/$2.count" -v re="$ep_line" \
        '$0 ~ re { print > ep; next } { print } END { print NR > count }'
  }
  rm -f "$out"/*.fifo "$out"/*.ep "$out"/*.count; touch "$out/old.ep" "$out/new.ep"
  mkfifo "$out/old.fifo" "$out/new.fifo"
  list "$old" old > "$out/old.fifo" & writer_old=$!
  list "$new" new > "$out/new.fifo" & writer_new=$!
  if cmp -s "$out/old.fifo" "$out/new.fifo"; then plain=same; else plain=differ; fi
  wait $writer_old $writer_new  # a difference stops cmp early and the writers with it
  sort -o "$out/old.ep" "$out/old.ep"; sort -o "$out/new.ep" "$out/new.ep"
  if cmp -s "$out/old.ep" "$out/new.ep"; then with_ep=same; else with_ep=differ; fi
  seeds=same
  if [ -n "${SEED:-}" ]; then
    for file in $(cd "$SEED" && find . -name '*.ftb'); do
      cmp -s "$SEED/$file" "$out/old/$file" && cmp -s "$SEED/$file" "$out/new/$file" || seeds=differ
    done
  fi
  if [ $plain = same ] && [ $with_ep = same ] && [ $seeds = same ] && cmp -s "$out/old.count" "$out/new.count"; then
    echo "same $item: $(cat "$out/new.count") positions ($(wc -l < "$out/new.ep") with an en-passant square)"
  else
    echo "DIFFER $item (the lines without en passant: $plain; with: $with_ep; seed tables: $seeds)"
    status=1
  fi
  rm -rf "$out/old" "$out/new" "$out"/*.ep "$out"/*.count "$out"/*.fifo
done
exit $status
