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

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "probe/indexer.h"
#include "probe/material.h"
#include "probe/value.h"
#include "rules/expected.h"
#include "rules/position.h"
#include "rules/ruleset.h"

namespace feerie {

// Counts of shortest helpmates above this are stored as this.
inline constexpr int HelpSolutionsCap = 255;

// One position's helpmate: `plies` is value::mate_in_plies(distance), value::Draw when the
// victim can never be mated from it, value::Illegal when there is no such position.
struct HelpEntry {
  ValueCode plies = value::Illegal;
  int solutions = 0;  // shortest sequences, capped at HelpSolutionsCap; 0 unless plies is a mate
};

// The helpmate values of one material (canonical orientation), for both victims and both
// sides to move: [victim colour][side to move][index entry].
struct HelpTable {
  Material material;
  std::array<std::array<std::vector<ValueCode>, 2>, 2> plies;
  std::array<std::array<std::vector<std::uint8_t>, 2>, 2> solutions;
};

// Helpmate tables held in memory, looked up by position: the sub-tables of a solve and its
// result. Not thread-safe while tables are added; lookups may run in parallel.
class HelpTablebase {
 public:
  explicit HelpTablebase(RuleSet rules) : rules_(std::move(rules)) {}
  const RuleSet& rules() const { return rules_; }

  void add(HelpTable table);
  bool has(const Material& material) const;  // canonical orientation
  // The helpmate of `pos` in which `victim` is mated (in the colours of `pos`: a position
  // of the other orientation is looked up with colours exchanged). NotFound without its
  // table.
  Expected<HelpEntry> entry(const Position& pos, Color victim) const;
  // The table of `material` (canonical orientation), or null.
  const HelpTable* table(const Material& material) const;

 private:
  struct Loaded {
    std::unique_ptr<Indexer> indexer;
    HelpTable table;
  };
  RuleSet rules_;
  std::map<Material, Loaded> tables_;
};

// Solves the helpmate tables of `targets` and of every material they lead to (SPEC 5's
// order: each component after the ones it depends on) under `rules`, in memory, with
// `threads` threads (0: OpenMP's default). One process alone.
Expected<HelpTablebase> solve_helpmates(const std::vector<Material>& targets, const RuleSet& rules, int threads = 0);

}  // namespace feerie
