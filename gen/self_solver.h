// Selfmate tables (issue 25, docs/stipulations.md): for every position of a material and
// each colour F, the fewest plies in which F forces the other colour D to checkmate F, D
// avoiding it as long as it can (and for ever when it can).
//
// Terminal positions: F to move, in check, without a legal move: 0 plies. Any other
// position without a move (a stalemate of either side, D mated by F) has no selfmate. F to
// move: 1 + the shortest of its moves' selfmates, none if no move has one. D to move: none
// if one of its moves has none, else 1 + the longest of its moves'. So with F = White a
// problem's s#N is 2N plies with White to move, and a position with Black to move whose
// every move mates White is at 1 ply.
//
// The solve is SPEC 5's with the roles fixed by colour instead of by the side to move:
// initialise (F mated; D's positions count their successors inside the component, a move
// of D out of it to a position without a selfmate makes it none at once), then per pass n
// the entries at n pass it on: at even n (F to move) each predecessor of D counts one
// successor fewer and, at none left, is at 1 + the longest of its moves; at odd n (D to
// move) each predecessor of F is at n + 1 unless nearer. What stays open has none.
#pragma once

#include <functional>
#include <vector>

#include "probe/help_tablebase.h"
#include "probe/indexer.h"

namespace feerie {

// The selfmate tables of one component (`members`, canonical orientation), in the members'
// order (HelpTable::solutions all 0); every material a move leads to outside the component
// must be in `subtables` (of kind Selfmate). `cancelled` as solve_help_component's.
Expected<std::vector<HelpTable>> solve_self_component(const std::vector<const Indexer*>& members,
                                                      const HelpTablebase& subtables, int threads = 0,
                                                      const std::function<bool()>& cancelled = {});

}  // namespace feerie
