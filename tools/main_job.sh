#!/usr/bin/env bash
# The main job: set up and build, then generate a default set of orthodox tables into
# ./tables, verify them, and probe a few positions, printing the answers.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
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
