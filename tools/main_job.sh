#!/usr/bin/env bash
# The main job: set up and build, then show what Feerie does on example positions.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
feerie=build/tools/feerie
fen="8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
echo "== legal moves of $fen"
"$feerie" moves "$fen"
echo "== perft 5 of the same position"
"$feerie" perft --depth 5 "$fen"
