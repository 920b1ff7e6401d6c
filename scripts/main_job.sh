#!/usr/bin/env bash
# The main job: set up and build, then generate a default set of orthodox tables into
# ./tables, verify them, and probe a few positions, printing the answers; then a Madrasi
# RI and an Annan table with probes of their own, a component of magic tables, and a
# check of every table written.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
feerie=build/tools/feerie

echo "== generating (reuses tables already in ./tables)"
"$feerie" gen KQvK KRvK KBvK KNvK KPvK KBNvK KQvKR

echo "== verifying every value from its successors"
"$feerie" verify KvK KQvK KRvK KBvK KNvK KPvK KBNvK KQvKR

echo "== statistics"
"$feerie" stat KQvK
"$feerie" stat KBNvK
"$feerie" stat KQvKR

echo "== probing"
"$feerie" probe \
  '6k1/8/6K1/8/8/8/8/R7 w - - 0 1' \
  '8/8/8/5k2/8/8/1Q6/K7 w - - 0 1' \
  '8/8/8/8/2r5/8/2k5/K6Q w - - 0 1' \
  '7k/8/8/8/8/8/8/KBN5 w - - 0 1' \
  '8/8/8/8/8/4k3/4P3/4K3 w - - 0 1' \
  '8/8/8/8/8/4k3/4P3/4K3 b - - 0 1'
echo "== the same position as JSON"
"$feerie" probe --json '8/8/8/5k2/8/8/1Q6/K7 w - - 0 1'

echo "== fairy conditions: Madrasi Rex Inclusive KQvK (kings may meet and paralyse each other)"
"$feerie" gen --condition madrasi-ri KQvK
"$feerie" stat --condition madrasi-ri KQvK
# Kings a1 and b2 paralyse each other: White mates at once, Black to move is stalemated.
"$feerie" probe --condition madrasi-ri '8/8/8/8/8/8/1k6/K6Q w - - 0 1' '8/8/8/8/8/8/1k6/K6Q b - - 0 1'
echo "== Annan: the seed's diagram D (White Kb3, Ra2, Ra4, Black Kh3), mate in 1 by a2b2 only"
"$feerie" gen --condition annan KRRvK
"$feerie" probe --condition annan '8/8/8/8/R7/1K5k/R7/8 w - - 0 1'
echo "== magic pieces: the seed's diagram A, each move with the position after it"
"$feerie" moves --after '8/8/8/n1N5/8/1R*6/8/K6k w - - 0 1' | grep '^b3b6 '
echo "== magic pieces: KmRvKP and the materials it turns into (one component, solved together)"
"$feerie" gen KmRvKP
"$feerie" verify KPvKmR
# d8b7: the knight meets the magic rook, becomes a pawn and mates; the flipped position is a draw.
"$feerie" probe 'k1KN4/r*7/8/8/8/8/8/8 w - - 0 1' '8/8/8/8/8/8/r*7/k1KN4 w - - 0 1'
echo "== every table on disk checked against its header and block checksums"
"$feerie" check
