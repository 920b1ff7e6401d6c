// What makes a mined direct mate worth publishing (issue 24, `feerie mine` filters): the
// key's kind, captures in the solution, the units the problem needs. Definitions, for a
// position `pos` won by the side to move (the attacker) with value `v`:
//
// - key: a legal move of the attacker that keeps the shortest mate (every such move when
//   there are several).
// - quiet key: every key is neither a capture nor a check.
// - solution tree: from `pos`, every key; after it every legal reply of the defender;
//   after each reply every move of the attacker that keeps the shortest mate from there;
//   and so on down to the mates.
// - no capture: no move of the solution tree captures (captures by the defender
//   included: a defence that takes a unit is part of the play).
// - every unit needed: for each unit other than the kings, the position without it is
//   illegal, or its value differs from `v` (another result or length), or its solution
//   tree (probe/solution_tree.h: keys, every defence, every shortest continuation) differs
//   from that of `pos` (moves compared by squares and promotion). A unit whose removal
//   leaves the same problem with the same solution is not needed. A magic unit counts as
//   needed (it is never captured: the tables without it are not made).
//
// Thread-safety: the functions only read through `tb` (whose probes are thread-safe).
#pragma once

#include "probe/tablebase.h"
#include "rules/expected.h"
#include "rules/position.h"

namespace feerie {

Expected<bool> has_quiet_key(const Tablebase& tb, const Position& pos, ValueCode v);
Expected<bool> solution_has_no_capture(const Tablebase& tb, const Position& pos, ValueCode v);
Expected<bool> every_unit_needed(const Tablebase& tb, const Position& pos, ValueCode v);

}  // namespace feerie
