// Whether the values of a checkpoint agree with the state it says the solve was in
// (issue 27 E). A checkpoint's checksums say its bytes are the ones written, not that
// they belong together: one whose pass counters were edited and its checksums
// recomputed was resumed and gave tables with inconsistent values. What must hold after
// the passes before `next_ply` (gen/solver.cpp; value codes in probe/value.h):
//
//   - no mate among the values is longer than `max_plies` (the passes run up to it; it
//     may be longer than the longest, when a win found early was replaced by a shorter
//     one), and `next_ply` is at most `max_plies` + 1;
//   - the initialisation left no entry unresolved (no Unknown code);
//   - pass p propagated the entries whose mate is p plies away, once: an open entry that
//     counts down counts exactly its distinct successors in the component that are not
//     wins (for the side to move there) in fewer than `next_ply` plies, and an entry with
//     a successor lost in p < `next_ply` plies is a win in at most p + 1.
//
// The first two are checked on every value, the last on a sample of entries of each
// member and side (the moves of a few thousand positions: a small part of one pass). A
// spread solve (each process holding its own entries) is checked on the first two only.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "gen/solver.h"
#include "probe/indexer.h"
#include "probe/value.h"
#include "rules/fen.h"
#include "rules/movegen.h"

namespace feerie {

// "" when the values agree with `state`, else what disagrees, for a message. `whole`:
// `values` hold every entry (one process). `lands_inside(member, after, move, undo,
// entry)` is the solver's: true with the successor's entry (member << 1 | side, index)
// when the move stays in the component.
// `samples`: entries checked per member and side.
template <class Rules, class LandsInside>
std::string resumed_values_disagree(const std::vector<const Indexer*>& members, const Rules& rules,
                                    const SolverState& state, const std::vector<MemberValues>& values, bool whole,
                                    LandsInside&& lands_inside, std::uint64_t samples = 4096) {
  if (state.next_ply < 0 || state.max_plies < 0 || state.next_ply > state.max_plies + 1)
    return "its next pass " + std::to_string(state.next_ply) + " is past its longest mate " +
           std::to_string(state.max_plies) + " + 1";
  int longest = 0;
  for (const MemberValues& member : values)
    for (const ValueArray& side : member)
      for (std::uint64_t i = 0; i < side.size(); ++i) {
        const ValueCode v = side[i];
        if (v == value::Unknown) return "it holds an entry the initialisation never resolved";
        if (value::is_mate(v)) longest = std::max(longest, value::plies(v));
      }
  if (longest > state.max_plies)
    return "its values hold a mate in " + std::to_string(longest) + " plies, longer than the " +
           std::to_string(state.max_plies) + " it says";
  if (!whole) return "";
  const int n = state.next_ply;
  for (std::size_t member = 0; member < members.size(); ++member)
    for (int side = 0; side < 2; ++side) {
      const Indexer& indexer = *members[member];
      const std::uint64_t size = values[member][side].size(),
                          stride = std::max<std::uint64_t>(1, size / std::max<std::uint64_t>(1, samples));
      for (std::uint64_t i = stride / 2; i < size; i += stride) {
        const ValueCode v = values[member][side][i];
        Position pos;
        if (!indexer.decode(i, Color(side), pos) || !is_legal_position(pos, rules)) continue;
        MoveList moves;
        generate_legal(pos, rules, moves);
        std::vector<std::pair<int, std::uint64_t>> inside;  // (member << 1 | side, index)
        for (Move m : moves) {
          Position after = pos;
          UndoRecord undo;
          make_move(after, m, undo, rules);
          if (!ep_square_usable(after, rules)) after.set_ep_square(SQ_NONE);
          std::pair<int, std::uint64_t> entry;
          if (lands_inside(int(member), after, m, undo, entry)) inside.push_back(entry);
        }
        std::sort(inside.begin(), inside.end());
        inside.erase(std::unique(inside.begin(), inside.end()), inside.end());
        int not_won = 0, fastest_loss = INT_MAX;
        for (const auto& [table, index] : inside) {
          const ValueCode w = values[std::size_t(table >> 1)][table & 1][index];
          if (value::is_win(w) && value::plies(w) < n) continue;  // counted down by pass plies(w)
          if (value::is_loss(w) && value::plies(w) < n) fastest_loss = std::min(fastest_loss, value::plies(w));
          ++not_won;
        }
        const bool counts_wrong = value::counts_down(v) && value::open_successors(v) != not_won;
        const bool missed_win = fastest_loss != INT_MAX && !(value::is_win(v) && value::plies(v) <= fastest_loss + 1);
        if (counts_wrong || missed_win)
          return "the position " + to_fen(pos) + " (" + indexer.material().name() + " entry " + std::to_string(i) +
                 ") does not hold what the passes before " + std::to_string(n) + " leave there";
      }
    }
  return "";
}

}  // namespace feerie
