// Helpmate tables (issue 25): for every position of a material, the fewest plies in which
// the two sides, cooperating, bring about the checkmate of a chosen side (the "victim"),
// and how many move sequences of that length there are.
//
// Conventions (docs/stipulations.md):
//   - the victim is mated when it is to move, in check, and has no legal move; a position
//     where the other side is mated, and a stalemate, end every sequence without a
//     helpmate;
//   - distances are in plies from the position: even when the victim is to move (in a
//     problem's terms, with Black the victim: h#N is 2N plies with Black to move first,
//     h#N.5 is 2N + 1 plies with White to move first);
//   - a solution is a sequence of legal moves (two promotions of one pawn are two
//     solutions); the count of the shortest ones is capped at HelpSolutionsCap.
//
// The solve is a breadth-first retrograde pass per victim: the victim's checkmates are at
// distance 0, every predecessor of an entry at distance n that has no shorter distance is
// at n + 1, and a move out of the material (a capture, a promotion, a mutation) offers 1 +
// the distance of its position in the finished sub-table from the start. No counting of
// open successors: cooperation makes the shortest path the value. The solutions are then
// counted forward, level by level: the sum over the moves that reach the level below of
// their counts.
#pragma once

#include <functional>
#include <vector>

#include "probe/help_tablebase.h"
#include "probe/material.h"
#include "rules/expected.h"
#include "rules/ruleset.h"

namespace feerie {

// Solves the helpmate tables of `targets` and of every material they lead to (SPEC 5's
// order: each component after the ones it depends on) under `rules`, in memory, with
// `threads` threads (0: OpenMP's default). One process alone.
Expected<HelpTablebase> solve_helpmates(const std::vector<Material>& targets, const RuleSet& rules, int threads = 0);

// The same for helpmates or selfmates (gen/self_solver.h).
Expected<HelpTablebase> solve_in_memory(const std::vector<Material>& targets, const RuleSet& rules,
                                        StipulationKind kind, int threads = 0);

// The helpmate tables of one component (`members`, canonical orientation) under `rules`,
// in the members' order; every material a move leads to outside the component must be in
// `subtables`. `cancelled` (may be empty) is polled after each pass: true stops the solve
// with an Interrupted error.
Expected<std::vector<HelpTable>> solve_help_component(const std::vector<const Indexer*>& members,
                                                      const HelpTablebase& subtables, int threads = 0,
                                                      const std::function<bool()>& cancelled = {});

}  // namespace feerie
